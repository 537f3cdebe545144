// `cairn cc`: a drop-in C compiler for a project's own build (CC="cairn cc" ./configure &&
// make) that builds it normally, with clang-15 against musl (Debian's musl-dev), statically
// linked, and records each C source's bitcode beside its object (RecordedBitcode.h).
// `cairn extract` writes the whole-program bitcode an executable records.
#pragma once

#include <string>
#include <vector>

namespace cairn::client {

int ccCommand(const std::vector<std::string> &args);
int extractCommand(const std::vector<std::string> &args);

} // namespace cairn::client
