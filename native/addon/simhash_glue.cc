// NativeSimHash: one fingerprint pipeline, with batch and async batch calls.
// Async work copies its inputs on the main thread, shares the immutable
// pipeline, and never touches N-API off the main thread.
#include <algorithm>
#include <atomic>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "../core/pipeline.h"
#include "../core/presets.h"
#include "../core/utf16.h"
#include "glue_util.h"
#include "modules.h"

namespace simhash_zh_addon {
namespace {

using simhash_zh::Fingerprint;
using simhash_zh::Fingerprinter;

constexpr char kWhere[] = "the native fingerprinter";

// A flag that JS sets (AbortSignal) and worker threads read.
class CancelToken : public TaggedWrap<CancelToken> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x5e21a9c7d8f04b13ULL, 0x96b3f0e7214c8ad5ULL};
  static constexpr const char* kClassName = "CancelToken";

  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "CancelToken", {InstanceMethod<&CancelToken::Cancel>("cancel")});
  }
  explicit CancelToken(const Napi::CallbackInfo& info)
      : TaggedWrap<CancelToken>(info), flag_(std::make_shared<std::atomic<bool>>(false)) {}
  std::shared_ptr<std::atomic<bool>> flag() const { return flag_; }

 private:
  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    flag_->store(true);
    return info.Env().Undefined();
  }
  std::shared_ptr<std::atomic<bool>> flag_;
};

// One async batch: the texts, copied as UTF-16 on the main thread (the cheapest copy out
// of V8), read by every worker of the batch. The workers take chunks of texts in turn from
// `next` until none is left, so a slow thread delays the batch by one chunk at most.
struct AsyncBatch {
  std::u16string units;
  std::vector<size_t> starts;  // text i is units[starts[i], starts[i + 1])
  size_t count = 0;
  size_t chunk = 1;            // texts per turn
  std::atomic<size_t> next{0};
  std::atomic<bool> aborted{false};
  std::vector<uint64_t> results;  // words per text: bits / 64
  size_t workers_left = 0;        // main thread only
};

// One of the workers of a batch, on a libuv thread.
class FingerprintWorker : public Napi::AsyncWorker {
 public:
  FingerprintWorker(Napi::Env env, std::shared_ptr<const Fingerprinter> engine, std::shared_ptr<AsyncBatch> batch,
                    Napi::TypedArrayOf<uint64_t> out, std::shared_ptr<std::atomic<bool>> cancelled)
      : Napi::AsyncWorker(env, "simhash-zh:fingerprintManyAsync"),
        engine_(std::move(engine)),
        batch_(std::move(batch)),
        cancelled_(std::move(cancelled)),
        deferred_(Napi::Promise::Deferred::New(env)),
        out_(Napi::Persistent(out)) {}

  Napi::Promise promise() const { return deferred_.Promise(); }

 protected:
  // node-addon-api turns an exception here into OnError with its what(); a failed allocation
  // is flagged so that OnError can give it the same code as on the main thread.
  void Execute() override {
    try {
      Run();
    } catch (const std::bad_alloc&) {
      out_of_memory_ = true;
      SetError("out of memory");
    }
  }

  void Run() {
    AsyncBatch& batch = *batch_;
    const size_t words = static_cast<size_t>(engine_->bits() / 64);
    // Converted here, off the main thread, with N-API's lone-surrogate rule.
    struct Reader {
      const AsyncBatch* batch;
      size_t first;
      std::string utf8;
    } reader{&batch, 0, {}};
    auto text_at = [](void* context, size_t index) -> std::string_view {
      auto& r = *static_cast<Reader*>(context);
      const size_t i = r.first + index;
      const size_t start = r.batch->starts[i];
      return simhash_zh::utf16_to_utf8(r.batch->units.data() + start, r.batch->starts[i + 1] - start, r.utf8);
    };
    std::vector<Fingerprint> fingerprints(batch.chunk);
    for (;;) {
      if (cancelled_ && cancelled_->load(std::memory_order_relaxed)) {
        batch.aborted.store(true);
        return;
      }
      const size_t first = batch.next.fetch_add(batch.chunk);
      if (first >= batch.count) return;
      const size_t n = std::min(batch.chunk, batch.count - first);
      reader.first = first;
      engine_->fingerprint_batch(n, text_at, &reader, fingerprints.data());
      for (size_t k = 0; k < n; ++k) {
        batch.results[(first + k) * words] = fingerprints[k].lo;
        if (words == 2) batch.results[(first + k) * words + 1] = fingerprints[k].hi;
      }
    }
  }

