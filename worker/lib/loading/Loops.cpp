#include "loading/Loops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace cairn::engine {

namespace {

// A call the loop's states cannot stay compatible across: into a function the program defines
// (which may allocate, print, or loop itself), or through a pointer.
bool callsProgramFunction(const llvm::Loop &loop) {
  for (const llvm::BasicBlock *bb : loop.blocks())
    for (const llvm::Instruction &i : *bb) {
      const auto *call = llvm::dyn_cast<llvm::CallBase>(&i);
      if (!call || llvm::isa<llvm::IntrinsicInst>(call))
        continue;
      const llvm::Function *callee = call->getCalledFunction();
      if (!callee || !callee->isDeclaration())
        return true;
    }
  return false;
}

} // namespace

void describeLoops(llvm::Function &f,
                   const std::unordered_map<const llvm::BasicBlock *, uint32_t> &blockIndex,
                   Function &out) {
  out.blockLoop.assign(out.blocks.size(), 0);
  if (f.isDeclaration())
    return;
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  for (const llvm::Loop *loop : loops) {
    Loop &l = out.loops.emplace_back();
    l.header = blockIndex.at(loop->getHeader());
    l.callsFunctions = callsProgramFunction(*loop);
    l.hasInnerLoops = !loop->getSubLoops().empty();
    for (const llvm::BasicBlock *bb : loop->blocks())
      out.blockLoop[blockIndex.at(bb)] = uint32_t(out.loops.size());
  }
}

} // namespace cairn::engine
