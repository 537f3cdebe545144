// The callees the engine implements itself instead of running their code: the klee_* API, the C
// library functions whose effects it models (heap, output, exit) and the LLVM intrinsics it
// supports. A call to one becomes a CallKind::Special call site.
#pragma once

#include "cairn/engine/Program.h"

#include <optional>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace cairn::engine {

// nullopt: an intrinsic the engine does not support, which refuses the program.
std::optional<Special> intrinsicSpecial(const llvm::Function &intrinsic);

// Only a declaration is taken over: a program that defines its own malloc runs its own.
std::optional<Special> declaredSpecial(const llvm::Function &callee);

// The runtime's own definition of a string or memory function the engine can also run natively
// (None for any other function, and for a program's own strlen).
NativeString nativeString(const std::string &name, bool isRuntime);

// The math function `f` is, by its name and C signature, when it is a declaration or the
// runtime's definition (MathCallees.cpp).
MathFunction mathFunction(const llvm::Function &f, bool isRuntime);

} // namespace cairn::engine
