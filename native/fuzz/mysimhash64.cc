// libFuzzer target: the mysimhash preset at 64 bits (see preset_target.h).
#include "preset_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return simhash_zh_fuzz::run_preset("mysimhash", 64, data, size);
}
