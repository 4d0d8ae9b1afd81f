// N-API glue for SimHashIndex, dedup and cluster (native/core/simhash_index.h, dedup.h).
// Arguments are validated in TypeScript (lib/simhash-index.ts); the checks here only keep a misuse
// from crashing the process. No static JS references: the class is defined per environment, so
// worker threads and repeated loads work. C++ exceptions from the core are turned into JS errors
// here (glue_util.h: guarded).
#include <cmath>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/dedup.h"
#include "../core/index_format.h"
#include "../core/simhash_index.h"
#include "glue_util.h"
#include "modules.h"

namespace simhash_zh_addon {

namespace {

using simhash_zh::Fingerprint;
using simhash_zh::IndexMatch;
using simhash_zh::SimHashIndex;

constexpr char kWhere[] = "the native index";

int small_int(Napi::Env env, const Napi::Value& value, const char* message) {
  require(value.IsNumber(), env, message);
  const double v = value.As<Napi::Number>().DoubleValue();
  if (!(v >= 0 && v <= 65535 && v == std::floor(v))) throw Napi::RangeError::New(env, message);
  return static_cast<int>(v);
}

uint64_t read_id(Napi::Env env, double v) {
  if (!(v >= 0 && v <= static_cast<double>(simhash_zh::kMaxIndexId) && v == std::floor(v))) {
    throw Napi::RangeError::New(env, "id must be an integer in [0, 2^53 - 1]");
  }
  return static_cast<uint64_t>(v);
}

Fingerprint read_fingerprint(Napi::Env env, const Napi::Value& value, int bits) {
  require(value.IsBigInt(), env, "fingerprint must be a bigint");
  uint64_t words[2] = {0, 0};
  int sign = 0;
  size_t count = 2;
  value.As<Napi::BigInt>().ToWords(&sign, &count, words);
  if (sign != 0 || count > 2 || (bits == 64 && count == 2 && words[1] != 0)) {
    throw Napi::RangeError::New(env, "fingerprint does not fit the index width");
  }
  return Fingerprint{words[0], count > 1 ? words[1] : 0};
}

Napi::TypedArrayOf<uint64_t> read_words(Napi::Env env, const Napi::Value& value, size_t words_per_item) {
  require(value.IsTypedArray() && value.As<Napi::TypedArray>().TypedArrayType() == napi_biguint64_array, env,
          "fingerprints must be a BigUint64Array");
  auto array = value.As<Napi::TypedArrayOf<uint64_t>>();
  if (array.ElementLength() % words_per_item != 0) {
    throw Napi::RangeError::New(env, "fingerprint words do not match the width");
  }
  return array;
}

[[noreturn]] void throw_coded(Napi::Env env, const char* code, const std::string& message) {
  Napi::Error error = Napi::Error::New(env, message);
  error.Set("code", Napi::String::New(env, code));
  throw error;
}

// Flat batch results: matches of query i are [offsets[i], offsets[i+1]).
Napi::Object flat_results(Napi::Env env, const SimHashIndex& index, const std::vector<uint64_t>& offsets,
                          const std::vector<IndexMatch>& matches) {
  auto out_offsets = Napi::Uint32Array::New(env, offsets.size());
  for (size_t i = 0; i < offsets.size(); ++i) out_offsets[i] = static_cast<uint32_t>(offsets[i]);
  auto out_ids = Napi::Float64Array::New(env, matches.size());
  auto out_distances = Napi::Uint8Array::New(env, matches.size());
  for (size_t i = 0; i < matches.size(); ++i) {
    out_ids[i] = static_cast<double>(index.id_at(matches[i].slot));
    out_distances[i] = static_cast<uint8_t>(matches[i].distance);
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("offsets", out_offsets);
  result.Set("ids", out_ids);
  result.Set("distances", out_distances);
  return result;
}

class NativeIndex : public TaggedWrap<NativeIndex> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x8f0c2d1a5b7e4c39ULL, 0xa41e6b0d92f3c857ULL};
  static constexpr const char* kClassName = "NativeIndex";
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "NativeIndex",
                       {InstanceMethod<&NativeIndex::Add>("add"),
                        InstanceMethod<&NativeIndex::AddMany>("addMany"),
                        InstanceMethod<&NativeIndex::Remove>("remove"),
                        InstanceMethod<&NativeIndex::Has>("has"),
                        InstanceMethod<&NativeIndex::Get>("get"),
                        InstanceMethod<&NativeIndex::Size>("size"),
                        InstanceMethod<&NativeIndex::Query>("query"),
                        InstanceMethod<&NativeIndex::QueryMany>("queryMany"),
                        InstanceMethod<&NativeIndex::BruteForceQueryMany>("bruteForceQueryMany"),
                        InstanceMethod<&NativeIndex::Entries>("entries"),
                        InstanceMethod<&NativeIndex::Serialize>("serialize"),
                        InstanceMethod<&NativeIndex::Layout>("layout"),
                        InstanceMethod<&NativeIndex::MemoryBytes>("memoryBytes")});
  }

  // new NativeIndex(bits, maxDistance, tables) or new NativeIndex(bytes: Uint8Array).
  explicit NativeIndex(const Napi::CallbackInfo& info) : TaggedWrap<NativeIndex>(info) {
    Napi::Env env = info.Env();
    if (info.Length() == 1 && info[0].IsTypedArray()) {
      auto bytes = info[0].As<Napi::TypedArray>();
      require(bytes.TypedArrayType() == napi_uint8_array, env, "NativeIndex(bytes: Uint8Array)");
      auto u8 = bytes.As<Napi::Uint8Array>();
      auto result = guarded(env, kWhere, [&] { return simhash_zh::deserialize_index(u8.Data(), u8.ElementLength()); });
      switch (result.error) {
        case simhash_zh::IndexLoadError::kNone: break;
        case simhash_zh::IndexLoadError::kTruncated: throw_coded(env, "SIMHASH_ZH_INDEX_TRUNCATED", result.message);
        case simhash_zh::IndexLoadError::kVersion: throw_coded(env, "SIMHASH_ZH_INDEX_VERSION", result.message);
        case simhash_zh::IndexLoadError::kCorrupt: throw_coded(env, "SIMHASH_ZH_INDEX_CORRUPT", result.message);
      }
      index_ = std::move(result.index);
    } else {
      require(info.Length() >= 3, env, "NativeIndex(bits, maxDistance, tables)");
      const int bits = small_int(env, info[0], "bits must be 64 or 128");
      const int max_distance = small_int(env, info[1], "maxDistance out of range");
      const int tables = small_int(env, info[2], "tables out of range");
      index_ = guarded(env, kWhere, [&] { return std::make_unique<SimHashIndex>(bits, max_distance, tables); });
    }
    AccountMemory(env);
  }

  ~NativeIndex() override {
    if (accounted_ != 0) {
      Napi::MemoryManagement::AdjustExternalMemory(Env(), -accounted_);
    }
  }

 private:
  int words() const { return index_->bits() / 64; }

  // Tells V8 how much native memory this object holds, so GC pressure matches reality.
  void AccountMemory(Napi::Env env) {
    const int64_t now = static_cast<int64_t>(index_->memory_bytes());
    if (now != accounted_) {
      Napi::MemoryManagement::AdjustExternalMemory(env, now - accounted_);
      accounted_ = now;
    }
  }

  Napi::Value Add(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsNumber(), env, "add(id: number, fingerprint: bigint)");
    const uint64_t id = read_id(env, info[0].As<Napi::Number>().DoubleValue());
    const Fingerprint fp = read_fingerprint(env, info[1], index_->bits());
    const bool replaced = guarded(env, kWhere, [&] { return index_->add(id, fp); });
    AccountMemory(env);
    return Napi::Boolean::New(env, replaced);
  }

  // addMany(ids: Float64Array, words: BigUint64Array)
  Napi::Value AddMany(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsTypedArray() &&
                info[0].As<Napi::TypedArray>().TypedArrayType() == napi_float64_array,
            env, "addMany(ids: Float64Array, fingerprints: BigUint64Array)");
    auto ids = info[0].As<Napi::Float64Array>();
    auto words_array = read_words(env, info[1], static_cast<size_t>(words()));
    const size_t n = ids.ElementLength();
    if (words_array.ElementLength() != n * static_cast<size_t>(words())) {
      throw Napi::RangeError::New(env, "ids and fingerprints differ in length");
    }
    // Each id read once into a copy and checked there, before anything changes: the caller's
    // memory may change meanwhile (a SharedArrayBuffer another thread writes).
    const double* id_data = ids.Data();
    std::vector<uint64_t> checked = guarded(env, kWhere, [&] { return std::vector<uint64_t>(n); });
    for (size_t i = 0; i < n; ++i) checked[i] = read_id(env, id_data[i]);
    guarded(env, kWhere, [&] {
      index_->add_many_by([&checked](size_t i) { return checked[i]; }, words_array.Data(), n);
    });
    AccountMemory(env);
    return env.Undefined();
  }

  Napi::Value Remove(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsNumber(), env, "remove(id: number)");
    const bool removed = guarded(env, kWhere, [&] { return index_->remove(read_id(env, info[0].As<Napi::Number>().DoubleValue())); });
    AccountMemory(env);
    return Napi::Boolean::New(env, removed);
  }

  Napi::Value Has(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsNumber(), env, "has(id: number)");
    return Napi::Boolean::New(env, index_->has(read_id(env, info[0].As<Napi::Number>().DoubleValue())));
  }

  Napi::Value Get(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsNumber(), env, "get(id: number)");
    Fingerprint fp;
    if (!index_->get(read_id(env, info[0].As<Napi::Number>().DoubleValue()), fp)) return env.Undefined();
    const uint64_t w[2] = {fp.lo, fp.hi};
    return Napi::BigInt::New(env, 0, static_cast<size_t>(words()), w);
  }

  Napi::Value Size(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), static_cast<double>(index_->size()));
  }

  // query(fp, maxDistance, ids: Float64Array, distances: Uint8Array) -> count. The matches are
  // written only when they fit; otherwise the caller grows its buffers and asks again.
  Napi::Value Query(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 4 && info[1].IsNumber() && info[2].IsTypedArray() && info[3].IsTypedArray() &&
                info[2].As<Napi::TypedArray>().TypedArrayType() == napi_float64_array &&
                info[3].As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array,
            env, "query(fp: bigint, maxDistance: number, ids: Float64Array, distances: Uint8Array)");
    const Fingerprint q = read_fingerprint(env, info[0], index_->bits());
    const int max_distance = small_int(env, info[1], "maxDistance out of range");
    auto ids = info[2].As<Napi::Float64Array>();
    auto distances = info[3].As<Napi::Uint8Array>();
    guarded(env, kWhere, [&] { index_->query(q, max_distance, scratch_, query_scratch_); });
    const size_t count = scratch_.size();
    if (count <= ids.ElementLength() && count <= distances.ElementLength()) {
      for (size_t i = 0; i < count; ++i) {
        ids[i] = static_cast<double>(index_->id_at(scratch_[i].slot));
        distances[i] = static_cast<uint8_t>(scratch_[i].distance);
      }
    }
    return Napi::Number::New(env, static_cast<double>(count));
  }

  template <bool kBrute>
  Napi::Value QueryManyImpl(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[1].IsNumber(), env, "queryMany(fps: BigUint64Array, maxDistance: number)");
    auto words_array = read_words(env, info[0], static_cast<size_t>(words()));
    const int max_distance = small_int(env, info[1], "maxDistance out of range");
    const int w = words();
    const size_t n = words_array.ElementLength() / static_cast<size_t>(w);
    const uint64_t* data = words_array.Data();
    std::vector<uint64_t> offsets;
    guarded(env, kWhere, [&] {
      if (kBrute) {
        offsets.assign(n + 1, 0);
        batch_.clear();
        for (size_t i = 0; i < n; ++i) {
          const Fingerprint q{data[i * w], w == 2 ? data[i * w + 1] : 0};
          index_->brute_force_query(q, max_distance, scratch_);
          batch_.insert(batch_.end(), scratch_.begin(), scratch_.end());
          offsets[i + 1] = batch_.size();
        }
      } else {
        index_->query_many(data, n, max_distance, offsets, batch_);
      }
    });
    if (batch_.size() > 0xffffffffULL) throw Napi::RangeError::New(env, "too many matches in one batch");
    Napi::Object result = flat_results(env, *index_, offsets, batch_);
    if (batch_.capacity() > (size_t{1} << 16)) std::vector<IndexMatch>().swap(batch_);
    return result;
  }

  Napi::Value QueryMany(const Napi::CallbackInfo& info) { return QueryManyImpl<false>(info); }
  Napi::Value BruteForceQueryMany(const Napi::CallbackInfo& info) { return QueryManyImpl<true>(info); }

  // entries() -> { ids: Float64Array, fingerprints: BigUint64Array } in insertion order.
  Napi::Value Entries(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const size_t n = index_->size();
    const int w = words();
    auto ids = Napi::Float64Array::New(env, n);
    auto fps = Napi::TypedArrayOf<uint64_t>::New(env, n * w, napi_biguint64_array);
    size_t i = 0;
    index_->for_each([&](uint64_t id, Fingerprint fp) {
      ids[i] = static_cast<double>(id);
      fps[i * w] = fp.lo;
      if (w == 2) fps[i * w + 1] = fp.hi;
      ++i;
    });
    Napi::Object result = Napi::Object::New(env);
    result.Set("ids", ids);
    result.Set("fingerprints", fps);
    return result;
  }

  Napi::Value Serialize(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const size_t size = simhash_zh::serialized_size(*index_);
    auto buffer = Napi::Buffer<uint8_t>::New(env, size);
    simhash_zh::serialize_index(*index_, buffer.Data());
    return buffer;
  }

  // layout() -> [bits, maxDistance, tables]
  Napi::Value Layout(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto out = Napi::Array::New(env, 3);
    out.Set(0U, Napi::Number::New(env, index_->bits()));
    out.Set(1U, Napi::Number::New(env, index_->max_distance()));
    out.Set(2U, Napi::Number::New(env, index_->table_count()));
    return out;
  }

  Napi::Value MemoryBytes(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), static_cast<double>(index_->memory_bytes()));
  }

  std::unique_ptr<SimHashIndex> index_;
  std::vector<IndexMatch> scratch_;
  std::vector<IndexMatch> batch_;
  SimHashIndex::QueryScratch query_scratch_;
  int64_t accounted_ = 0;
};

