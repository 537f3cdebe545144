// The pass's driver: which branches are candidates, the if-then shape made a diamond, and the
// fixpoint: melding an inner branch can make its enclosing branch's side straight-line code, so
// the functions are scanned until nothing changes, with the symbolic variable analysis redone
// each round over the melded code.
#include "cairn/engine/BranchTransform.h"

#include "cairn/engine/ProgramLoader.h"
#include "loading/RuntimeLinking.h"
#include "transform/BranchMelder.h"
#include "transform/GuardMetadata.h"
#include "transform/LineCarriers.h"
#include "transform/MeldCost.h"
#include "transform/MeldGuards.h"
#include "transform/SymbolicValues.h"
#include "transform/UseWalk.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <chrono>
#include <fstream>
#include <set>
#include <stdexcept>

namespace cairn::engine {

namespace {

using transform::MeldGuards;
using transform::SymbolicValues;

bool ownCode(const llvm::Function &f) { return !f.isDeclaration() && !isRuntimeFunction(f); }

// The function's scalar locals as SSA values, which the pass melds with selects. Pointers stay
// in memory: at exit() the leak check's roots are the stack's memory, as a native run's spill
// slots are, and a function pointer kept there keeps its calls indirect (klee_alias_function
// redirects direct calls only). So do values over 128 bits, wider than the engine's registers.
void promoteLocals(llvm::Function &f) {
  llvm::DominatorTree dt(f);
  const llvm::DataLayout &dl = f.getParent()->getDataLayout();
  std::vector<llvm::AllocaInst *> allocas;
  for (llvm::Instruction &i : f.getEntryBlock())
    if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i);
        a && llvm::isAllocaPromotable(a) && !a->getAllocatedType()->isPointerTy() &&
        dl.getTypeSizeInBits(a->getAllocatedType()).getFixedSize() <= 128)
      allocas.push_back(a);
  if (allocas.empty())
    return;
  const std::set<const llvm::Value *> promoted(allocas.begin(), allocas.end());
  auto goes = [&](const llvm::Instruction &i) {
    const llvm::Value *address = llvm::getLoadStorePointerOperand(&i);
    return promoted.count(address ? address : &i) != 0;
  };
  std::vector<llvm::Instruction *> accesses;
  for (llvm::AllocaInst *a : allocas)
    for (llvm::User *u : a->users())
      if (auto *i = llvm::dyn_cast<llvm::Instruction>(u); i && goes(*i))
        accesses.push_back(i);
  for (llvm::Instruction *i : accesses)
    transform::keepLine(*i, goes);
  llvm::PromoteMemToReg(allocas, dt);
}

bool irreducible(llvm::Function &f) {
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  llvm::ReversePostOrderTraversal<llvm::Function *> order(&f);
  return llvm::containsIrreducibleCFG<llvm::BasicBlock *>(order, loops);
}

// The --no-transform lines.
class ExcludedLines {
public:
  explicit ExcludedLines(const std::vector<std::string> &entries) {
    for (const std::string &e : entries) {
      size_t colon = e.rfind(':');
      if (colon != std::string::npos)
        lines_.insert({std::stoul(e.substr(colon + 1)), e.substr(0, colon)});
    }
  }
  bool empty() const { return lines_.empty(); }
  bool covers(const llvm::DILocation *loc) const {
    if (!loc)
      return false;
    std::string file = loc->getFilename().str();
    std::string full = loc->getDirectory().empty() ? file : loc->getDirectory().str() + "/" + file;
    for (auto it = lines_.lower_bound({loc->getLine(), ""}); it != lines_.end() && it->first == loc->getLine(); ++it)
      if (endsWithPath(file, it->second) || endsWithPath(full, it->second) || endsWithPath(it->second, file))
        return true;
    return false;
  }

private:
  static bool endsWithPath(const std::string &path, const std::string &tail) {
    if (tail.empty() || tail.size() > path.size() || path.compare(path.size() - tail.size(), tail.size(), tail) != 0)
      return false;
    return tail.size() == path.size() || path[path.size() - tail.size() - 1] == '/';
  }
  std::set<std::pair<unsigned long, std::string>> lines_;
};

// A block the branch in `from` may meld: entered only from there, straight on to one block.
bool isSide(llvm::BasicBlock *s, llvm::BasicBlock *from) {
  auto *jump = llvm::dyn_cast<llvm::BranchInst>(s->getTerminator());
  return s != from && s->getSinglePredecessor() == from && jump && jump->isUnconditional() &&
         jump->getSuccessor(0) != s && jump->getSuccessor(0) != from && s->phis().empty();
}