  // The last worker of the batch to finish copies the results out.
  void OnOK() override {
    Napi::Env env = Env();
    AsyncBatch& batch = *batch_;
    const bool aborted = batch.aborted.load();
    if (--batch.workers_left == 0 && !aborted) {
      // Read now: JS may have detached the array (a transfer) while the batch ran.
      auto out = out_.Value();
      if (out.ElementLength() != batch.results.size()) {
        deferred_.Reject(Napi::RangeError::New(env, "out was detached or resized during the batch").Value());
        return;
      }
      std::copy(batch.results.begin(), batch.results.end(), out.Data());
    }
    deferred_.Resolve(Napi::Boolean::New(env, !aborted));
  }

  void OnError(const Napi::Error& error) override {
    --batch_->workers_left;
    deferred_.Reject(out_of_memory_ ? out_of_memory(Env(), kWhere).Value() : error.Value());
  }

 private:
  std::shared_ptr<const Fingerprinter> engine_;
  std::shared_ptr<AsyncBatch> batch_;
  std::shared_ptr<std::atomic<bool>> cancelled_;
  Napi::Promise::Deferred deferred_;
  Napi::Reference<Napi::TypedArrayOf<uint64_t>> out_;
  bool out_of_memory_ = false;
};

// Texts joined into parts (lib/joined-texts.ts), cut apart by their lengths.
constexpr char kPartsMismatch[] = "parts must be strings as long as the lengths say";

// The UTF-16 length of a part; a part that is not a string is a TypeError.
size_t part_length(Napi::Env env, napi_value part) {
  size_t length = 0;
  require(napi_get_value_string_utf16(env, part, nullptr, 0, &length) == napi_ok, env, kPartsMismatch);
  return length;
}

// Copies a part of `length` units (part_length) to `to`, which has room for length + 1 (N-API
// writes a terminator).
void copy_part(Napi::Env env, napi_value part, char16_t* to, size_t length) {
  size_t copied = 0;
  require(napi_get_value_string_utf16(env, part, to, length + 1, &copied) == napi_ok && copied == length, env,
          kPartsMismatch);
}

// The texts of fingerprintParts, read in order: each part when its first text is wanted.
class PartReader {
 public:
  PartReader(Napi::Env env, Napi::Array parts, const std::vector<uint32_t>& lengths)
      : env_(env), parts_(parts), part_count_(parts.Length()), lengths_(lengths) {}

  size_t first = 0;  // text `index` of text() is text first + index of the batch

  // Text first + index, as UTF-8 valid until the next call; texts come in order.
  std::string_view text(size_t index) {
    const size_t i = first + index;
    while (i >= loaded_end_) load_part();
    const uint32_t length = lengths_[i];
    if (whole_) return length == 0 ? std::string_view() : whole_text_;
    const size_t start = offset_;
    offset_ += length;
    return simhash_zh::utf16_to_utf8(units_.data() + start, length, utf8_);
  }

  // Checks that no part was left unread.
  void finish() {
    while (next_part_ < part_count_) load_part();
  }

