// The callees the engine implements itself instead of running their code: the klee_* API, the C
// library functions whose effects it models (heap, output, exit) and the LLVM intrinsics it
// supports. A call to one becomes a CallKind::Special call site.
#pragma once

#include "cairn/engine/Program.h"

#include <optional>

namespace llvm {
class Function;
} // namespace llvm

namespace cairn::engine {

// nullopt: an intrinsic the engine does not support, which refuses the program.
std::optional<Special> intrinsicSpecial(const llvm::Function &intrinsic);

// Only a declaration is taken over: a program that defines its own malloc runs its own.
std::optional<Special> declaredSpecial(const llvm::Function &callee);

} // namespace cairn::engine
