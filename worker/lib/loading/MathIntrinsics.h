// Intrinsics that stand for C library math functions with no instruction of their own
// (llvm.sin, llvm.pow, ...: clang makes them of sin() or pow() under -fno-math-errno or
// -ffast-math) become calls of the functions they stand for, before the runtime is linked: the
// functions are then the engine's math functions like any call of them (MathCallees.cpp), and
// musl's under --libc full.
#pragma once

namespace llvm {
class Module;
}

namespace cairn::engine {

void callMathFunctionsForIntrinsics(llvm::Module &m);

} // namespace cairn::engine
