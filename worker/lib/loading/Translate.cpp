// From LLVM IR to the engine's internal form (Program.h): registers numbered, constants folded
// into the pool, globals laid out at fixed addresses, phi nodes turned into per-edge moves, and
// calls to functions the engine implements resolved once.
#include "cairn/engine/Translate.h"

#include "loading/Describe.h"
#include "loading/Loops.h"
#include "loading/RegisterTypes.h"
#include "loading/SpecialCallees.h"
#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace cairn::engine {

namespace {

constexpr uint64_t kGlobalBase = 0x1000'0000;
constexpr uint64_t kGlobalGap = 16; // between globals, so a small overflow lands nowhere

class Translator {
public:
  Translator(llvm::Module &m, Program &p) : m_(m), dl_(m.getDataLayout()), p_(p) {}

  void run(const std::string &entry) {
    p_.locations.push_back({}); // 0: unknown
    p_.files.push_back("");
    numberFunctions();
    layoutGlobals();
    for (llvm::Function &f : m_)
      if (!f.isDeclaration())
        translateFunction(f, p_.functions[functionIndex_.at(&f)]);
    p_.entry = functionIndex_.at(m_.getFunction(entry));
    collectConstructors();
    p_.coverableLines = userLines_.size();
  }

private:
  // --- Types and constants --------------------------------------------------------------------

  Operand constantOperand(u128 v) {
    auto [it, fresh] = constantIndex_.try_emplace(v, uint32_t(p_.constants.size()));
    if (fresh)
      p_.constants.push_back(v);
    return {it->second, true};
  }

  // The value of a constant as the bits a register holds.
  u128 evalConstant(const llvm::Constant *c) {
    using namespace llvm;
    if (auto *ci = dyn_cast<ConstantInt>(c)) {
      const APInt &v = ci->getValue();
      if (v.getBitWidth() > 128)
        throw LoadError("integer constants wider than 128 bits are not supported");
      u128 r = 0;
      for (unsigned i = 0; i < v.getNumWords() && i < 2; ++i)
        r |= u128(v.getRawData()[i]) << (64 * i);
      return r;
    }
    if (isa<ConstantPointerNull>(c) || isa<UndefValue>(c) || isa<ConstantAggregateZero>(c))
      return 0;
    if (auto *gv = dyn_cast<GlobalVariable>(c))
      return globalAddress_.at(gv);
    if (auto *f = dyn_cast<llvm::Function>(c))
      return p_.functionAddress(functionIndex_.at(f));
    if (auto *ga = dyn_cast<GlobalAlias>(c))
      return evalConstant(ga->getAliasee());
    if (auto *ba = dyn_cast<BlockAddress>(c))
      return labelAddress(ba->getBasicBlock());
    if (auto *cfp = dyn_cast<ConstantFP>(c)) {
      APInt bits = cfp->getValueAPF().bitcastToAPInt();
      u128 r = 0;
      for (unsigned i = 0; i < bits.getNumWords() && i < 2; ++i)
        r |= u128(bits.getRawData()[i]) << (64 * i);
      return r;
    }
    if (auto *ce = dyn_cast<ConstantExpr>(c)) {
      switch (ce->getOpcode()) {
      case Instruction::GetElementPtr: {
        u128 base = evalConstant(ce->getOperand(0));
        APInt offset(64, 0);
        auto *gep = cast<GEPOperator>(ce);
        if (!gep->accumulateConstantOffset(dl_, offset))
          throw LoadError("a constant address expression could not be folded");
        return (base + u128(uint64_t(offset.getSExtValue()))) & widthMask(64);
      }
      case Instruction::BitCast:
      case Instruction::PtrToInt:
      case Instruction::IntToPtr:
      case Instruction::AddrSpaceCast:
      case Instruction::Trunc:
      case Instruction::ZExt:
        return evalConstant(ce->getOperand(0)) & widthMask(bitsOf(dl_, ce->getType()));
      case Instruction::SExt: {
        unsigned from = bitsOf(dl_, ce->getOperand(0)->getType());
        return u128(toSigned(evalConstant(ce->getOperand(0)), from)) &
               widthMask(bitsOf(dl_, ce->getType()));
      }
      case Instruction::Add:
      case Instruction::Sub: {
        u128 a = evalConstant(ce->getOperand(0)), b = evalConstant(ce->getOperand(1));
        u128 r = ce->getOpcode() == Instruction::Add ? a + b : a - b;
        return r & widthMask(bitsOf(dl_, ce->getType()));
      }
      default: break;
      }
    }
    if (auto *cds = dyn_cast<ConstantDataSequential>(c)) { // small vectors and arrays
      std::vector<uint8_t> bytes(dl_.getTypeStoreSize(c->getType()));
      writeConstant(c, bytes.data(), bytes.size());
      u128 r = 0;
      for (size_t i = 0; i < bytes.size() && i < 16; ++i)
        r |= u128(bytes[i]) << (8 * i);
      (void)cds;
      return r;
    }
    throw LoadError("unsupported constant: " + describe(c));
  }

