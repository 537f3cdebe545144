// Translating a loaded LLVM module into the engine's internal form.
#pragma once

#include "cairn/engine/Program.h"

#include <memory>

namespace cairn::engine {

class LoadedModule;

// Throws LoadError for constructs the engine does not support, naming them.
std::unique_ptr<Program> translateProgram(LoadedModule &module, const std::string &entry = "main");

} // namespace cairn::engine
