// N-API glue of the segmenter: one NativeSegmenter per JS Segmenter. Arguments
// are validated in lib/segmenter.ts; the checks here only keep a misuse from
// crashing the process. A call crosses the boundary once: the words come back
// as end offsets written into a caller-provided Uint32Array (UTF-16 units for
// a string, bytes for a Uint8Array), entries into an Int32Array.
#include <napi.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "../core/segmenter.h"
#include "glue_util.h"
#include "modules.h"

namespace simhash_zh_addon {
namespace {

using simhash_zh::Segmenter;
using simhash_zh::WordSpan;

constexpr size_t kKeepBuffer = size_t{64} << 20;
constexpr char kWhere[] = "the native segmenter";

// The arrays setOutput gave, held by reference: their memory is read again (attach) at the
// start of every call and after every drain, since JS may detach an array in between.
struct OutputArrays {
  Napi::Reference<Napi::Uint32Array> ends;
  Napi::Reference<Napi::Int32Array> entries;
};

struct Output {
  Output(const OutputArrays& arrays, bool want_entries) : arrays(&arrays), want_entries(want_entries) { attach(); }

  const OutputArrays* arrays;
  bool want_entries;
  uint32_t* ends = nullptr;
  int32_t* entries = nullptr;
  size_t capacity = 0;
  size_t count = 0;
  bool overflow = false;
  // For string input: UTF-16 position of byte `byte_pos` of the UTF-8 text.
  const unsigned char* utf8 = nullptr;
  size_t byte_pos = 0;
  uint64_t utf16_pos = 0;
  // Streaming: when the arrays are full, drain(count) is called and they are reused.
  napi_env env = nullptr;
  napi_value drain = nullptr;
  Segmenter* segmenter = nullptr;
  bool failed = false;

  void attach() {
    ends = nullptr;
    entries = nullptr;
    capacity = 0;
    if (arrays->ends.IsEmpty() || arrays->entries.IsEmpty()) return;
    Napi::Uint32Array e = arrays->ends.Value();
    Napi::Int32Array n = arrays->entries.Value();
    ends = e.Data();
    entries = want_entries ? n.Data() : nullptr;
    capacity = std::min(e.ElementLength(), n.ElementLength());
  }

  // Room for one more word; false (and the run stopped) when there is none.
  bool room() {
    if (count < capacity) return true;
    if (overflow) return false;
    if (drain == nullptr) {
      overflow = true;
      return false;
    }
    napi_value global, arg, result;
    napi_get_global(env, &global);
    napi_create_uint32(env, static_cast<uint32_t>(count), &arg);
    if (napi_call_function(env, global, drain, 1, &arg, &result) != napi_ok) {
      failed = true;  // the visitor threw: stop, and let the exception propagate
      segmenter->request_stop();
      return false;
    }
    count = 0;
    attach();  // the drain ran JS
    if (capacity == 0) {
      overflow = true;
      return false;
    }
    return true;
  }
};

void write_utf16(void* ctx, const WordSpan* words, size_t count) {
  Output& out = *static_cast<Output*>(ctx);
  for (size_t i = 0; i < count; i++) {
    // Valid UTF-8 (N-API's): a 4-byte sequence is two UTF-16 units, others one.
    while (out.byte_pos < words[i].end) {
      const unsigned char b = out.utf8[out.byte_pos];
      if (b < 0x80) {
        out.byte_pos += 1;
        out.utf16_pos += 1;
      } else if (b < 0xe0) {
        out.byte_pos += 2;
        out.utf16_pos += 1;
      } else if (b < 0xf0) {
        out.byte_pos += 3;
        out.utf16_pos += 1;
      } else {
        out.byte_pos += 4;
        out.utf16_pos += 2;
      }
    }
    if (!out.room()) return;
    out.ends[out.count] = static_cast<uint32_t>(out.utf16_pos);
    if (out.entries) out.entries[out.count] = words[i].entry;
    out.count++;
  }
}

void write_bytes(void* ctx, const WordSpan* words, size_t count) {
  Output& out = *static_cast<Output*>(ctx);
  for (size_t i = 0; i < count; i++) {
    if (!out.room()) return;
    out.ends[out.count] = static_cast<uint32_t>(words[i].end);
    if (out.entries) out.entries[out.count] = words[i].entry;
    out.count++;
  }
}

class NativeSegmenter : public TaggedWrap<NativeSegmenter> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x3b9d71e2c04a5f68ULL, 0xd27c8e159a6b04f3ULL};
  static constexpr const char* kClassName = "NativeSegmenter";

