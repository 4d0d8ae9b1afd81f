#include "modules.h"

namespace simhash_zh_addon {

void InitIndex(Napi::Env, Napi::Object) {}

}  // namespace simhash_zh_addon
