// SHA-256 (FIPS 180-4), for the program hash Test-Comp's metadata carries: a few hundred bytes
// of code rather than a cryptographic library the engine needs nowhere else.
#pragma once

#include <string>
#include <string_view>

namespace cairn::engine {

// The digest of `bytes` as 64 lowercase hexadecimal digits.
std::string sha256Hex(std::string_view bytes);

} // namespace cairn::engine