 private:
  // The next part: its texts are those from loaded_end_ whose lengths add up to its own. Past
  // the last part, only texts of length 0 may be left.
  void load_part() {
    const size_t begin = loaded_end_;
    whole_ = false;
    offset_ = 0;
    if (next_part_ == part_count_) {
      require(begin < lengths_.size(), env_, kPartsMismatch);
      for (size_t i = begin; i < lengths_.size(); ++i) require(lengths_[i] == 0, env_, kPartsMismatch);
      loaded_end_ = lengths_.size();
      whole_ = true;
      whole_text_ = std::string_view();
      return;
    }
    napi_value part = parts_.Get(next_part_++);
    const size_t length = part_length(env_, part);
    size_t at = 0;
    size_t end = begin;
    size_t nonempty = 0;
    while (at < length && end < lengths_.size()) {
      nonempty += lengths_[end] != 0;
      at += lengths_[end++];
    }
    require(at == length, env_, kPartsMismatch);
    loaded_end_ = end;
    if (nonempty == 1) {
      // One text (and maybe texts of length 0 before it): read as fingerprint() reads a text,
      // a text over 1M units without a UTF-16 copy.
      whole_ = true;
      whole_text_ = read_text(env_, part, buffer_);
    } else if (length > 0) {
      units_.resize(length + 1);  // + 1: N-API writes a terminator
      copy_part(env_, part, units_.data(), length);
    }
  }

  Napi::Env env_;
  Napi::Array parts_;
  const uint32_t part_count_;
  const std::vector<uint32_t>& lengths_;
  uint32_t next_part_ = 0;
  size_t loaded_end_ = 0;  // the texts before it are in parts read
  bool whole_ = false;     // the part read last is one text, whole_text_, and texts of length 0
  std::string_view whole_text_;
  std::u16string units_;   // otherwise its units
  size_t offset_ = 0;      // where the next of its texts starts
  std::string utf8_;
  std::string buffer_;
};

Napi::TypedArrayOf<uint64_t> require_out(Napi::Env env, const Napi::Value& value, size_t length) {
  require(value.IsTypedArray() &&
              value.As<Napi::TypedArray>().TypedArrayType() == napi_biguint64_array,
          env, "out must be a BigUint64Array");
  auto out = value.As<Napi::TypedArrayOf<uint64_t>>();
  if (out.ElementLength() != length) throw Napi::RangeError::New(env, "out has the wrong length");
  return out;
}

// config: { dictionary: string (path) | Uint8Array, html: 0|1|2, foldWidth, lowercase,
//   weighting: 0..3, features: 0..2, sketch: 0 (minhash) | 1 (simhash), hmm, dropNumbers, wholeUrls, useStopWords, stopWords?: string[],
//   userWords: [word, freq (-1: suggested)][] }, validated in TypeScript.
std::shared_ptr<const Fingerprinter> make_pipeline(Napi::Env env, int bits, Napi::Object config) {
  require(bits == 64 || bits == 128, env, "bits must be 64 or 128");
  std::shared_ptr<const simhash_zh::Dictionary> dictionary = load_dictionary(env, config.Get("dictionary"));

  simhash_zh::PipelineOptions options;
  options.bits = bits;
  const int html = config.Get("html").ToNumber().Int32Value();
  if (html < 0 || html > 2) throw Napi::RangeError::New(env, "html mode must be 0, 1 or 2");
  options.normalize.html = static_cast<simhash_zh::HtmlMode>(html);
  options.normalize.fold_width = config.Get("foldWidth").ToBoolean();
  options.normalize.lowercase = config.Get("lowercase").ToBoolean();
  const int weighting = config.Get("weighting").ToNumber().Int32Value();
  if (weighting < 0 || weighting > 3) throw Napi::RangeError::New(env, "weighting must be 0..3");
  options.weighting = static_cast<simhash_zh::Weighting>(weighting);
  const int features = config.Get("features").ToNumber().Int32Value();
  if (features < 0 || features > 2) throw Napi::RangeError::New(env, "features must be 0..2");
  options.features = static_cast<simhash_zh::FeatureSet>(features);
  const int sketch = config.Get("sketch").ToNumber().Int32Value();
  if (sketch < 0 || sketch > 1) throw Napi::RangeError::New(env, "sketch must be 0 or 1");
  options.sketch = static_cast<simhash_zh::Sketch>(sketch);
  options.hmm = config.Get("hmm").ToBoolean();
  options.drop_numbers = config.Get("dropNumbers").ToBoolean();
  options.whole_urls = config.Get("wholeUrls").ToBoolean();
  options.use_stop_words = config.Get("useStopWords").ToBoolean();
  Napi::Value stop = config.Get("stopWords");
  if (stop.IsArray()) {
    auto list = stop.As<Napi::Array>();
    options.custom_stop_words = true;
    for (uint32_t i = 0; i < list.Length(); ++i) {
      Napi::Value word = list.Get(i);
      require(word.IsString(), env, "stop words must be strings");
      options.stop_words.push_back(word.As<Napi::String>().Utf8Value());
    }
  }
  Napi::Value user = config.Get("userWords");
  if (user.IsArray()) {
    auto list = user.As<Napi::Array>();
    for (uint32_t i = 0; i < list.Length(); ++i) {
      Napi::Value pair = list.Get(i);
      require(pair.IsArray(), env, "userWords must be [word, freq] pairs");
      auto item = pair.As<Napi::Array>();
      require(item.Get(0u).IsString() && item.Get(1u).IsNumber(), env, "userWords must be [word, freq] pairs");
      options.user_words.emplace_back(item.Get(0u).As<Napi::String>().Utf8Value(),
                                      item.Get(1u).As<Napi::Number>().DoubleValue());
    }
  }
  return std::make_shared<simhash_zh::DefaultPipeline>(std::move(dictionary), std::move(options));
}