enum class Candidate { No, SymbolicIndex, StoredPointer, Excluded, Diamond, ThenOnly, ElseOnly };

// Whether a phi of `join` is (through casts and comparisons) the argument of klee_assume: that
// decision stays one. klee_assume fails on the paths where its argument is false; melded, the
// argument is one symbolic value, false on no path of its own, and that failure would be lost.
bool decidesAnAssumption(const llvm::BasicBlock &join) {
  std::vector<const llvm::Value *> phis;
  for (const llvm::PHINode &phi : join.phis())
    phis.push_back(&phi);
  return transform::reachesUse(std::move(phis), [](const llvm::Value *, const llvm::User *u) {
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(u)) {
      const llvm::Function *callee = call->getCalledFunction();
      return callee && callee->getName() == "klee_assume" ? transform::UseStep::Stop : transform::UseStep::Ignore;
    }
    return llvm::isa<llvm::CastInst>(u) || llvm::isa<llvm::CmpInst>(u) ? transform::UseStep::Follow
                                                                      : transform::UseStep::Ignore;
  });
}

bool accessesAtSymbolicIndex(const llvm::BasicBlock &side, const SymbolicValues &symbolic) {
  for (const llvm::Instruction &i : side)
    if (const auto *gep = llvm::dyn_cast_or_null<llvm::GEPOperator>(llvm::getLoadStorePointerOperand(&i)))
      for (const llvm::Use &index : gep->indices())
        if (symbolic.isSymbolic(index.get()))
          return true;
  return false;
}

class Transformer {
public:
  Transformer(const BranchTransformOptions &options, MeldGuards &guards, BranchTransformStats &stats)
      : options_(options), excluded_(options.excluded), guards_(guards), stats_(stats) {}

  Candidate candidate(llvm::BasicBlock &bb, const llvm::LoopInfo &loops, const SymbolicValues &symbolic) const {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator());
    if (!branch || !branch->isConditional() || llvm::isa<llvm::Constant>(branch->getCondition()))
      return Candidate::No;
    if (options_.mode == TransformMode::Symbolic && !symbolic.isSymbolic(branch->getCondition()))
      return Candidate::No;
    if (options_.loopsOnly && !loops.getLoopFor(&bb))
      return Candidate::No;
    llvm::BasicBlock *t = branch->getSuccessor(0), *f = branch->getSuccessor(1);
    if (t == f)
      return Candidate::No;
    Candidate shape = Candidate::No;
    if (isSide(t, &bb) && isSide(f, &bb) && t->getSingleSuccessor() == f->getSingleSuccessor())
      shape = Candidate::Diamond;
    else if (isSide(t, &bb) && t->getSingleSuccessor() == f)
      shape = Candidate::ThenOnly;
    else if (isSide(f, &bb) && f->getSingleSuccessor() == t)
      shape = Candidate::ElseOnly;
    if (shape == Candidate::No)
      return shape;
    const llvm::BasicBlock *join = shape == Candidate::ThenOnly   ? f
                                   : shape == Candidate::ElseOnly ? t
                                                                  : t->getSingleSuccessor();
    if (decidesAnAssumption(*join))
      return Candidate::No;
    std::vector<llvm::BasicBlock *> sides;
    if (shape != Candidate::ElseOnly)
      sides.push_back(t);
    if (shape != Candidate::ThenOnly)
      sides.push_back(f);
    for (llvm::BasicBlock *side : sides)
      for (const llvm::Instruction &i : *side)
        if (!i.isTerminator() && !transform::meldable(i))
          return Candidate::No;
    for (llvm::BasicBlock *side : sides)
      if (accessesAtSymbolicIndex(*side, symbolic))
        return Candidate::SymbolicIndex;
    if (!options_.meldStoredPointers && transform::leavesSymbolicPointerInMemory(bb, sides, *join))
      return Candidate::StoredPointer;
    if (!excluded_.empty())
      for (llvm::BasicBlock *side : sides)
        for (const llvm::Instruction &i : *side)
          if (excluded_.covers(i.getDebugLoc().get()))
            return Candidate::Excluded;
    return shape;
  }

  // Melds one branch of `f`; false when none is left to meld.
  bool meldOne(llvm::Function &f, SymbolicValues &symbolic) {
    llvm::DominatorTree dt(f);
    llvm::LoopInfo loops(dt);
    for (llvm::BasicBlock &bb : f) {
      Candidate c = candidate(bb, loops, symbolic);
      if (c != Candidate::Diamond && c != Candidate::ThenOnly && c != Candidate::ElseOnly)
        continue;
      auto *branch = llvm::cast<llvm::BranchInst>(bb.getTerminator());
      if (c == Candidate::ThenOnly)
        addEmptySide(bb, branch->getSuccessor(1));
      else if (c == Candidate::ElseOnly)
        addEmptySide(bb, branch->getSuccessor(0));
      transform::MeldCounts counts;
      if (!transform::meldDiamond(bb, guards_, symbolic, counts))
        continue;
      ++stats_.branchesMelded;
      stats_.oneSided += c != Candidate::Diamond;
      stats_.selectsAdded += counts.selects;
      stats_.extraInstructions += counts.extraInstructions;
      return true;
    }
    return false;
  }

  // What is left once nothing more melds: the branches skipped, and why.
  void countSkipped(llvm::Function &f, const SymbolicValues &symbolic) {
    llvm::DominatorTree dt(f);
    llvm::LoopInfo loops(dt);
    for (llvm::BasicBlock &bb : f) {
      Candidate c = candidate(bb, loops, symbolic);
      stats_.skippedSymbolicAddress += c == Candidate::SymbolicIndex;
      stats_.skippedExcluded += c == Candidate::Excluded;
      stats_.skippedStoredPointer += c == Candidate::StoredPointer;
    }
  }

