// A loaded program as LLVM bitcode: what the coordinator compiles once and sends to workers.
#pragma once

#include <string>

namespace cairn::engine {

class LoadedModule;

std::string moduleBitcode(LoadedModule &module);

} // namespace cairn::engine