  // A label taken as a value: numbered on first sight, so a dispatch table in a global's
  // initializer and the indirectbr that jumps through it agree on the address.
  u128 labelAddress(const llvm::BasicBlock *bb) {
    u128 next = Program::kLabelBase + labelAddress_.size() * Program::kLabelStride;
    return labelAddress_.try_emplace(bb, next).first->second;
  }

  // A register pair is made by a *.with.overflow call and only taken apart by extractvalue.
  void checkRegisterPair(const llvm::Instruction &inst) {
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
                      std::to_string(dl_.getTypeStoreSizeInBits(inst.getType())) +
                      " bits) are not supported in registers: " + describe(&inst));
  }

  // Writes a constant's in-memory bytes (little-endian, by the data layout).
  void writeConstant(const llvm::Constant *c, uint8_t *out, uint64_t size) {
    using namespace llvm;
    if (isa<ConstantAggregateZero>(c) || isa<UndefValue>(c) || isa<ConstantPointerNull>(c))
      return; // the buffer starts zeroed
    if (auto *cds = dyn_cast<ConstantDataSequential>(c)) {
      uint64_t elemSize = dl_.getTypeAllocSize(cds->getElementType());
      for (unsigned i = 0; i < cds->getNumElements(); ++i)
        writeConstant(cds->getElementAsConstant(i), out + i * elemSize, elemSize);
      return;
    }
    if (auto *ca = dyn_cast<ConstantArray>(c)) {
      uint64_t elemSize = dl_.getTypeAllocSize(ca->getType()->getElementType());
      for (unsigned i = 0; i < ca->getNumOperands(); ++i)
        writeConstant(ca->getOperand(i), out + i * elemSize, elemSize);
      return;
    }
    if (auto *cs = dyn_cast<ConstantStruct>(c)) {
      const StructLayout *layout = dl_.getStructLayout(cs->getType());
      for (unsigned i = 0; i < cs->getNumOperands(); ++i) {
        uint64_t off = layout->getElementOffset(i);
        writeConstant(cs->getOperand(i), out + off, dl_.getTypeStoreSize(cs->getOperand(i)->getType()));
      }
      return;
    }
    if (auto *cv = dyn_cast<ConstantVector>(c)) {
      uint64_t elemSize = dl_.getTypeAllocSize(cv->getType()->getElementType());
      for (unsigned i = 0; i < cv->getNumOperands(); ++i)
        writeConstant(cv->getOperand(i), out + i * elemSize, elemSize);
      return;
    }
    u128 v = evalConstant(c);
    uint64_t n = std::min<uint64_t>(size, dl_.getTypeStoreSize(c->getType()));
    for (uint64_t i = 0; i < n && i < 16; ++i)
      out[i] = uint8_t(v >> (8 * i));
  }

  // --- Program layout ----------------------------------------------------------------------

  // llvm.global_ctors: {priority, function, data} entries, run by priority (stable).
  void collectConstructors() {
    llvm::GlobalVariable *g = m_.getGlobalVariable("llvm.global_ctors");
    if (!g || !g->hasInitializer())
      return;
    auto *list = llvm::dyn_cast<llvm::ConstantArray>(g->getInitializer());
    if (!list)
      return;
    std::vector<std::pair<uint64_t, uint32_t>> ctors;
    for (const llvm::Use &u : list->operands()) {
      auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(u.get());
      if (!entry || entry->getNumOperands() < 2)
        continue;
      auto *priority = llvm::dyn_cast<llvm::ConstantInt>(entry->getOperand(0));
      auto *fn = llvm::dyn_cast<llvm::Function>(entry->getOperand(1)->stripPointerCasts());
      if (priority && fn && functionIndex_.count(fn))
        ctors.push_back({priority->getZExtValue(), functionIndex_.at(fn)});
    }
    std::stable_sort(ctors.begin(), ctors.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &c : ctors)
      p_.constructors.push_back(c.second);
  }

