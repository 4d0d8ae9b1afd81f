// Thin N-API glue over the core. Arguments are validated in TypeScript; the
// checks here only keep a misuse from crashing the process.
#include <napi.h>

#include <memory>
#include <string>

#include "../core/normalize.h"
#include "../core/presets.h"
#include "modules.h"

namespace {

using simhash_zh::Fingerprint;

void require(bool ok, Napi::Env env, const char* message) {
  if (!ok) throw Napi::TypeError::New(env, message);
}

// Reads a JS string as UTF-8 into a reusable buffer (lone surrogates become
// U+FFFD, done by N-API).
std::string_view read_text(Napi::Env env, napi_value value, std::string& buffer) {
  size_t length = 0;
  napi_status status = napi_get_value_string_utf8(env, value, nullptr, 0, &length);
  require(status == napi_ok, env, "text must be a string");
  buffer.resize(length + 1);
  status = napi_get_value_string_utf8(env, value, buffer.data(), length + 1, &length);
  require(status == napi_ok, env, "text must be a string");
  return std::string_view(buffer.data(), length);
}

Napi::BigInt to_bigint(Napi::Env env, Fingerprint fp, int bits) {
  const uint64_t words[2] = {fp.lo, fp.hi};
  return Napi::BigInt::New(env, 0, bits == 128 ? 2 : 1, words);
}

Fingerprint from_bigint(Napi::Env env, const Napi::Value& value) {
  require(value.IsBigInt(), env, "fingerprint must be a bigint");
  uint64_t words[2] = {0, 0};
  int sign = 0;
  size_t count = 2;
  value.As<Napi::BigInt>().ToWords(&sign, &count, words);
  require(sign == 0 && count <= 2, env, "fingerprint must be a non-negative bigint below 2^128");
  return Fingerprint{words[0], count > 1 ? words[1] : 0};
}

class NativeSimHash : public Napi::ObjectWrap<NativeSimHash> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "NativeSimHash",
                       {InstanceMethod<&NativeSimHash::FingerprintOne>("fingerprint"),
                        InstanceMethod<&NativeSimHash::FingerprintMany>("fingerprintMany"),
                        InstanceMethod<&NativeSimHash::Features>("features")});
  }

  explicit NativeSimHash(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeSimHash>(info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsString() && info[1].IsNumber(), env,
            "NativeSimHash(preset: string, bits: number)");
    engine_ = simhash_zh::make_preset(info[0].As<Napi::String>().Utf8Value(),
                                      info[1].As<Napi::Number>().Int32Value());
    if (!engine_) throw Napi::RangeError::New(env, "unknown preset or unsupported bits");
  }

 private:
  Napi::Value FingerprintOne(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsString(), env, "text must be a string");
    std::string buffer;
    return to_bigint(env, engine_->fingerprint(read_text(env, info[0], buffer)), engine_->bits());
  }

  // fingerprintMany(texts: string[], out: BigUint64Array): one call per batch.
  Napi::Value FingerprintMany(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 2 && info[0].IsArray() && info[1].IsTypedArray(), env,
            "fingerprintMany(texts: string[], out: BigUint64Array)");
    Napi::Array texts = info[0].As<Napi::Array>();
    require(info[1].As<Napi::TypedArray>().TypedArrayType() == napi_biguint64_array, env,
            "out must be a BigUint64Array");
    auto out = info[1].As<Napi::TypedArrayOf<uint64_t>>();
    const size_t words = engine_->bits() / 64;
    const uint32_t count = texts.Length();
    if (out.ElementLength() != static_cast<size_t>(count) * words) {
      throw Napi::RangeError::New(env, "out has the wrong length");
    }
    std::string buffer;
    for (uint32_t i = 0; i < count; ++i) {
      Napi::Value text = texts.Get(i);
      require(text.IsString(), env, "every text must be a string");
      const Fingerprint fp = engine_->fingerprint(read_text(env, text, buffer));
      out[i * words] = fp.lo;
      if (words == 2) out[i * words + 1] = fp.hi;
    }
    return env.Undefined();
  }

  // features(text) -> { bytes, ends, weights, hashes, utf16 }: packed so the
  // TypeScript side decodes them with the same code for both engines.
  Napi::Value Features(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    require(info.Length() >= 1 && info[0].IsString(), env, "text must be a string");
    std::string buffer;
    const simhash_zh::FeatureList list = engine_->features(read_text(env, info[0], buffer));
    const auto& items = list.items();
    size_t total = 0;
    for (const auto& item : items) total += item.bytes.size();
    auto bytes = Napi::Buffer<char>::New(env, total);
    auto ends = Napi::Uint32Array::New(env, items.size());
    auto weights = Napi::Float64Array::New(env, items.size());
    const size_t words = engine_->bits() / 64;
    auto hashes = Napi::TypedArrayOf<uint64_t>::New(env, items.size() * words,
                                                    napi_biguint64_array);
    size_t offset = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      const auto& item = items[i];
      std::copy(item.bytes.begin(), item.bytes.end(), bytes.Data() + offset);
      offset += item.bytes.size();
      ends[i] = static_cast<uint32_t>(offset);
      weights[i] = item.weight;
      hashes[i * words] = item.hash.lo;
      if (words == 2) hashes[i * words + 1] = item.hash.hi;
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("bytes", bytes);
    result.Set("ends", ends);
    result.Set("weights", weights);
    result.Set("hashes", hashes);
    result.Set("utf16", Napi::Boolean::New(env, list.utf16()));
    return result;
  }

  std::unique_ptr<simhash_zh::Fingerprinter> engine_;
};

Napi::Value Hamming(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  require(info.Length() >= 2, env, "hamming(a: bigint, b: bigint)");
  return Napi::Number::New(
      env, simhash_zh::hamming_distance(from_bigint(env, info[0]), from_bigint(env, info[1])));
}

// normalize(text, html: 0 auto | 1 on | 2 off, foldWidth, lowercase) -> string
Napi::Value Normalize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  require(info.Length() >= 4 && info[0].IsString() && info[1].IsNumber(), env,
          "normalize(text: string, html: number, foldWidth: boolean, lowercase: boolean)");
  const int html = info[1].As<Napi::Number>().Int32Value();
  if (html < 0 || html > 2) throw Napi::RangeError::New(env, "html mode must be 0, 1 or 2");
  simhash_zh::NormalizeOptions options;
  options.html = static_cast<simhash_zh::HtmlMode>(html);
  options.fold_width = info[2].ToBoolean();
  options.lowercase = info[3].ToBoolean();
  std::string buffer;
  std::string out;
  simhash_zh::normalize(read_text(env, info[0], buffer), options, out);
  return Napi::String::New(env, out.data(), out.size());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("NativeSimHash", NativeSimHash::Define(env));
  exports.Set("hamming", Napi::Function::New<Hamming>(env, "hamming"));
  exports.Set("normalize", Napi::Function::New<Normalize>(env, "normalize"));
  exports.Set("abiVersion", Napi::Number::New(env, 1));
  simhash_zh_addon::InitSegmenter(env, exports);
  simhash_zh_addon::InitIndex(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(simhash_zh, Init)