class NativeSimHash : public TaggedWrap<NativeSimHash> {
 public:
  static constexpr napi_type_tag kTypeTag = {0xc7f4082b6e19d35aULL, 0x1d8a5c3ef2b7906eULL};
  static constexpr const char* kClassName = "NativeSimHash";

  static Napi::Function Define(Napi::Env env) {
    return DefineClass(
        env, "NativeSimHash",
        {InstanceMethod<&NativeSimHash::FingerprintOne>("fingerprint"),
         InstanceMethod<&NativeSimHash::FingerprintParts>("fingerprintParts"),
         InstanceMethod<&NativeSimHash::FingerprintManyAsync>("fingerprintManyAsync"),
         InstanceMethod<&NativeSimHash::Features>("features")});
  }

  // NativeSimHash(preset: string, bits: number) or NativeSimHash('default', bits, config).
  explicit NativeSimHash(const Napi::CallbackInfo& info) : TaggedWrap<NativeSimHash>(info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsString() && info[1].IsNumber(), env,
            "NativeSimHash(preset: string, bits: number, config?: object)");
    const std::string preset = info[0].As<Napi::String>().Utf8Value();
    const int bits = info[1].As<Napi::Number>().Int32Value();
    if (preset == "default") {
      require(info.Length() >= 3 && info[2].IsObject(), env, "the default pipeline needs a config object");
      engine_ = guarded(env, kWhere, [&] { return make_pipeline(env, bits, info[2].As<Napi::Object>()); });
      AccountMemory(env);
      return;
    }
    engine_ = guarded(env, kWhere, [&] { return simhash_zh::make_preset(preset, bits); });
    if (!engine_) throw Napi::RangeError::New(env, "unknown preset or unsupported bits");
  }

  ~NativeSimHash() override {
    if (accounted_ != 0) Napi::MemoryManagement::AdjustExternalMemory(Env(), -accounted_);
  }

 private:
  // Tells V8 how much native memory this object holds (up to 5.5 MB of scratch per thread that used
  // it), so that dropped instances are collected as their memory demands, as NativeIndex does.
  // Called after each synchronous call and before an async batch; scratch in use by a batch's
  // workers is counted by the first call after it is back in the pipeline's pool.
  void AccountMemory(Napi::Env env) {
    const int64_t now = static_cast<int64_t>(engine_->memory_bytes());
    if (now != accounted_) {
      Napi::MemoryManagement::AdjustExternalMemory(env, now - accounted_);
      accounted_ = now;
    }
  }

  size_t words() const { return static_cast<size_t>(engine_->bits() / 64); }

  Napi::Value FingerprintOne(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsString(), env, "text must be a string");
    std::string buffer;
    const Fingerprint fingerprint =
        guarded(env, kWhere, [&] { return engine_->fingerprint(read_text(env, info[0], buffer)); });
    AccountMemory(env);
    return to_bigint(env, fingerprint, engine_->bits());
  }

  // fingerprintParts(parts: string[], lengths: Uint32Array, out: BigUint64Array): one call per
  // batch. The texts arrive as fingerprintManyAsync takes them (lib/joined-texts.ts): short ones
  // joined into parts, so that a part of many texts costs two N-API calls instead of two per
  // text, and each long one a part of its own, read as fingerprint() reads a text.
  Napi::Value FingerprintParts(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 3 && info[0].IsArray() && info[1].IsTypedArray(), env,
            "fingerprintParts(parts: string[], lengths: Uint32Array, out: BigUint64Array)");
    require(info[1].As<Napi::TypedArray>().TypedArrayType() == napi_uint32_array, env, "lengths must be a Uint32Array");
    auto text_at = [](void* context, size_t index) -> std::string_view {
      return static_cast<PartReader*>(context)->text(index);
    };
    constexpr size_t kChunk = 256;
    Fingerprint chunk[kChunk];
    guarded(env, kWhere, [&] {
      // Copied: reading the parts may run JS (a getter) that changes the lengths' memory.
      const auto lengths_array = info[1].As<Napi::Uint32Array>();
      const std::vector<uint32_t> lengths(lengths_array.Data(), lengths_array.Data() + lengths_array.ElementLength());
      const size_t count = lengths.size();
      require_out(env, info[2], count * words());
      PartReader reader(env, info[0].As<Napi::Array>(), lengths);
      for (size_t first = 0; first < count; first += kChunk) {
        const size_t n = std::min(kChunk, count - first);
        reader.first = first;
        engine_->fingerprint_batch(n, text_at, &reader, chunk);
        // Read again after each chunk: reading the parts may run JS (a getter) that detaches it.
        auto out = require_out(env, info[2], count * words());
        for (size_t k = 0; k < n; ++k) {
          out[(first + k) * words()] = chunk[k].lo;
          if (words() == 2) out[(first + k) * words() + 1] = chunk[k].hi;
        }
      }
      reader.finish();
    });
    AccountMemory(env);
    return env.Undefined();
  }

  // fingerprintManyAsync(parts: string[], lengths: Uint32Array, out, workers: number, token?)
  //   -> Promise<boolean>[] (one per worker; false when cancelled).
  // The texts arrive joined into a few strings (`lengths` cuts them apart), so the main
  // thread copies a few long strings instead of reading the array text by text; when the
  // promises have all settled, `out` holds the fingerprints.
  Napi::Value FingerprintManyAsync(const Napi::CallbackInfo& info) {
    return guarded(info.Env(), kWhere, [&] { return QueueBatch(info); });
  }

  Napi::Value QueueBatch(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 4 && info[0].IsArray() && info[1].IsTypedArray() && info[3].IsNumber(), env,
            "fingerprintManyAsync(parts: string[], lengths: Uint32Array, out: BigUint64Array, workers: number, token?)");
    Napi::Array parts = info[0].As<Napi::Array>();
    require(info[1].As<Napi::TypedArray>().TypedArrayType() == napi_uint32_array, env, "lengths must be a Uint32Array");
    auto lengths = info[1].As<Napi::Uint32Array>();
    const size_t count = lengths.ElementLength();
    auto out = require_out(env, info[2], count * words());
    AccountMemory(env);
    const int64_t workers_arg = info[3].As<Napi::Number>().Int64Value();
    if (workers_arg < 1 || workers_arg > 1024) throw Napi::RangeError::New(env, "workers must be 1..1024");
    std::shared_ptr<std::atomic<bool>> cancelled;
    if (info.Length() >= 5 && info[4].IsObject()) {
      cancelled = CancelToken::Unwrap(info[4].As<Napi::Object>())->flag();
    }
    auto batch = std::make_shared<AsyncBatch>();
    batch->count = count;
    batch->starts.resize(count + 1);
    size_t total = 0;
    for (size_t i = 0; i < count; ++i) {
      batch->starts[i] = total;
      total += lengths[i];
    }
    batch->starts[count] = total;
    batch->units.resize(total + 1);  // + 1: N-API writes a terminator
    size_t at = 0;
    for (uint32_t k = 0, n = parts.Length(); k < n; ++k) {
      napi_value part = parts.Get(k);
      const size_t length = part_length(env, part);
      require(length <= total - at, env, kPartsMismatch);
      copy_part(env, part, batch->units.data() + at, length);
      at += length;
    }
    require(at == total, env, kPartsMismatch);
    batch->units.resize(total);
    batch->results.resize(count * words());
    const size_t workers = std::min(static_cast<size_t>(workers_arg), std::max<size_t>(count, 1));
    // About 16 turns per worker, at most 64 texts per turn (a few hundred microseconds of titles).
    batch->chunk = std::clamp<size_t>(count / (workers * 16), 1, 64);
    batch->workers_left = workers;
    Napi::Array promises = Napi::Array::New(env, workers);
    for (size_t k = 0; k < workers; ++k) {
      auto* worker = new FingerprintWorker(env, engine_, batch, out, cancelled);
      promises.Set(static_cast<uint32_t>(k), worker->promise());
      worker->Queue();
    }
    return promises;
  }

  // features(text) -> { bytes, ends, weights, hashes, utf16 }: packed so the
  // TypeScript side decodes them with the same code for both engines.
  Napi::Value Features(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsString(), env, "text must be a string");
    std::string buffer;
    const simhash_zh::FeatureList list =
        guarded(env, kWhere, [&] { return engine_->features(read_text(env, info[0], buffer)); });
    AccountMemory(env);
    const auto& items = list.items();
    size_t total = 0;
    for (const auto& item : items) total += item.bytes.size();
    auto bytes = Napi::Buffer<char>::New(env, total);
    auto ends = Napi::Uint32Array::New(env, items.size());
    auto weights = Napi::Float64Array::New(env, items.size());
    auto hashes =
        Napi::TypedArrayOf<uint64_t>::New(env, items.size() * words(), napi_biguint64_array);
    auto kinds = Napi::Uint8Array::New(env, items.size());
    size_t offset = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      const auto& item = items[i];
      std::copy(item.bytes.begin(), item.bytes.end(), bytes.Data() + offset);
      offset += item.bytes.size();
      ends[i] = static_cast<uint32_t>(offset);
      weights[i] = item.weight;
      kinds[i] = item.kind;
      hashes[i * words()] = item.hash.lo;
      if (words() == 2) hashes[i * words() + 1] = item.hash.hi;
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("bytes", bytes);
    result.Set("ends", ends);
    result.Set("weights", weights);
    result.Set("hashes", hashes);
    result.Set("kinds", kinds);
    result.Set("utf16", Napi::Boolean::New(env, list.utf16()));
    return result;
  }

  std::shared_ptr<const Fingerprinter> engine_;
  int64_t accounted_ = 0;
};

}  // namespace

void InitSimHash(Napi::Env env, Napi::Object exports) {
  exports.Set("NativeSimHash", NativeSimHash::Define(env));
  exports.Set("CancelToken", CancelToken::Define(env));
}

}  // namespace simhash_zh_addon