  void numberFunctions() {
    for (llvm::Function &f : m_) {
      if (f.isIntrinsic())
        continue;
      functionIndex_[&f] = uint32_t(p_.functions.size());
      Function &out = p_.functions.emplace_back();
      out.name = f.getName().str();
      out.declarationOnly = f.isDeclaration();
      out.variadic = f.isVarArg();
      out.numParams = uint32_t(f.arg_size());
      for (llvm::Argument &a : f.args())
        out.paramWidths.push_back(uint16_t(bitsOf(dl_, a.getType())));
      out.returnWidth = f.getReturnType()->isVoidTy() ? 0 : uint16_t(bitsOf(dl_, f.getReturnType()));
      if (auto *sp = f.getSubprogram())
        out.isRuntime = sp->getFilename().contains("runtime/lib");
    }
  }

  void layoutGlobals() {
    uint64_t next = kGlobalBase;
    for (llvm::GlobalVariable &g : m_.globals()) {
      uint64_t size = std::max<uint64_t>(1, dl_.getTypeAllocSize(g.getValueType()));
      uint64_t align = std::max<uint64_t>(16, g.getAlign() ? g.getAlign()->value() : 16);
      next = (next + align - 1) / align * align;
      globalAddress_[&g] = next;
      GlobalObject &obj = p_.globals.emplace_back();
      obj.name = g.getName().str();
      obj.address = next;
      obj.size = size;
      obj.readOnly = g.isConstant();
      next += size + kGlobalGap;
    }
    // Initial contents need every address, so they come second.
    size_t i = 0;
    for (llvm::GlobalVariable &g : m_.globals()) {
      GlobalObject &obj = p_.globals[i++];
      obj.bytes.assign(obj.size, 0);
      if (g.hasInitializer())
        writeConstant(g.getInitializer(), obj.bytes.data(), obj.size);
    }
  }

  // --- Functions ---------------------------------------------------------------------------

  uint32_t location(const llvm::Instruction &inst, bool user) {
    const llvm::DebugLoc &dl = inst.getDebugLoc();
    if (!dl)
      return 0;
    std::string file = dl->getFilename().str();
    auto [fit, freshFile] = fileIndex_.try_emplace(file, uint32_t(p_.files.size()));
    if (freshFile)
      p_.files.push_back(file);
    uint64_t key = (uint64_t(fit->second) << 40) | (uint64_t(dl.getLine()) << 16) |
                   std::min<unsigned>(dl.getCol(), 0xffff);
    auto [lit, freshLoc] = locationIndex_.try_emplace(key, uint32_t(p_.locations.size()));
    if (freshLoc)
      p_.locations.push_back({fit->second, dl.getLine(), dl.getCol()});
    if (user && dl.getLine())
      userLines_.insert((uint64_t(fit->second) << 32) | dl.getLine());
    return lit->second;
  }

  Operand operand(const llvm::Value *v) {
    if (auto *c = llvm::dyn_cast<llvm::Constant>(v))
      return constantOperand(evalConstant(c));
    auto it = regs_.find(v);
    if (it == regs_.end())
      throw LoadError("use of a value with no register: " + describe(v));
    return {it->second, false};
  }

