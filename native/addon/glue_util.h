// Helpers shared by the glue files: argument checks and value conversions.
#pragma once

#include <napi.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "../core/dictionary.h"
#include "../core/fingerprint.h"
#include "../core/utf16.h"

namespace simhash_zh_addon {

inline void require(bool ok, Napi::Env env, const char* message) {
  if (!ok) throw Napi::TypeError::New(env, message);
}

// An ObjectWrap whose objects carry T's type tag (T::kTypeTag, T::kClassName), so that T::Unwrap
// of a wrapped argument throws a TypeError for any other object instead of casting another
// class's pointer to T (a NativeIndex passed as a cancel token crashed the process). A method
// called on a foreign receiver is already refused by V8 ("Illegal invocation").
template <class T>
class TaggedWrap : public Napi::ObjectWrap<T> {
 public:
  explicit TaggedWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<T>(info) {
    info.This().As<Napi::Object>().TypeTag(&T::kTypeTag);
  }
  static T* Unwrap(Napi::Object wrapper) {
    if (!wrapper.CheckTypeTag(&T::kTypeTag)) {
      throw Napi::TypeError::New(wrapper.Env(), std::string("expected a ") + T::kClassName + " object");
    }
    return Napi::ObjectWrap<T>::Unwrap(wrapper);
  }
};

// The error a failed native allocation becomes: `code` is Node's own for it.
inline Napi::Error out_of_memory(Napi::Env env, const char* where) {
  Napi::Error error = Napi::Error::New(env, std::string("out of memory in ") + where);
  error.Set("code", Napi::String::New(env, "ERR_MEMORY_ALLOCATION_FAILED"));
  return error;
}

// The dictionary a path (shared through the core's cache) or Uint8Array names; a file that cannot
// be used throws an Error with its stable code (SIMHASH_ZH_DICT_*), any other value a TypeError.
inline std::shared_ptr<const simhash_zh::Dictionary> load_dictionary(Napi::Env env, const Napi::Value& source) {
  simhash_zh::DictStatus status;
  std::shared_ptr<const simhash_zh::Dictionary> dictionary;
  if (source.IsString()) {
    dictionary = simhash_zh::Dictionary::shared(source.As<Napi::String>().Utf8Value(), &status);
  } else if (source.IsTypedArray() && source.As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array) {
    auto bytes = source.As<Napi::Uint8Array>();
    dictionary = simhash_zh::Dictionary::from_bytes(bytes.Data(), bytes.ByteLength(), &status);
  } else {
    throw Napi::TypeError::New(env, "dictionary must be a path or a Uint8Array");
  }
  if (!dictionary) {
    Napi::Error error = Napi::Error::New(env, status.message);
    error.Set("code", Napi::String::New(env, simhash_zh::dict_error_code(status.code)));
    throw error;
  }
  return dictionary;
}

// Runs `body`, turning the core's C++ exceptions into JS errors of the right class and code:
// std::bad_alloc into ERR_MEMORY_ALLOCATION_FAILED, invalid_argument and length_error into a
// RangeError. (Without NODE_ADDON_API_CPP_EXCEPTIONS_ALL, which both build files define, any
// exception but a Napi::Error would terminate the process; with it, one that escapes this
// becomes a plain Error with its what().) `where` names the object for the out-of-memory message.
template <typename F>
auto guarded(Napi::Env env, const char* where, F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw out_of_memory(env, where);
  } catch (const std::invalid_argument& e) {
    throw Napi::RangeError::New(env, e.what());
  } catch (const std::length_error& e) {
    throw Napi::RangeError::New(env, e.what());
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

// Reads a JS string as UTF-8 into a reusable buffer (lone surrogates become
// U+FFFD, as N-API's UTF-8 conversion does).
inline std::string_view read_text(Napi::Env env, napi_value value, std::string& buffer) {
  // Up to a million UTF-16 units: copied out as UTF-16, then transcoded by utf16_to_utf8 into
  // 3 bytes per unit (it writes runs of CJK and of ASCII a word at a time: faster than V8's
  // WriteUtf8 on Chinese text). Longer texts go through N-API's UTF-8 conversion, measured
  // first to size the buffer exactly (no second copy of a 100 MB text).
  constexpr size_t kTranscodedUnits = size_t{1} << 20;
  size_t units = 0;
  napi_status status = napi_get_value_string_utf16(env, value, nullptr, 0, &units);
  require(status == napi_ok, env, "text must be a string");
  size_t length = 0;
  if (units <= kTranscodedUnits) {
    thread_local std::u16string scratch;  // kept per thread up to 128 KB
    scratch.resize(units + 1);
    status = napi_get_value_string_utf16(env, value, scratch.data(), units + 1, &length);
    require(status == napi_ok, env, "text must be a string");
    const std::string_view utf8 = simhash_zh::utf16_to_utf8(scratch.data(), length, buffer);
    if (scratch.size() > (size_t{1} << 16)) std::u16string().swap(scratch);
    return utf8;
  }
  status = napi_get_value_string_utf8(env, value, nullptr, 0, &length);
  require(status == napi_ok, env, "text must be a string");
  buffer.resize(length + 1);
  status = napi_get_value_string_utf8(env, value, buffer.data(), length + 1, &length);
  require(status == napi_ok, env, "text must be a string");
  return std::string_view(buffer.data(), length);
}

inline Napi::BigInt to_bigint(Napi::Env env, simhash_zh::Fingerprint fp, int bits) {
  const uint64_t words[2] = {fp.lo, fp.hi};
  return Napi::BigInt::New(env, 0, bits == 128 ? 2 : 1, words);
}

inline simhash_zh::Fingerprint from_bigint(Napi::Env env, const Napi::Value& value) {
  require(value.IsBigInt(), env, "fingerprint must be a bigint");
  uint64_t words[2] = {0, 0};
  int sign = 0;
  size_t count = 2;
  value.As<Napi::BigInt>().ToWords(&sign, &count, words);
  require(sign == 0 && count <= 2, env, "fingerprint must be a non-negative bigint below 2^128");
  return simhash_zh::Fingerprint{words[0], count > 1 ? words[1] : 0};
}

}  // namespace simhash_zh_addon
