#include "loading/ConstantTranslation.h"

#include "loading/Describe.h"
#include "loading/IntegerOps.h"
#include "loading/RegisterTypes.h"
#include "cairn/expr/Fold.h"
#include "cairn/engine/Memory.h"
#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <algorithm>
#include <vector>

namespace cairn::engine {

namespace {

constexpr uint64_t kGlobalBase = 0x1000'0000;
constexpr uint64_t kGlobalGap = 16; // between globals, so a small overflow lands nowhere

} // namespace

void ConstantTranslator::layoutGlobals(llvm::Module &m) {
  uint64_t next = kGlobalBase;
  for (llvm::GlobalVariable &g : m.globals()) {
    uint64_t size = std::max<uint64_t>(1, dl_.getTypeAllocSize(g.getValueType()));
    uint64_t align = std::max<uint64_t>(16, g.getAlign() ? g.getAlign()->value() : 16);
    if (align > kMaxObjectAlignment)
      throw LoadError("alignments over " + std::to_string(kMaxObjectAlignment) +
                      " bytes are not supported: global " + g.getName().str());
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
  for (llvm::GlobalVariable &g : m.globals()) {
    GlobalObject &obj = p_.globals[i++];
    obj.bytes.assign(obj.size, 0);
    if (!g.hasInitializer())
      continue;
    try {
      write(g.getInitializer(), obj.bytes.data(), obj.size);
    } catch (const LoadError &e) {
      obj.unsupported = e.what();
    }
  }
}

Operand ConstantTranslator::pooled(u128 v) {
  auto [it, fresh] = constantIndex_.try_emplace(v, uint32_t(p_.constants.size()));
  if (fresh)
    p_.constants.push_back(v);
  return {it->second, true};
}

u128 ConstantTranslator::value(const llvm::Constant *c) {
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
    return p_.functionAddress(functions_.at(f));
  if (auto *ga = dyn_cast<GlobalAlias>(c))
    return value(ga->getAliasee());
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
      u128 base = value(ce->getOperand(0));
      APInt offset(64, 0);
      auto *gep = cast<GEPOperator>(ce);
      if (gep->accumulateConstantOffset(dl_, offset))
        return (base + u128(uint64_t(offset.getSExtValue()))) & widthMask(64);
      return gepAddress(gep, base); // an index that is itself a constant expression
    }
    case Instruction::ICmp: {
      const Constant *l = ce->getOperand(0), *r = ce->getOperand(1);
      if (l->getType()->isVectorTy())
        throw LoadError("unsupported constant: " + describe(c));
      Comparison cmp = comparison(ce->getPredicate());
      if (cmp.swap)
        std::swap(l, r);
      u128 holds = foldBinary(cmp.kind, value(l), value(r), bitsOf(dl_, l->getType()));
      return cmp.negate ? !holds : holds;
    }
    case Instruction::Select:
      return value(ce->getOperand(0)) ? value(ce->getOperand(1)) : value(ce->getOperand(2));
    case Instruction::BitCast:
    case Instruction::PtrToInt:
    case Instruction::IntToPtr:
    case Instruction::AddrSpaceCast:
    case Instruction::Trunc:
    case Instruction::ZExt:
      return value(ce->getOperand(0)) & widthMask(bitsOf(dl_, ce->getType()));
    case Instruction::SExt: {
      unsigned from = bitsOf(dl_, ce->getOperand(0)->getType());
      return u128(toSigned(value(ce->getOperand(0)), from)) &
             widthMask(bitsOf(dl_, ce->getType()));
    }
    default:
      if (std::optional<Kind> kind = binaryKind(ce->getOpcode()); kind && !ce->getType()->isVectorTy())
        return foldBinary(*kind, value(ce->getOperand(0)), value(ce->getOperand(1)),
                          bitsOf(dl_, ce->getType()));
      break;
    }
  }
  if (auto *cv = dyn_cast<ConstantVector>(c)) { // lanes side by side; undef and poison lanes 0
    unsigned laneBits = bitsOf(dl_, cv->getType()->getElementType());
    u128 r = 0;
    for (unsigned i = 0; i < cv->getNumOperands(); ++i)
      r |= (value(cv->getOperand(i)) & widthMask(laneBits)) << (i * laneBits);
    return r;
  }
  if (isa<ConstantStruct>(c) || isa<ConstantArray>(c)) { // flattened by the data layout
    uint64_t size = dl_.getTypeStoreSize(c->getType());
    if (size > 16)
      throw LoadError("unsupported constant (over 128 bits): " + describe(c));
    return bytesValue(c, size);
  }
  if (isa<ConstantDataSequential>(c)) // small vectors and arrays
    return bytesValue(c, dl_.getTypeStoreSize(c->getType()));
  throw LoadError("unsupported constant: " + describe(c));
}