 private:
  // Marks a segmentation in progress: a visitor may not re-enter this segmenter.
  struct Busy {
    Busy(NativeSegmenter* self, Napi::Env env) : self_(self) {
      if (self->busy_) throw Napi::Error::New(env, "a Segmenter cannot be used from inside its own forEachWord visitor");
      self->busy_ = true;
    }
    ~Busy() { self_->busy_ = false; }
    NativeSegmenter* self_;
  };

 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "NativeSegmenter",
                       {InstanceMethod<&NativeSegmenter::SetOutput>("setOutput"),
                        InstanceMethod<&NativeSegmenter::Segment>("segment"),
                        InstanceMethod<&NativeSegmenter::SegmentBytes>("segmentBytes"),
                        InstanceMethod<&NativeSegmenter::AddWords>("addWords"),
                        InstanceMethod<&NativeSegmenter::EntryOf>("entryOf"),
                        InstanceMethod<&NativeSegmenter::EntryFreq>("entryFreq"),
                        InstanceMethod<&NativeSegmenter::EntryIdf>("entryIdf"),
                        InstanceMethod<&NativeSegmenter::SetStopWords>("setStopWords"),
                        InstanceMethod<&NativeSegmenter::IsStopWord>("isStopWord")});
  }

  // NativeSegmenter(dictionary: string (path) | Uint8Array (binary format))
  explicit NativeSegmenter(const Napi::CallbackInfo& info) : TaggedWrap<NativeSegmenter>(info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1, env, "NativeSegmenter(dictionary: string | Uint8Array)");
    guarded(env, kWhere, [&] { segmenter_ = std::make_unique<Segmenter>(load_dictionary(env, info[0])); });
  }

 private:
  // setOutput(ends: Uint32Array, entries: Int32Array): where segment() writes,
  // set once (and again when the caller grows them) so that a call passes no arrays.
  Napi::Value SetOutput(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsTypedArray() && info[1].IsTypedArray() &&
                info[0].As<Napi::TypedArray>().TypedArrayType() == napi_uint32_array &&
                info[1].As<Napi::TypedArray>().TypedArrayType() == napi_int32_array,
            env, "setOutput(ends: Uint32Array, entries: Int32Array)");
    if (busy_) throw Napi::Error::New(env, "a Segmenter cannot be used from inside its own forEachWord visitor");
    auto ends = info[0].As<Napi::Uint32Array>();
    auto entries = info[1].As<Napi::Int32Array>();
    output_.ends = Napi::Persistent(ends);
    output_.entries = Napi::Persistent(entries);
    return env.Undefined();
  }

  // segment(text: string, length: number (text.length), flags, drain?) -> word count.
  // Kept to a handful of N-API calls: it runs once per text. With `drain`, the
  // words stream: drain(count) is called each time the output arrays fill up,
  // and the return value is the count of the last, partial batch.
  Napi::Value Segment(const Napi::CallbackInfo& info) {
    napi_env env = info.Env();
    uint32_t length = 0;
    int32_t flags = 0;
    if (info.Length() < 3 || napi_get_value_uint32(env, info[1], &length) != napi_ok ||
        napi_get_value_int32(env, info[2], &flags) != napi_ok) {
      throw Napi::TypeError::New(env, "segment(text: string, length: number, flags: number, drain?: function)");
    }
    Busy busy(this, Napi::Env(env));
    Output out(output_, (flags & simhash_zh::kSegmentEntries) != 0);
    guarded(info.Env(), kWhere, [&] {
      // UTF-16 length n needs at most 3n bytes of UTF-8, and N-API writes a NUL after them. A
      // conversion cut short stopped before a character of up to 4 bytes: it wrote at least
      // room - 4 bytes, a whole one at most room - 5.
      const size_t room = static_cast<size_t>(length) * 3 + 5;
      if (buffer_.size() < room) buffer_.resize(room);
      size_t written = 0;
      if (napi_get_value_string_utf8(env, info[0], buffer_.data(), room, &written) != napi_ok) {
        throw Napi::TypeError::New(env, "text must be a string");
      }
      std::string_view text(buffer_.data(), written);
      if (written + 4 >= room) text = read_text(env, info[0], buffer_);  // `length` was too small
      out.utf8 = reinterpret_cast<const unsigned char*>(text.data());
      stream(info, 3, &out);
      segmenter_->run(text, flags & 7, write_utf16, &out);
    });
    if (buffer_.size() > kKeepBuffer) std::string().swap(buffer_);
    if (out.failed) return Napi::Value();
    if (out.overflow) throw Napi::RangeError::New(env, "the output arrays are too short for the words of the input");
    napi_value count;
    napi_create_uint32(env, static_cast<uint32_t>(out.count), &count);
    return Napi::Value(env, count);
  }

  // Sets up streaming when argument `index` is a function.
  void stream(const Napi::CallbackInfo& info, size_t index, Output* out) {
    if (info.Length() > index && info[index].IsFunction()) {
      out->env = info.Env();
      out->drain = info[index];
      out->segmenter = segmenter_.get();
    }
  }

  // segmentBytes(bytes: Uint8Array, flags, drain?) -> word count (byte offsets); `drain` as for segment.
  Napi::Value SegmentBytes(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsTypedArray() && info[1].IsNumber() &&
                info[0].As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array,
            env, "segmentBytes(bytes: Uint8Array, flags: number)");
    auto bytes = info[0].As<Napi::Uint8Array>();
    if (bytes.ByteLength() > 0xffffffffu) throw Napi::RangeError::New(env, "input is larger than 4 GiB");
    const int flags = info[1].As<Napi::Number>().Int32Value() & 7;
    Output out(output_, (flags & simhash_zh::kSegmentEntries) != 0);
    stream(info, 2, &out);
    Busy busy(this, env);
    guarded(env, kWhere, [&] {
      std::string_view text(reinterpret_cast<const char*>(bytes.Data()), bytes.ByteLength());
      if (out.drain != nullptr) {
        // JS runs during the call: work on a copy, which no visitor can detach or change.
        buffer_.assign(text.data(), text.size());
        text = std::string_view(buffer_.data(), buffer_.size());
      }
      segmenter_->run(text, flags, write_bytes, &out);
    });
    if (buffer_.size() > kKeepBuffer) std::string().swap(buffer_);
    if (out.failed) return Napi::Value();
    if (out.overflow) throw Napi::RangeError::New(env, "the output arrays are too short for the words of the input");
    return Napi::Number::New(env, static_cast<double>(out.count));
  }

  // addWords(words: string[], freqs: Float64Array): in order; NaN asks for the
  // suggested frequency; the frequencies used are written back into freqs.
  Napi::Value AddWords(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsArray() && info[1].IsTypedArray() &&
                info[1].As<Napi::TypedArray>().TypedArrayType() == napi_float64_array,
            env, "addWords(words: string[], freqs: Float64Array)");
    Busy busy(this, env);
    auto words = info[0].As<Napi::Array>();
    const uint32_t count = words.Length();
    // The words are read first (a getter may run JS), then freqs is read and written as it is
    // then: no JS runs while it is in use.
    std::vector<std::string> texts;
    std::string buffer;
    guarded(env, kWhere, [&] {
      texts.reserve(count);
      for (uint32_t i = 0; i < count; i++) {
        Napi::Value word = words.Get(i);
        require(word.IsString(), env, "every word must be a string");
        const std::string_view text = read_text(env, word, buffer);
        require(!text.empty(), env, "a word must not be empty");
        texts.emplace_back(text);
      }
    });
    auto freqs = info[1].As<Napi::Float64Array>();
    require(freqs.ElementLength() >= count, env, "freqs is shorter than words");
    guarded(env, kWhere, [&] {
      for (uint32_t i = 0; i < count; i++) {
        const double freq = freqs[i];
        freqs[i] = segmenter_->add_word(texts[i], std::isnan(freq) ? -1.0 : freq);
      }
    });
    return env.Undefined();
  }

  Napi::Value EntryOf(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsString(), env, "entryOf(word: string)");
    std::string buffer;
    return Napi::Number::New(env, segmenter_->entry_of(read_text(env, info[0], buffer)));
  }

  Napi::Value EntryFreq(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsNumber(), env, "entryFreq(entry: number)");
    return Napi::Number::New(env, segmenter_->entry_freq(info[0].As<Napi::Number>().Int32Value()));
  }

  Napi::Value EntryIdf(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsNumber(), env, "entryIdf(entry: number)");
    return Napi::Number::New(env, segmenter_->entry_idf(info[0].As<Napi::Number>().Int32Value()));
  }

  // setStopWords(words: string[])
  Napi::Value SetStopWords(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsArray(), env, "setStopWords(words: string[])");
    auto array = info[0].As<Napi::Array>();
    std::vector<std::string> words;
    words.reserve(array.Length());
    std::string buffer;
    for (uint32_t i = 0; i < array.Length(); i++) {
      Napi::Value word = array.Get(i);
      require(word.IsString(), env, "every stop word must be a string");
      words.emplace_back(read_text(env, word, buffer));
    }
    guarded(env, kWhere, [&] { segmenter_->set_stop_words(words); });
    return env.Undefined();
  }

  Napi::Value IsStopWord(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsString(), env, "isStopWord(word: string)");
    std::string buffer;
    return Napi::Boolean::New(env, segmenter_->is_stop_word(read_text(env, info[0], buffer)));
  }

  std::unique_ptr<Segmenter> segmenter_;
  std::string buffer_;
  OutputArrays output_;
  bool busy_ = false;
};

}  // namespace

void InitSegmenter(Napi::Env env, Napi::Object exports) {
  exports.Set("NativeSegmenter", NativeSegmenter::Define(env));
}

}  // namespace simhash_zh_addon