private:
  // The if-then's missing side: the edge from `bb` to the join gets a block of its own.
  static void addEmptySide(llvm::BasicBlock &bb, llvm::BasicBlock *join) {
    llvm::BasicBlock *empty = llvm::BasicBlock::Create(bb.getContext(), "meld.empty", bb.getParent(), join);
    llvm::BranchInst::Create(join, empty)->setDebugLoc(bb.getTerminator()->getDebugLoc());
    bb.getTerminator()->replaceSuccessorWith(join, empty);
    for (llvm::PHINode &phi : join->phis())
      phi.replaceIncomingBlockWith(&bb, empty);
  }

  const BranchTransformOptions &options_;
  ExcludedLines excluded_;
  MeldGuards &guards_;
  BranchTransformStats &stats_;
};

} // namespace

BranchTransformStats transformBranches(LoadedModule &module, const std::string &entry,
                                       const BranchTransformOptions &options) {
  BranchTransformStats stats;
  if (options.mode == TransformMode::Off)
    return stats;
  const auto start = std::chrono::steady_clock::now();
  llvm::Module &m = module.module();
  std::vector<llvm::Function *> own;
  for (llvm::Function &f : m)
    if (ownCode(f))
      own.push_back(&f);
  for (llvm::Function *f : own)
    promoteLocals(*f);
  std::vector<llvm::Function *> reducible;
  for (llvm::Function *f : own)
    if (!irreducible(*f)) // the analysis's sync dependences assume natural loops
      reducible.push_back(f);

  MeldGuards guards;
  Transformer transformer(options, guards, stats);
  std::set<llvm::Function *> changedFunctions;
  const llvm::Function *start_ = m.getFunction(entry);
  for (;;) {
    SymbolicValues symbolic(m, ownCode, start_);
    bool changed = false;
    for (llvm::Function *f : reducible)
      while (transformer.meldOne(*f, symbolic)) {
        changed = true;
        changedFunctions.insert(f);
      }
    if (!changed) {
      for (llvm::Function *f : reducible)
        transformer.countSkipped(*f, symbolic);
      break;
    }
  }
  guards.writeMetadata(m);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(m, &os))
    throw LoadError("the branch transformation made invalid IR (a bug in it; run without "
                    "--transform-branches):\n" + os.str());
  stats.functionsTransformed = changedFunctions.size();
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  transform::writeTransformStats(m, stats);
  return stats;
}

bool isLocation(const std::string &text) {
  const size_t colon = text.rfind(':');
  return colon != std::string::npos && colon + 1 < text.size() && colon > 0 &&
         text.find_first_not_of("0123456789", colon + 1) == std::string::npos && text.size() - colon - 1 <= 9;
}

std::vector<std::string> readLocationList(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::vector<std::string> out;
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#')
      continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
    if (!isLocation(line))
      throw std::runtime_error(path + ":" + std::to_string(n) + ": expected FILE:LINE, found '" + line + "'");
    out.push_back(line);
  }
  return out;
}

} // namespace cairn::engine
