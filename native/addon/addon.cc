// Thin N-API glue over the core. Arguments are validated in TypeScript; the
// checks here only keep a misuse from crashing the process.
#include <napi.h>

#include <string>

#include "../core/normalize.h"
#include "glue_util.h"
#include "modules.h"

namespace {

using simhash_zh_addon::from_bigint;
using simhash_zh_addon::read_text;
using simhash_zh_addon::require;

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
  simhash_zh_addon::InitSimHash(env, exports);
  exports.Set("hamming", Napi::Function::New<Hamming>(env, "hamming"));
  exports.Set("normalize", Napi::Function::New<Normalize>(env, "normalize"));
  exports.Set("abiVersion", Napi::Number::New(env, 1));
  simhash_zh_addon::InitSegmenter(env, exports);
  simhash_zh_addon::InitIndex(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(simhash_zh, Init)
