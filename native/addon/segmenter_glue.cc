#include "modules.h"

namespace simhash_zh_addon {

void InitSegmenter(Napi::Env, Napi::Object) {}

}  // namespace simhash_zh_addon