// The constant's in-memory bytes, little-endian, as a register's bits.
u128 ConstantTranslator::bytesValue(const llvm::Constant *c, uint64_t size) {
  std::vector<uint8_t> bytes(size);
  write(c, bytes.data(), bytes.size());
  u128 r = 0;
  for (size_t i = 0; i < bytes.size() && i < 16; ++i)
    r |= u128(bytes[i]) << (8 * i);
  return r;
}

// A constant getelementptr whose indices are constants but not plain integers (a ptrtoint of
// a global, say): each index folded, sign-extended from its width and scaled.
u128 ConstantTranslator::gepAddress(const llvm::GEPOperator *gep, u128 base) {
  using namespace llvm;
  u128 address = base;
  for (gep_type_iterator it = gep_type_begin(gep), end = gep_type_end(gep); it != end; ++it) {
    auto *idx = cast<Constant>(it.getOperand());
    if (idx->getType()->isVectorTy())
      throw LoadError("unsupported constant: " + describe(gep));
    if (StructType *st = it.getStructTypeOrNull()) {
      address += dl_.getStructLayout(st)->getElementOffset(unsigned(value(idx)));
      continue;
    }
    int64_t index = int64_t(toSigned(value(idx), bitsOf(dl_, idx->getType())));
    address += u128(uint64_t(index * int64_t(dl_.getTypeAllocSize(it.getIndexedType()))));
  }
  return address & widthMask(64);
}

u128 ConstantTranslator::labelAddress(const llvm::BasicBlock *bb) {
  u128 next = Program::kLabelBase + labelAddress_.size() * Program::kLabelStride;
  return labelAddress_.try_emplace(bb, next).first->second;
}

// Writes a constant's in-memory bytes (little-endian, by the data layout).
void ConstantTranslator::write(const llvm::Constant *c, uint8_t *out, uint64_t size) {
  using namespace llvm;
  if (isa<ConstantAggregateZero>(c) || isa<UndefValue>(c) || isa<ConstantPointerNull>(c))
    return; // the buffer starts zeroed
  if (auto *cds = dyn_cast<ConstantDataSequential>(c)) {
    uint64_t elemSize = dl_.getTypeAllocSize(cds->getElementType());
    for (unsigned i = 0; i < cds->getNumElements(); ++i)
      write(cds->getElementAsConstant(i), out + i * elemSize, elemSize);
    return;
  }
  if (auto *ca = dyn_cast<ConstantArray>(c)) {
    uint64_t elemSize = dl_.getTypeAllocSize(ca->getType()->getElementType());
    for (unsigned i = 0; i < ca->getNumOperands(); ++i)
      write(ca->getOperand(i), out + i * elemSize, elemSize);
    return;
  }
  if (auto *cs = dyn_cast<ConstantStruct>(c)) {
    const StructLayout *layout = dl_.getStructLayout(cs->getType());
    for (unsigned i = 0; i < cs->getNumOperands(); ++i) {
      uint64_t off = layout->getElementOffset(i);
      write(cs->getOperand(i), out + off, dl_.getTypeStoreSize(cs->getOperand(i)->getType()));
    }
    return;
  }
  if (auto *cv = dyn_cast<ConstantVector>(c)) {
    uint64_t elemSize = dl_.getTypeAllocSize(cv->getType()->getElementType());
    for (unsigned i = 0; i < cv->getNumOperands(); ++i)
      write(cv->getOperand(i), out + i * elemSize, elemSize);
    return;
  }
  u128 v = value(c);
  uint64_t n = std::min<uint64_t>(size, dl_.getTypeStoreSize(c->getType()));
  for (uint64_t i = 0; i < n && i < 16; ++i)
    out[i] = uint8_t(v >> (8 * i));
}

} // namespace cairn::engine
