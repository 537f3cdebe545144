#include "loading/MathIntrinsics.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace cairn::engine {

namespace {

// The C function an intrinsic stands for (its double version's name), or null.
const char *cFunctionOf(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::sin: return "sin";
  case llvm::Intrinsic::cos: return "cos";
  case llvm::Intrinsic::exp: return "exp";
  case llvm::Intrinsic::exp2: return "exp2";
  case llvm::Intrinsic::log: return "log";
  case llvm::Intrinsic::log2: return "log2";
  case llvm::Intrinsic::log10: return "log10";
  case llvm::Intrinsic::pow: return "pow";
  default: return nullptr;
  }
}

} // namespace

void callMathFunctionsForIntrinsics(llvm::Module &m) {
  std::vector<llvm::Function *> intrinsics;
  for (llvm::Function &f : m)
    if (f.isIntrinsic() && cFunctionOf(f.getIntrinsicID()))
      intrinsics.push_back(&f);
  for (llvm::Function *f : intrinsics) {
    llvm::Type *real = f->getReturnType();
    const char *suffix = real->isFloatTy() ? "f" : real->isDoubleTy() ? "" : real->isX86_FP80Ty() ? "l" : nullptr;
    if (!suffix) // vectors and other formats: the translator refuses them as before
      continue;
    const std::string name = std::string(cFunctionOf(f->getIntrinsicID())) + suffix;
    llvm::Function *existing = m.getFunction(name);
    // The program's own function of that name, or one of another type, is not the C library's.
    if (existing && (!existing->isDeclaration() || existing->getFunctionType() != f->getFunctionType()))
      continue;
    llvm::FunctionCallee c = m.getOrInsertFunction(name, f->getFunctionType());
    f->replaceAllUsesWith(c.getCallee());
    f->eraseFromParent();
  }
}

} // namespace cairn::engine
