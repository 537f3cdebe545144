// A loaded program as LLVM bitcode: what the coordinator compiles once and sends to workers.
#pragma once

#include <string>

namespace cairn::engine {

class LoadedModule;

std::string moduleBitcode(LoadedModule &module);
// The whole-program bitcode a native program built with `cairn cc` records, linked.
std::string recordedProgramBitcode(const std::string &path);

} // namespace cairn::engine
