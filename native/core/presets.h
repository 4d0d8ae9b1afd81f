// Builds a fingerprint pipeline by preset name.
#pragma once

#include <memory>
#include <string_view>

#include "fingerprinter.h"

namespace simhash_zh {

// Returns nullptr for an unknown preset or an unsupported bit width.
std::unique_ptr<Fingerprinter> make_preset(std::string_view name, int bits);

}  // namespace simhash_zh