  void translateFunction(llvm::Function &f, Function &out) {
    regs_.clear();
    uint32_t next = 0;
    for (llvm::Argument &a : f.args())
      regs_[&a] = next++;
    std::unordered_map<const llvm::BasicBlock *, uint32_t> blockIndex;
    for (llvm::BasicBlock &bb : f) {
      blockIndex[&bb] = uint32_t(blockIndex.size());
      for (llvm::Instruction &i : bb) {
        if (i.getType()->isVoidTy())
          continue;
        regs_[&i] = next++;
        if (isRegisterPair(dl_, i.getType())) {
          checkRegisterPair(i);
          ++next;
        }
      }
    }
    out.numRegs = next;
    out.regWidths.assign(next, 0);
    for (const auto &[value, reg] : regs_)
      out.regWidths[reg] = registerWidth(dl_, value->getType());
    out.blocks.resize(blockIndex.size());
    describeLoops(f, blockIndex, out);
    const bool user = !out.isRuntime;

    for (llvm::BasicBlock &bb : f) {
      BasicBlock &block = out.blocks[blockIndex.at(&bb)];
      block.firstInstr = uint32_t(out.instrs.size());
      for (llvm::Instruction &inst : bb) {
        if (llvm::isa<llvm::PHINode>(inst))
          continue; // becomes moves on the incoming edges, below
        Instr in;
        in.loc = location(inst, user);
        if (!inst.getType()->isVoidTy())
          in.dst = regs_.at(&inst);
        translateInstruction(inst, in, out, blockIndex);
        if (!skip_)
          out.instrs.push_back(in);
        skip_ = false;
      }
    }
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
            seen |= m.dst == regs_.at(&phi);
          if (!seen)
            moves.push_back({regs_.at(&phi), operand(phi.getIncomingValue(k))});
        }
      for (auto &[pred, moves] : byPred) {
        block.edges.push_back({pred, uint32_t(out.phiMoves.size()), uint32_t(moves.size())});
        out.phiMoves.insert(out.phiMoves.end(), moves.begin(), moves.end());
      }
    }
  }

  void translateInstruction(llvm::Instruction &inst, Instr &in, Function &out,
                            const std::unordered_map<const llvm::BasicBlock *, uint32_t> &blocks) {
    using namespace llvm;
    if (isRegisterPair(dl_, inst.getType()))
      in.width = uint16_t(bitsOf(dl_, inst.getType()->getStructElementType(0)));
    else if (!inst.getType()->isVoidTy())
      in.width = uint16_t(bitsOf(dl_, inst.getType()));
    switch (inst.getOpcode()) {
    case Instruction::Add: binary(in, inst, Kind::Add); return;
    case Instruction::Sub: binary(in, inst, Kind::Sub); return;
    case Instruction::Mul: binary(in, inst, Kind::Mul); return;
    case Instruction::UDiv: binary(in, inst, Kind::UDiv); return;
    case Instruction::SDiv: binary(in, inst, Kind::SDiv); return;
    case Instruction::URem: binary(in, inst, Kind::URem); return;
    case Instruction::SRem: binary(in, inst, Kind::SRem); return;
    case Instruction::And: binary(in, inst, Kind::And); return;
    case Instruction::Or: binary(in, inst, Kind::Or); return;
    case Instruction::Xor: binary(in, inst, Kind::Xor); return;
    case Instruction::Shl: binary(in, inst, Kind::Shl); return;
    case Instruction::LShr: binary(in, inst, Kind::LShr); return;
    case Instruction::AShr: binary(in, inst, Kind::AShr); return;
    case Instruction::ICmp: {
      auto &cmp = cast<ICmpInst>(inst);
      in.op = Opcode::Compare;
      Operand l = operand(cmp.getOperand(0)), r = operand(cmp.getOperand(1));
      in.width = 1;
      in.imm = uint32_t(bitsOf(dl_, cmp.getOperand(0)->getType()));
      bool swap = false;
      switch (cmp.getPredicate()) {
      case CmpInst::ICMP_EQ: in.kind = Kind::Eq; break;
      case CmpInst::ICMP_NE: in.kind = Kind::Eq; in.negate = true; break;
      case CmpInst::ICMP_ULT: in.kind = Kind::Ult; break;
      case CmpInst::ICMP_ULE: in.kind = Kind::Ule; break;
      case CmpInst::ICMP_UGT: in.kind = Kind::Ult; swap = true; break;
      case CmpInst::ICMP_UGE: in.kind = Kind::Ule; swap = true; break;
      case CmpInst::ICMP_SLT: in.kind = Kind::Slt; break;
      case CmpInst::ICMP_SLE: in.kind = Kind::Sle; break;
      case CmpInst::ICMP_SGT: in.kind = Kind::Slt; swap = true; break;
      case CmpInst::ICMP_SGE: in.kind = Kind::Sle; swap = true; break;
      default: throw LoadError("unsupported comparison");
      }
      in.a = swap ? r : l;
      in.b = swap ? l : r;
      in.lanes = lanesOf(cmp.getType());
      in.width = in.lanes;
      return;
    }
    case Instruction::ZExt: unary(in, inst, Opcode::ZExt); return;
    case Instruction::SExt: unary(in, inst, Opcode::SExt); return;
    case Instruction::Trunc: unary(in, inst, Opcode::Trunc); return;
    case Instruction::BitCast:
    case Instruction::PtrToInt:
    case Instruction::IntToPtr:
    case Instruction::AddrSpaceCast:
    case Instruction::Freeze: {
      unsigned from = bitsOf(dl_, inst.getOperand(0)->getType());
      unary(in, inst, from == in.width ? Opcode::Move : from < in.width ? Opcode::ZExt : Opcode::Trunc);
      return;
    }
    case Instruction::Fence: skip_ = true; return; // one thread: nothing to order
    case Instruction::AtomicRMW: {
      auto &rmw = cast<AtomicRMWInst>(inst);
      using B = AtomicRMWInst::BinOp;
      static const std::map<B, RmwOp> ops = {
          {B::Xchg, RmwOp::Xchg}, {B::Add, RmwOp::Add}, {B::Sub, RmwOp::Sub},
          {B::And, RmwOp::And},   {B::Nand, RmwOp::Nand}, {B::Or, RmwOp::Or},
          {B::Xor, RmwOp::Xor},   {B::Max, RmwOp::Max}, {B::Min, RmwOp::Min},
          {B::UMax, RmwOp::UMax}, {B::UMin, RmwOp::UMin}};
      auto it = ops.find(rmw.getOperation());
      if (it == ops.end() || !rmw.getValOperand()->getType()->isIntOrPtrTy())
        throw LoadError("unsupported atomic operation: " + describe(&inst));
      in.op = Opcode::AtomicRmw;
      in.a = operand(rmw.getPointerOperand());
      in.b = operand(rmw.getValOperand());
      in.imm = uint32_t(it->second);
      in.count = bitsOf(dl_, rmw.getValOperand()->getType());
      return;
    }
    case Instruction::AtomicCmpXchg: {
      auto &cx = cast<AtomicCmpXchgInst>(inst);
      in.op = Opcode::CmpXchg;
      in.a = operand(cx.getPointerOperand());
      in.b = operand(cx.getCompareOperand());
      in.c = operand(cx.getNewValOperand());
      in.count = bitsOf(dl_, cx.getCompareOperand()->getType());
      return;
    }
    case Instruction::ExtractElement:
      in.op = Opcode::ExtractElement;
      in.a = operand(inst.getOperand(0));
      in.b = operand(inst.getOperand(1));
      in.count = lanesOf(inst.getOperand(0)->getType());
      in.imm = bitsOf(dl_, inst.getOperand(1)->getType());
      return;
    case Instruction::InsertElement:
      in.op = Opcode::InsertElement;
      in.a = operand(inst.getOperand(0));
      in.b = operand(inst.getOperand(1));
      in.c = operand(inst.getOperand(2));
      in.count = bitsOf(dl_, inst.getOperand(1)->getType());
      in.imm = bitsOf(dl_, inst.getOperand(2)->getType());
      return;
    case Instruction::ShuffleVector: {
      auto &sv = cast<ShuffleVectorInst>(inst);
      in.op = Opcode::Shuffle;
      in.a = operand(sv.getOperand(0));
      in.b = operand(sv.getOperand(1));
      in.count = lanesOf(sv.getOperand(0)->getType());
      in.lanes = lanesOf(sv.getType());
      in.imm = uint32_t(out.shuffleMasks.size());
      for (int m : sv.getShuffleMask())
        out.shuffleMasks.push_back(m);
      return;
    }
    case Instruction::Select:
      in.op = Opcode::Select;
      in.lanes = lanesOf(inst.getOperand(0)->getType());
      in.a = operand(inst.getOperand(0));
      in.b = operand(inst.getOperand(1));
      in.c = operand(inst.getOperand(2));
      return;
    case Instruction::Alloca: {
      auto &al = cast<AllocaInst>(inst);
      in.op = Opcode::Alloca;
      in.a = operand(al.getArraySize());
      in.imm = uint32_t(dl_.getTypeAllocSize(al.getAllocatedType()));
      in.count = uint32_t(bitsOf(dl_, al.getArraySize()->getType()));
      return;
    }
    case Instruction::Load:
      in.op = Opcode::Load;
      in.a = operand(inst.getOperand(0));
      in.width = uint16_t(dl_.getTypeStoreSizeInBits(inst.getType()));
      if (in.width > 128)
        throw LoadError("loads wider than 128 bits are not supported: " + describe(&inst));
      return;
    case Instruction::Store: {
      llvm::Value *v = inst.getOperand(0);
      in.op = Opcode::Store;
      in.a = operand(v);
      in.b = operand(inst.getOperand(1));
      in.width = uint16_t(dl_.getTypeStoreSizeInBits(v->getType()));
      if (in.width > 128)
        throw LoadError("stores wider than 128 bits are not supported: " + describe(&inst));
      return;
    }
    case Instruction::GetElementPtr: {
      auto &gep = cast<GetElementPtrInst>(inst);
      in.op = Opcode::Gep;
      in.a = operand(gep.getPointerOperand());
      in.imm = uint32_t(out.gepTerms.size());
      int64_t constant = 0;
      for (gep_type_iterator it = gep_type_begin(gep), end = gep_type_end(gep); it != end; ++it) {
        llvm::Value *idx = it.getOperand();
        if (StructType *st = it.getStructTypeOrNull()) {
          unsigned field = unsigned(cast<ConstantInt>(idx)->getZExtValue());
          constant += int64_t(dl_.getStructLayout(st)->getElementOffset(field));
          continue;
        }
        int64_t scale = int64_t(dl_.getTypeAllocSize(it.getIndexedType()));
        if (auto *ci = dyn_cast<ConstantInt>(idx)) {
          constant += ci->getSExtValue() * scale;
          continue;
        }
        out.gepTerms.push_back({operand(idx), uint16_t(bitsOf(dl_, idx->getType())), scale});
      }
      in.count = uint32_t(out.gepTerms.size()) - in.imm;
      in.offset = constant;
      return;
    }
    case Instruction::ExtractValue: {
      auto &ev = cast<ExtractValueInst>(inst);
      if (isRegisterPair(dl_, ev.getAggregateOperand()->getType())) {
        in.op = Opcode::Move;
        Operand pair = operand(ev.getAggregateOperand());
        in.a = {pair.index + ev.getIndices()[0], false};
        return;
      }
      in.op = Opcode::ExtractBits;
      in.a = operand(ev.getAggregateOperand());
      in.imm = uint32_t(aggregateOffset(ev.getAggregateOperand()->getType(), ev.getIndices()) * 8);
      return;
    }
    case Instruction::InsertValue: {
      auto &iv = cast<InsertValueInst>(inst);
      in.op = Opcode::InsertBits;
      in.a = operand(iv.getAggregateOperand());
      in.b = operand(iv.getInsertedValueOperand());
      in.count = bitsOf(dl_, iv.getInsertedValueOperand()->getType());
      in.imm = uint32_t(aggregateOffset(iv.getAggregateOperand()->getType(), iv.getIndices()) * 8);
      return;
    }
    case Instruction::Br: {
      auto &br = cast<BranchInst>(inst);
      if (br.isUnconditional()) {
        in.op = Opcode::Br;
        in.target = blocks.at(br.getSuccessor(0));
      } else {
        in.op = Opcode::CondBr;
        in.a = operand(br.getCondition());
        in.target = blocks.at(br.getSuccessor(0));
        in.target2 = blocks.at(br.getSuccessor(1));
      }
      return;
    }
    case Instruction::Switch: {
      auto &sw = cast<SwitchInst>(inst);
      in.op = Opcode::Switch;
      in.a = operand(sw.getCondition());
      in.width = uint16_t(bitsOf(dl_, sw.getCondition()->getType()));
      in.target = blocks.at(sw.getDefaultDest());
      in.imm = uint32_t(out.switchCases.size());
      for (auto &c : sw.cases())
        out.switchCases.push_back({evalConstant(c.getCaseValue()), blocks.at(c.getCaseSuccessor())});
      in.count = uint32_t(out.switchCases.size()) - in.imm;
      return;
    }
    case Instruction::IndirectBr: {
      auto &ib = cast<IndirectBrInst>(inst);
      in.op = Opcode::IndirectBr;
      in.a = operand(ib.getAddress());
      in.width = 64;
      in.imm = uint32_t(out.switchCases.size());
      for (unsigned i = 0; i < ib.getNumDestinations(); ++i) {
        llvm::BasicBlock *dest = ib.getDestination(i);
        out.switchCases.push_back({labelAddress(dest), blocks.at(dest)});
      }
      in.count = uint32_t(out.switchCases.size()) - in.imm;
      return;
    }
    case Instruction::Ret:
      in.op = Opcode::Ret;
      if (inst.getNumOperands()) {
        in.hasValue = true;
        in.a = operand(inst.getOperand(0));
      }
      return;
    case Instruction::Unreachable: in.op = Opcode::Unreachable; return;
    case Instruction::Call:
      if (std::optional<FloatOp> op = floatIntrinsic(cast<CallInst>(inst)))
        return floatOp(in, inst, *op);
      translateCall(cast<CallInst>(inst), in, out);
      return;
    case Instruction::FAdd: floatOp(in, inst, FloatOp::Add); return;
    case Instruction::FSub: floatOp(in, inst, FloatOp::Sub); return;
    case Instruction::FMul: floatOp(in, inst, FloatOp::Mul); return;
    case Instruction::FDiv: floatOp(in, inst, FloatOp::Div); return;
    case Instruction::FRem: floatOp(in, inst, FloatOp::Rem); return;
    case Instruction::FNeg: floatOp(in, inst, FloatOp::Neg); return;
    case Instruction::FPToSI: floatOp(in, inst, FloatOp::ToSigned); return;
    case Instruction::FPToUI: floatOp(in, inst, FloatOp::ToUnsigned); return;
    case Instruction::SIToFP: floatOp(in, inst, FloatOp::FromSigned); return;
    case Instruction::UIToFP: floatOp(in, inst, FloatOp::FromUnsigned); return;
    case Instruction::FPExt: floatOp(in, inst, FloatOp::Extend); return;
    case Instruction::FPTrunc: floatOp(in, inst, FloatOp::Truncate); return;
    case Instruction::FCmp:
      floatOp(in, inst, FloatOp(uint32_t(FloatOp::CmpFirst) + cast<FCmpInst>(inst).getPredicate()));
      in.width = 1;
      return;
    default:
      break;
    }
    // Floating point and the rest: a clear message when the path reaches it would be better
    // than refusing the program; for now the program is refused at load time.
    throw LoadError("unsupported instruction: " + describe(&inst));
  }

  uint64_t aggregateOffset(llvm::Type *t, llvm::ArrayRef<unsigned> indices) {
    uint64_t off = 0;
    for (unsigned i : indices) {
      if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {
        off += dl_.getStructLayout(st)->getElementOffset(i);
        t = st->getElementType(i);
      } else {
        t = t->getContainedType(0);
        off += i * dl_.getTypeAllocSize(t);
      }
    }
    return off;
  }

  void binary(Instr &in, llvm::Instruction &inst, Kind k) {
    in.lanes = lanesOf(inst.getType());
    in.op = Opcode::Binary;
    if (auto *ob = llvm::dyn_cast<llvm::OverflowingBinaryOperator>(&inst))
      in.noSignedWrap = ob->hasNoSignedWrap();
    in.kind = k;
    in.a = operand(inst.getOperand(0));
    in.b = operand(inst.getOperand(1));
  }

  void floatOp(Instr &in, llvm::Instruction &inst, FloatOp op) {
    if (inst.getType()->isVectorTy())
      throw LoadError("vector operations are not supported yet: " + describe(&inst));
    llvm::Type *operandType = inst.getOperand(0)->getType();
    for (llvm::Type *t : {operandType, inst.getType()})
      if (t->isFloatingPointTy() && !t->isFloatTy() && !t->isDoubleTy() && !t->isX86_FP80Ty())
        throw LoadError("only float, double and x86_fp80 are supported: " + describe(&inst));
    in.op = Opcode::Float;
    in.imm = uint32_t(op);
    // A call's last operand is its callee, not an argument.
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    const unsigned operands = call ? call->arg_size() : inst.getNumOperands();
    in.a = operand(inst.getOperand(0));
    if (operands > 1)
      in.b = operand(inst.getOperand(1));
    if (operands > 2)
      in.c = operand(inst.getOperand(2));
    in.count = bitsOf(dl_, operandType);
  }

  // The float intrinsics that are plain arithmetic. fmuladd may fuse or not; x86-64 without FMA
  // (what a native build of the program runs) rounds twice, so it is MulAdd.
  static std::optional<FloatOp> floatIntrinsic(const llvm::CallInst &call) {
    const llvm::Function *callee = call.getCalledFunction();
    if (!callee)
      return std::nullopt;
    switch (callee->getIntrinsicID()) {
    case llvm::Intrinsic::fmuladd: return FloatOp::MulAdd;
    case llvm::Intrinsic::fma: return FloatOp::FusedMulAdd;
    default: return std::nullopt;
    }
  }

  void unary(Instr &in, llvm::Instruction &inst, Opcode op) {
    in.op = op;
    in.a = operand(inst.getOperand(0));
    in.imm = bitsOf(dl_, inst.getOperand(0)->getType()); // the source width
    if (op != Opcode::Move)
      in.lanes = lanesOf(inst.getType());
  }

  void translateCall(llvm::CallInst &call, Instr &in, Function &out) {
    using namespace llvm;
    if (call.isInlineAsm())
      throw LoadError("inline assembly is not supported: " + describe(&call));
    CallSite site;
    llvm::Function *callee = call.getCalledFunction();
    if (callee && callee->isIntrinsic()) {
      std::optional<Special> s = intrinsicSpecial(*callee);
      if (!s)
        throw LoadError("unsupported intrinsic: " + callee->getName().str());
      if (*s == Special::Ignored) {
        skip_ = true;
        return;
      }
      site.kind = CallKind::Special;
      site.callee = uint32_t(*s);
    } else if (callee) {
      if (std::optional<Special> s = declaredSpecial(*callee)) {
        site.kind = CallKind::Special;
        site.callee = uint32_t(*s);
      } else {
        site.kind = CallKind::Direct;
        site.callee = functionIndex_.at(callee);
      }
    } else {
      site.kind = CallKind::Indirect;
      site.target = operand(call.getCalledOperand());
    }
    site.calleeName = callee ? callee->getName().str() : std::string("(indirect)");
    site.firstArg = uint32_t(out.callArgs.size());
    for (unsigned i = 0; i < call.arg_size(); ++i) {
      llvm::Value *arg = call.getArgOperand(i);
      out.callArgs.push_back(operand(arg));
      site.argWidths.push_back(uint16_t(bitsOf(dl_, arg->getType())));
      // A by-value aggregate is passed as a pointer the callee must not write through.
      uint32_t copy = 0;
      if (call.isByValArgument(i))
        copy = uint32_t(dl_.getTypeAllocSize(call.getParamByValType(i)));
      site.byValSizes.push_back(copy);
    }
    site.numArgs = uint32_t(call.arg_size());
    in.op = Opcode::Call;
    in.imm = uint32_t(out.callSites.size());
    out.callSites.push_back(std::move(site));
  }

  llvm::Module &m_;
  const llvm::DataLayout &dl_;
  Program &p_;
  std::unordered_map<const llvm::Function *, uint32_t> functionIndex_;
  std::unordered_map<const llvm::GlobalVariable *, uint64_t> globalAddress_;
  std::unordered_map<const llvm::Value *, uint32_t> regs_;
  std::unordered_map<const llvm::BasicBlock *, u128> labelAddress_;
  std::map<u128, uint32_t> constantIndex_;
  std::unordered_map<std::string, uint32_t> fileIndex_;
  std::unordered_map<uint64_t, uint32_t> locationIndex_;
  std::set<uint64_t> userLines_;
  bool skip_ = false;
};

} // namespace

std::unique_ptr<Program> translateProgram(LoadedModule &module, const std::string &entry) {
  auto program = std::make_unique<Program>();
  Translator(module.module(), *program).run(entry);
  return program;
}

} // namespace cairn::engine