struct BatchArgs {
  Napi::TypedArrayOf<uint64_t> words;
  int bits, max_distance, tables;
  size_t n;
};

BatchArgs read_batch(const Napi::CallbackInfo& info, const char* usage) {
  Napi::Env env = info.Env();
  require(info.Length() >= 4, env, usage);
  BatchArgs args;
  args.bits = small_int(env, info[1], "bits must be 64 or 128");
  require(args.bits == 64 || args.bits == 128, env, "bits must be 64 or 128");
  args.max_distance = small_int(env, info[2], "maxDistance out of range");
  args.tables = small_int(env, info[3], "tables out of range");
  args.words = read_words(env, info[0], static_cast<size_t>(args.bits / 64));
  args.n = args.words.ElementLength() / static_cast<size_t>(args.bits / 64);
  if (args.n > simhash_zh::kMaxIndexEntries) throw Napi::RangeError::New(env, "too many items");
  return args;
}

// indexDedup(words, bits, maxDistance, tables) -> { of: Uint32Array, distances: Uint8Array }
Napi::Value IndexDedup(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  BatchArgs a = read_batch(info, "indexDedup(words: BigUint64Array, bits, maxDistance, tables)");
  auto of = Napi::Uint32Array::New(env, a.n);
  auto distances = Napi::Uint8Array::New(env, a.n);
  guarded(env, kWhere, [&] {
    simhash_zh::dedup_fingerprints(a.bits, a.max_distance, a.tables, a.words.Data(), a.n, of.Data(), distances.Data());
  });
  Napi::Object result = Napi::Object::New(env);
  result.Set("of", of);
  result.Set("distances", distances);
  return result;
}

// indexCluster(words, bits, maxDistance, tables) -> Uint32Array of labels
Napi::Value IndexCluster(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  BatchArgs a = read_batch(info, "indexCluster(words: BigUint64Array, bits, maxDistance, tables)");
  auto labels = Napi::Uint32Array::New(env, a.n);
  guarded(env, kWhere, [&] {
    simhash_zh::cluster_fingerprints(a.bits, a.max_distance, a.tables, a.words.Data(), a.n, labels.Data());
  });
  return labels;
}

}  // namespace

void InitIndex(Napi::Env env, Napi::Object exports) {
  exports.Set("NativeIndex", NativeIndex::Define(env));
  exports.Set("indexDedup", Napi::Function::New<IndexDedup>(env, "indexDedup"));
  exports.Set("indexCluster", Napi::Function::New<IndexCluster>(env, "indexCluster"));
}

}  // namespace simhash_zh_addon
