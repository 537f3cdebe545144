#include "transform/GuardMetadata.h"

#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <array>

namespace cairn::engine::transform {

namespace {

std::optional<int64_t> integerAt(const llvm::MDNode &node, unsigned k) {
  if (k >= node.getNumOperands())
    return std::nullopt;
  auto *c = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node.getOperand(k));
  return c ? std::optional<int64_t>(c->getSExtValue()) : std::nullopt;
}

LoadError malformed(const llvm::Function &f) {
  return LoadError("malformed " + std::string(kGuardMetadata) + " metadata in function " + f.getName().str());
}

// The counts in their order in the metadata.
std::array<uint64_t *, 9> countsOf(BranchTransformStats &s, uint64_t &microseconds) {
  return {&s.branchesMelded,         &s.oneSided,        &s.selectsAdded,         &s.extraInstructions,
          &s.skippedSymbolicAddress, &s.skippedExcluded, &s.functionsTransformed, &microseconds,
          &s.skippedStoredPointer};
}

} // namespace

void writeTransformStats(llvm::Module &m, const BranchTransformStats &stats) {
  llvm::LLVMContext &ctx = m.getContext();
  BranchTransformStats copy = stats;
  uint64_t microseconds = uint64_t(stats.seconds * 1e6);
  std::vector<llvm::Metadata *> counts;
  for (uint64_t *n : countsOf(copy, microseconds))
    counts.push_back(llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt64Ty(ctx), *n)));
  llvm::NamedMDNode *node = m.getOrInsertNamedMetadata(kStatsMetadata);
  node->clearOperands();
  node->addOperand(llvm::MDNode::get(ctx, counts));
}

std::optional<BranchTransformStats> readTransformStats(const llvm::Module &m) {
  const llvm::NamedMDNode *node = m.getNamedMetadata(kStatsMetadata);
  if (!node)
    return std::nullopt;
  BranchTransformStats s;
  uint64_t microseconds = 0;
  const auto counts = countsOf(s, microseconds);
  const llvm::MDNode *tuple = node->getNumOperands() == 1 ? node->getOperand(0) : nullptr;
  if (!tuple || tuple->getNumOperands() != counts.size())
    throw LoadError("malformed " + std::string(kStatsMetadata) + " metadata");
  for (unsigned k = 0; k < counts.size(); ++k) {
    std::optional<int64_t> n = integerAt(*tuple, k);
    if (!n || *n < 0)
      throw LoadError("malformed " + std::string(kStatsMetadata) + " metadata");
    *counts[k] = uint64_t(*n);
  }
  s.seconds = double(microseconds) / 1e6;
  return s;
}

GuardReader::GuardReader(const llvm::Function &f) : f_(f) {
  for (const llvm::Instruction &i : llvm::instructions(f)) {
    any_ |= i.getMetadata(kGuardMetadata) != nullptr;
    if (const llvm::MDNode *id = i.getMetadata(kCondMetadata)) {
      std::optional<int64_t> n = integerAt(*id, 0);
      if (!n || *n < 0 || *n > int64_t(1) << 24)
        throw malformed(f);
      if (conds_.size() <= size_t(*n))
        conds_.resize(size_t(*n) + 1);
      conds_[size_t(*n)] = &i;
    }
  }
}

std::optional<std::vector<ReadTerm>> GuardReader::guardOf(const llvm::Instruction &i) const {
  const llvm::MDNode *guard = i.getMetadata(kGuardMetadata);
  if (!guard)
    return std::nullopt;
  std::vector<ReadTerm> terms;
  for (const llvm::MDOperand &op : guard->operands()) {
    const auto *term = llvm::dyn_cast_or_null<llvm::MDNode>(op.get());
    if (!term || term->getNumOperands() == 0)
      throw malformed(f_);
    ReadTerm t;
    unsigned k = 1;
    if (auto *scope = term->getNumOperands() >= 3 ? llvm::dyn_cast_or_null<llvm::DILocalScope>(term->getOperand(2).get())
                                                  : nullptr) {
      std::optional<int64_t> line = integerAt(*term, 0), column = integerAt(*term, 1);
      if (!line || !column)
        throw malformed(f_);
      t.loc = llvm::DILocation::get(f_.getContext(), unsigned(*line), unsigned(*column), scope);
      k = 3;
    }
    for (; k < term->getNumOperands(); ++k) {
      const auto *literal = llvm::dyn_cast_or_null<llvm::MDNode>(term->getOperand(k).get());
      std::optional<int64_t> ref = literal ? integerAt(*literal, 0) : std::nullopt;
      std::optional<int64_t> positive = literal ? integerAt(*literal, 1) : std::nullopt;
      if (!ref || !positive)
        throw malformed(f_);
      const llvm::Value *cond = nullptr;
      if (*ref < 0 && uint64_t(-*ref - 1) < f_.arg_size())
        cond = f_.getArg(unsigned(-*ref - 1));
      else if (*ref >= 0 && size_t(*ref) < conds_.size())
        cond = conds_[size_t(*ref)];
      if (!cond || !cond->getType()->isIntegerTy(1))
        throw malformed(f_);
      t.literals.push_back({cond, *positive != 0});
    }
    terms.push_back(std::move(t));
  }
  return terms;
}

} // namespace cairn::engine::transform
