#include "loading/InstructionTranslation.h"

#include "loading/Describe.h"
#include "loading/IntegerOps.h"
#include "loading/RegisterTypes.h"
#include "loading/SpecialCallees.h"
#include "cairn/engine/Memory.h"
#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include <map>
#include <optional>

namespace cairn::engine {

namespace {

// An alloca's or a by-value argument's alignment, which the engine's objects honour.
uint64_t checkedAlignment(uint64_t align, const llvm::Instruction &inst) {
  if (align > kMaxObjectAlignment)
    throw LoadError("alignments over " + std::to_string(kMaxObjectAlignment) +
                    " bytes are not supported: " + describe(&inst));
  return align;
}

uint64_t aggregateOffset(const llvm::DataLayout &dl, llvm::Type *t,
                         llvm::ArrayRef<unsigned> indices) {
  uint64_t off = 0;
  for (unsigned i : indices) {
    if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {
      off += dl.getStructLayout(st)->getElementOffset(i);
      t = st->getElementType(i);
    } else {
      t = t->getContainedType(0);
      off += i * dl.getTypeAllocSize(t);
    }
  }
  return off;
}

// The float intrinsics that are plain arithmetic (rint and nearbyint round in the default
// mode: the engine has no other). fmuladd may fuse or not; x86-64 without FMA
// (what a native build of the program runs) rounds twice, so it is MulAdd.
std::optional<FloatOp> floatIntrinsic(const llvm::CallInst &call) {
  const llvm::Function *callee = call.getCalledFunction();
  if (!callee)
    return std::nullopt;
  switch (callee->getIntrinsicID()) {
  case llvm::Intrinsic::fmuladd: return FloatOp::MulAdd;
  case llvm::Intrinsic::fma: return FloatOp::FusedMulAdd;
  case llvm::Intrinsic::fabs: return FloatOp::Abs;
  case llvm::Intrinsic::minnum: return FloatOp::MinNum;
  case llvm::Intrinsic::maxnum: return FloatOp::MaxNum;
  case llvm::Intrinsic::copysign: return FloatOp::CopySign;
  case llvm::Intrinsic::floor: return FloatOp::Floor;
  case llvm::Intrinsic::ceil: return FloatOp::Ceil;
  case llvm::Intrinsic::trunc: return FloatOp::Trunc;
  case llvm::Intrinsic::round: return FloatOp::Round;
  case llvm::Intrinsic::rint:
  case llvm::Intrinsic::nearbyint:
  case llvm::Intrinsic::roundeven: return FloatOp::RoundEven;
  case llvm::Intrinsic::sqrt: return FloatOp::Sqrt;
  case llvm::Intrinsic::lrint:
  case llvm::Intrinsic::llrint: return FloatOp::LRint;
  case llvm::Intrinsic::lround:
  case llvm::Intrinsic::llround: return FloatOp::LRound;
  default: return std::nullopt;
  }
}

// The intrinsics whose answer is a constant, as KLEE gives it: llvm.objectsize does not know
// the size (-1, or 0 when asked for the minimum), llvm.is.constant says no (as at -O0).
llvm::Constant *constantIntrinsic(const llvm::CallInst &call) {
  const llvm::Function *callee = call.getCalledFunction();
  if (!callee)
    return nullptr;
  auto *type = llvm::dyn_cast<llvm::IntegerType>(call.getType());
  switch (callee->getIntrinsicID()) {
  case llvm::Intrinsic::objectsize: {
    bool min = llvm::cast<llvm::ConstantInt>(call.getArgOperand(1))->isOne();
    return llvm::ConstantInt::get(type, min ? 0 : -1, /*isSigned=*/true);
  }
  case llvm::Intrinsic::is_constant: return llvm::ConstantInt::get(type, 0);
  default: return nullptr;
  }
}

} // namespace

Operand InstructionTranslator::operand(const llvm::Value *v) {
  if (auto *c = llvm::dyn_cast<llvm::Constant>(v))
    return constants_.operand(c);
  auto it = regs_.find(v);
  if (it == regs_.end())
    throw LoadError("use of a value with no register: " + describe(v));
  return {it->second, false};
}

bool InstructionTranslator::translate(llvm::Instruction &inst, Instr &in) {
  skip_ = false;
  translateInto(inst, in);
  return !skip_;
}

void InstructionTranslator::translateInto(llvm::Instruction &inst, Instr &in) {
  using namespace llvm;
  if (isRegisterPair(dl_, inst.getType()))
    in.width = uint16_t(bitsOf(dl_, inst.getType()->getStructElementType(0)));
  else if (!inst.getType()->isVoidTy())
    in.width = uint16_t(bitsOf(dl_, inst.getType()));
  switch (inst.getOpcode()) {
  case Instruction::ICmp: {
    auto &cmp = cast<ICmpInst>(inst);
    in.op = Opcode::Compare;
    Operand l = operand(cmp.getOperand(0)), r = operand(cmp.getOperand(1));
    in.imm = uint32_t(bitsOf(dl_, cmp.getOperand(0)->getType()));
    Comparison c = comparison(cmp.getPredicate());
    in.kind = c.kind;
    in.negate = c.negate;
    in.a = c.swap ? r : l;
    in.b = c.swap ? l : r;
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
    in.imm = uint32_t(out_.shuffleMasks.size());
    for (int m : sv.getShuffleMask())
      out_.shuffleMasks.push_back(m);
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
    in.offset = checkedAlignment(al.getAlign().value(), inst);
    return;
  }
  case Instruction::Load:
    in.op = Opcode::Load;
    in.a = operand(inst.getOperand(0));
    // The value's own width (an i1 is 1 bit, in a byte of memory): the interpreter reads the
    // whole bytes and keeps the value's bits.
    in.width = uint16_t(dl_.getTypeSizeInBits(inst.getType()));
    if (dl_.getTypeStoreSizeInBits(inst.getType()) > 128)
      throw LoadError("loads wider than 128 bits are not supported: " + describe(&inst));
    return;
  case Instruction::Store: {
    llvm::Value *v = inst.getOperand(0);
    in.op = Opcode::Store;
    in.a = operand(v);
    in.b = operand(inst.getOperand(1));
    in.width = uint16_t(dl_.getTypeSizeInBits(v->getType())); // as for loads: an i1 is 1 bit
    if (dl_.getTypeStoreSizeInBits(v->getType()) > 128)
      throw LoadError("stores wider than 128 bits are not supported: " + describe(&inst));
    return;
  }
  case Instruction::GetElementPtr: {
    auto &gep = cast<GetElementPtrInst>(inst);
    in.op = Opcode::Gep;
    in.a = operand(gep.getPointerOperand());
    in.imm = uint32_t(out_.gepTerms.size());
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
      out_.gepTerms.push_back({operand(idx), uint16_t(bitsOf(dl_, idx->getType())), scale});
    }
    in.count = uint32_t(out_.gepTerms.size()) - in.imm;
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
    in.imm = uint32_t(
        aggregateOffset(dl_, ev.getAggregateOperand()->getType(), ev.getIndices()) * 8);
    return;
  }
  case Instruction::InsertValue: {
    auto &iv = cast<InsertValueInst>(inst);
    in.op = Opcode::InsertBits;
    in.a = operand(iv.getAggregateOperand());
    in.b = operand(iv.getInsertedValueOperand());
    in.count = bitsOf(dl_, iv.getInsertedValueOperand()->getType());
    in.imm = uint32_t(
        aggregateOffset(dl_, iv.getAggregateOperand()->getType(), iv.getIndices()) * 8);
    return;
  }
  case Instruction::Br: {
    auto &br = cast<BranchInst>(inst);
    if (br.isUnconditional()) {
      in.op = Opcode::Br;
      in.target = blocks_.at(br.getSuccessor(0));
    } else {
      in.op = Opcode::CondBr;
      in.a = operand(br.getCondition());
      in.target = blocks_.at(br.getSuccessor(0));
      in.target2 = blocks_.at(br.getSuccessor(1));
    }
    return;
  }
  case Instruction::Switch: {
    auto &sw = cast<SwitchInst>(inst);
    in.op = Opcode::Switch;
    in.a = operand(sw.getCondition());
    in.width = uint16_t(bitsOf(dl_, sw.getCondition()->getType()));
    in.target = blocks_.at(sw.getDefaultDest());
    in.imm = uint32_t(out_.switchCases.size());
    for (auto &c : sw.cases())
      out_.switchCases.push_back(
          {constants_.value(c.getCaseValue()), blocks_.at(c.getCaseSuccessor())});
    in.count = uint32_t(out_.switchCases.size()) - in.imm;
    return;
  }
  case Instruction::IndirectBr: {
    auto &ib = cast<IndirectBrInst>(inst);
    in.op = Opcode::IndirectBr;
    in.a = operand(ib.getAddress());
    in.width = 64;
    in.imm = uint32_t(out_.switchCases.size());
    for (unsigned i = 0; i < ib.getNumDestinations(); ++i) {
      llvm::BasicBlock *dest = ib.getDestination(i);
      out_.switchCases.push_back({constants_.labelAddress(dest), blocks_.at(dest)});
    }
    in.count = uint32_t(out_.switchCases.size()) - in.imm;
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
    if (llvm::Constant *c = constantIntrinsic(cast<CallInst>(inst))) {
      in.op = Opcode::Move;
      in.a = operand(c);
      return;
    }
    translateCall(cast<CallInst>(inst), in);
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
    if (std::optional<Kind> k = binaryKind(inst.getOpcode()))
      return binary(in, inst, *k);
    break;
  }
  // Floating point and the rest: a clear message when the path reaches it would be better
  // than refusing the program; for now the program is refused at load time.
  throw LoadError("unsupported instruction: " + describe(&inst));
}

void InstructionTranslator::binary(Instr &in, llvm::Instruction &inst, Kind k) {
  in.lanes = lanesOf(inst.getType());
  in.op = Opcode::Binary;
  if (auto *ob = llvm::dyn_cast<llvm::OverflowingBinaryOperator>(&inst))
    in.noSignedWrap = ob->hasNoSignedWrap();
  in.kind = k;
  in.a = operand(inst.getOperand(0));
  in.b = operand(inst.getOperand(1));
}

void InstructionTranslator::unary(Instr &in, llvm::Instruction &inst, Opcode op) {
  in.op = op;
  in.a = operand(inst.getOperand(0));
  in.imm = bitsOf(dl_, inst.getOperand(0)->getType()); // the source width
  if (op != Opcode::Move)
    in.lanes = lanesOf(inst.getType());
}

void InstructionTranslator::floatOp(Instr &in, llvm::Instruction &inst, FloatOp op) {
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

void InstructionTranslator::translateCall(llvm::CallInst &call, Instr &in) {
  using namespace llvm;
  CallSite site;
  llvm::Function *callee = call.getCalledFunction();
  // A call without a prototype in scope (C89) calls the function through another type: the
  // callee is still the function, and the engine's own functions are still its own.
  auto *unprototyped = callee ? nullptr : llvm::dyn_cast<llvm::Function>(call.getCalledOperand()->stripPointerCasts());
  if (call.isInlineAsm()) { // the path that runs it ends with a model error, not the program
    site.kind = CallKind::Special;
    site.callee = uint32_t(Special::InlineAsm);
  } else if (std::optional<Special> s = unprototyped ? declaredSpecial(*unprototyped) : std::nullopt) {
    site.kind = CallKind::Special;
    site.callee = uint32_t(*s);
    callee = unprototyped;
  } else if (callee && callee->isIntrinsic()) {
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
      site.callee = functions_.at(callee);
    }
  } else {
    site.kind = CallKind::Indirect;
    site.target = operand(call.getCalledOperand());
  }
  site.calleeName = callee ? callee->getName().str() : call.isInlineAsm() ? "inline assembly" : "(indirect)";
  site.firstArg = uint32_t(out_.callArgs.size());
  for (unsigned i = 0; i < call.arg_size(); ++i) {
    llvm::Value *arg = call.getArgOperand(i);
    out_.callArgs.push_back(operand(arg));
    site.argWidths.push_back(uint16_t(bitsOf(dl_, arg->getType())));
    // A by-value aggregate is passed as a pointer the callee must not write through.
    uint32_t copy = 0;
    uint64_t align = 0;
    if (call.isByValArgument(i)) {
      copy = uint32_t(dl_.getTypeAllocSize(call.getParamByValType(i)));
      llvm::MaybeAlign given = call.getParamAlign(i);
      align = checkedAlignment(given ? given->value() : 1, call);
    }
    site.byValSizes.push_back(copy);
    site.byValAligns.push_back(align);
  }
  site.numArgs = uint32_t(call.arg_size());
  in.op = Opcode::Call;
  in.imm = uint32_t(out_.callSites.size());
  out_.callSites.push_back(std::move(site));
}

} // namespace cairn::engine
