#include "transform/Alignment.h"

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

#include <algorithm>
#include <cstdint>

namespace cairn::engine::transform {

namespace {

constexpr size_t kMaxAlignmentCells = size_t(4) << 20;

// The same operation on values of the same types, ignoring which values.
bool sameShape(const llvm::Instruction *a, const llvm::Instruction *b) {
  if (!a->isSameOperationAs(b))
    return false; // opcode, types, predicates, alignment, volatility, GEP source types, ...
  if (llvm::isa<llvm::OverflowingBinaryOperator>(a) &&
      (a->hasNoSignedWrap() != b->hasNoSignedWrap() || a->hasNoUnsignedWrap() != b->hasNoUnsignedWrap()))
    return false; // an extra overflow check on one side would be a check the program lacks
  if (llvm::isa<llvm::PossiblyExactOperator>(a) && a->isExact() != b->isExact())
    return false;
  if (const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(a);
      gep && gep->isInBounds() != llvm::cast<llvm::GetElementPtrInst>(b)->isInBounds())
    return false;
  return true;
}

} // namespace

bool pureOperation(const llvm::Instruction &i) {
  return llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CmpInst>(i) || llvm::isa<llvm::CastInst>(i) ||
         llvm::isa<llvm::GetElementPtrInst>(i) || llvm::isa<llvm::SelectInst>(i) ||
         llvm::isa<llvm::UnaryOperator>(i) || llvm::isa<llvm::ExtractValueInst>(i) ||
         llvm::isa<llvm::InsertValueInst>(i);
}

Congruence::Congruence(const std::vector<llvm::Instruction *> &onTrue,
                       const std::vector<llvm::Instruction *> &onFalse) {
  // Operands come before their users on each side, so one pass in order sees them first.
  for (const llvm::Instruction *a : onTrue)
    for (const llvm::Instruction *b : onFalse) {
      if (!pureOperation(*a) || !sameShape(a, b))
        continue;
      bool same = true;
      for (unsigned k = 0; k < a->getNumOperands() && same; ++k)
        same = holds(a->getOperand(k), b->getOperand(k));
      if (same)
        pairs_.insert({a, b});
    }
}

bool Congruence::holds(const llvm::Value *a, const llvm::Value *b) const {
  return a == b || pairs_.count({a, b}) != 0;
}

namespace {

bool compatible(const llvm::Instruction *a, const llvm::Instruction *b, const Congruence &congruence) {
  if (!sameShape(a, b))
    return false;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(a))
    return congruence.holds(load->getPointerOperand(), llvm::cast<llvm::LoadInst>(b)->getPointerOperand());
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(a))
    return congruence.holds(store->getPointerOperand(), llvm::cast<llvm::StoreInst>(b)->getPointerOperand());
  if (llvm::isa<llvm::GetElementPtrInst>(a))
    return congruence.holds(a, b);
  return true;
}

} // namespace

std::optional<std::vector<AlignedPair>> alignSides(const std::vector<llvm::Instruction *> &onTrue,
                                                   const std::vector<llvm::Instruction *> &onFalse,
                                                   const Congruence &congruence) {
  const size_t n = onTrue.size(), m = onFalse.size();
  if ((n + 1) * (m + 1) > kMaxAlignmentCells)
    return std::nullopt;
  // best[i][j]: most pairs aligning the first i instructions of one side with the first j of
  // the other.
  std::vector<uint32_t> best((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t & { return best[i * (m + 1) + j]; };
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      uint32_t v = std::max(at(i - 1, j), at(i, j - 1));
      if (compatible(onTrue[i - 1], onFalse[j - 1], congruence))
        v = std::max(v, at(i - 1, j - 1) + 1);
      at(i, j) = v;
    }
  std::vector<AlignedPair> out;
  for (size_t i = n, j = m; i > 0 || j > 0;) {
    if (i > 0 && j > 0 && at(i, j) == at(i - 1, j - 1) + 1 &&
        compatible(onTrue[i - 1], onFalse[j - 1], congruence)) {
      out.push_back({onTrue[--i], onFalse[--j]});
    } else if (i > 0 && (j == 0 || at(i, j) == at(i - 1, j))) {
      out.push_back({onTrue[--i], nullptr});
    } else {
      out.push_back({nullptr, onFalse[--j]});
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace cairn::engine::transform
