#include "loading/RegisterTypes.h"

#include "loading/Describe.h"
#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>

#include <string>

namespace cairn::engine {

unsigned bitsOf(const llvm::DataLayout &dl, llvm::Type *t) {
  if (t->isPointerTy())
    return 64;
  if (t->isIntegerTy())
    return t->getIntegerBitWidth();
  uint64_t bits = dl.getTypeStoreSizeInBits(t);
  // A vector in a register is its lanes side by side: <4 x i1> is 4 bits, not a byte.
  if (auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t))
    bits = uint64_t(v->getNumElements()) * bitsOf(dl, v->getElementType());
  if (bits == 0 || bits > 128)
    throw LoadError("values of type " + typeName(t) + " (" + std::to_string(bits) +
                    " bits) are not supported in registers");
  return unsigned(bits);
}

uint16_t registerWidth(const llvm::DataLayout &dl, llvm::Type *t) {
  if (!t->isSized())
    return 0;
  uint64_t bits = dl.getTypeStoreSizeInBits(t);
  if (auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t))
    bits = v->getElementType()->isSized()
               ? uint64_t(v->getNumElements()) * registerWidth(dl, v->getElementType())
               : 0;
  else if (t->isIntegerTy())
    bits = t->getIntegerBitWidth();
  else if (t->isPointerTy())
    bits = 64;
  return bits <= 128 ? uint16_t(bits) : 0;
}

uint16_t lanesOf(llvm::Type *t) {
  if (auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t))
    return uint16_t(v->getNumElements());
  if (llvm::isa<llvm::ScalableVectorType>(t))
    throw LoadError("scalable vectors are not supported");
  return 1;
}

bool isRegisterPair(const llvm::DataLayout &dl, llvm::Type *t) {
  auto *st = llvm::dyn_cast<llvm::StructType>(t);
  if (!st || st->getNumElements() != 2 || dl.getTypeStoreSizeInBits(t) <= 128)
    return false;
  for (llvm::Type *field : st->elements())
    if (!field->isIntegerTy() || field->getIntegerBitWidth() > 128)
      return false;
  return true;
}

} // namespace cairn::engine
