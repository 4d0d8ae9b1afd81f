// Each part of the addon registers its exports here; addon.cc calls them all.
#pragma once

#include <napi.h>

namespace simhash_zh_addon {

void InitSimHash(Napi::Env env, Napi::Object exports);    // simhash_glue.cc
void InitSegmenter(Napi::Env env, Napi::Object exports);  // segmenter_glue.cc
void InitIndex(Napi::Env env, Napi::Object exports);      // index_glue.cc

}  // namespace simhash_zh_addon
