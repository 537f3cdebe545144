#include "loading/FunctionTranslation.h"

#include "loading/Describe.h"
#include "loading/InstructionTranslation.h"
#include "loading/Loops.h"
#include "loading/RegisterTypes.h"
#include "loading/SpecialCallees.h"
#include "transform/GuardMetadata.h"
#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cairn::engine {

namespace {

// A register pair is made by a *.with.overflow call and only taken apart by extractvalue.
void checkRegisterPair(const llvm::DataLayout &dl, const llvm::Instruction &inst) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  std::optional<Special> s =
      callee && callee->isIntrinsic() ? intrinsicSpecial(*callee) : std::nullopt;
  bool overflowIntrinsic = s && *s >= Special::SAddO && *s <= Special::UMulO;
  bool onlyExtracted = std::all_of(inst.user_begin(), inst.user_end(), [](const llvm::User *u) {
    return llvm::isa<llvm::ExtractValueInst>(u) &&
           llvm::cast<llvm::ExtractValueInst>(u)->getNumIndices() == 1;
  });
  if (!overflowIntrinsic || !onlyExtracted)
    throw LoadError("values of type " + typeName(inst.getType()) + " (" +
                    std::to_string(dl.getTypeStoreSizeInBits(inst.getType())) +
                    " bits) are not supported in registers: " + describe(&inst));
}

// The guard of a melded instruction, when `inst` is one, for instruction `index` (`in`).
// Its terms' lines are the user's lines too (the original instructions'), and the instruction
// gets a location of its own (SourceLocations::distinctLocation): the interpreter covers the
// terms' lines at its first runs.
void translateGuard(const transform::GuardReader &reader, const llvm::Instruction &inst, Instr &in, uint32_t index,
                    InstructionTranslator &translator, SourceLocations &locations, Function &out, bool user) {
  std::optional<std::vector<transform::ReadTerm>> terms = reader.guardOf(inst);
  if (!terms)
    return;
  in.loc = locations.distinctLocation(in.loc);
  if (out.guardOf.size() <= index)
    out.guardOf.resize(index + 1, 0);
  out.guardOf[index] = uint32_t(out.guards.size()) + 1;
  out.guards.push_back({uint32_t(out.guardTerms.size()), uint32_t(terms->size())});
  for (const transform::ReadTerm &t : *terms) {
    out.guardTerms.push_back({locations.location(t.loc, user), uint32_t(out.guardLiterals.size()),
                              uint32_t(t.literals.size())});
    for (const transform::ReadLiteral &l : t.literals)
      out.guardLiterals.push_back({translator.operand(l.cond), l.positive});
  }
}

} // namespace

void translateFunction(llvm::Function &f, Function &out, ConstantTranslator &constants,
                       const FunctionNumbers &functions, SourceLocations &locations) {
  const llvm::DataLayout &dl = f.getParent()->getDataLayout();
  RegisterNumbers regs;
  uint32_t next = 0;
  for (llvm::Argument &a : f.args())
    regs[&a] = next++;
  BlockNumbers blockIndex;
  for (llvm::BasicBlock &bb : f) {
    blockIndex[&bb] = uint32_t(blockIndex.size());
    for (llvm::Instruction &i : bb) {
      if (i.getType()->isVoidTy())
        continue;
      regs[&i] = next++;
      if (isRegisterPair(dl, i.getType())) {
        checkRegisterPair(dl, i);
        ++next;
      }
    }
  }
  out.numRegs = next;
  out.regWidths.assign(next, 0);
  for (const auto &[value, reg] : regs)
    out.regWidths[reg] = registerWidth(dl, value->getType());
  out.blocks.resize(blockIndex.size());
  describeLoops(f, blockIndex, out);
  const bool user = !out.isRuntime;
  InstructionTranslator translator(dl, constants, functions, regs, blockIndex, out);
  const transform::GuardReader guards(f);

  for (llvm::BasicBlock &bb : f) {
    BasicBlock &block = out.blocks[blockIndex.at(&bb)];
    block.firstInstr = uint32_t(out.instrs.size());
    for (llvm::Instruction &inst : bb) {
      if (llvm::isa<llvm::PHINode>(inst))
        continue; // becomes moves on the incoming edges, below
      Instr in;
      if (!inst.getType()->isVoidTy())
        in.dst = regs.at(&inst);
      try {
        if (!translator.translate(inst, in))
          continue;
      } catch (const LoadError &e) {
        // Real code holds what the engine cannot run (AVX2 paths chosen at run time, ...): only
        // a path that reaches it ends, with the reason.
        in = Instr{};
        in.op = Opcode::Unsupported;
        in.imm = uint32_t(out.unsupported.size());
        out.unsupported.push_back(e.what());
      }
      // Only what runs has a location: a line whose only instructions are dropped (debug
      // intrinsics at a function's first line) is no line a path could cover.
      in.loc = locations.location(inst, user);
      if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
        for (llvm::DbgDeclareInst *declare : llvm::FindDbgDeclareUses(alloca)) {
          out.localNames.push_back({in.dst, declare->getVariable()->getName().str()});
          break;
        }
      if (guards.any())
        translateGuard(guards, inst, in, uint32_t(out.instrs.size()), translator, locations, out, user);
      out.instrs.push_back(in);
    }
  }
  if (!out.guardOf.empty())
    out.guardOf.resize(out.instrs.size(), 0);
  // Phi nodes: for each edge into a block, the parallel copies it makes.
  for (llvm::BasicBlock &bb : f) {
    BasicBlock &block = out.blocks[blockIndex.at(&bb)];
    std::map<uint32_t, std::vector<PhiMove>> byPred;
    for (llvm::PHINode &phi : bb.phis())
      for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k) {
        uint32_t pred = blockIndex.at(phi.getIncomingBlock(k));
        auto &moves = byPred[pred];
        bool seen = false; // a predecessor may appear twice (a switch with two cases)
        for (const PhiMove &m : moves)
          seen |= m.dst == regs.at(&phi);
        if (!seen)
          moves.push_back({regs.at(&phi), translator.operand(phi.getIncomingValue(k))});
      }
    for (auto &[pred, moves] : byPred) {
      block.edges.push_back({pred, uint32_t(out.phiMoves.size()), uint32_t(moves.size())});
      out.phiMoves.insert(out.phiMoves.end(), moves.begin(), moves.end());
    }
  }
}

} // namespace cairn::engine
