#include "cairn/engine/Memory.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

namespace cairn::engine {

ObjectState::ObjectState(uint64_t size, const uint8_t *initial)
    : bytes_(initial ? std::vector<uint8_t>(initial, initial + size) : std::vector<uint8_t>(size, 0)), exprs_(size) {}

ExprRef ObjectState::arrayExpr(ExprContext &ctx) const {
  if (array_)
    return array_;
  std::vector<u128> init(bytes_.begin(), bytes_.end());
  ExprRef a = ctx.constArray(init, 8, 64);
  if (!exprs_.empty())
    for (uint64_t i = 0; i < bytes_.size(); ++i)
      if (exprs_.at(i))
        a = ctx.store(a, ctx.constant(i, 64), byteExpr(ctx, i));
  array_ = a;
  storesOnArray_ = 0;
  return array_;
}

ExprRef ObjectState::byteExpr(ExprContext &ctx, uint64_t i) const {
  if (throughArray_)
    return ctx.select(arrayExpr(ctx), ctx.constant(i, 64));
  const Expr *e = exprs_.at(i);
  if (!e)
    return ctx.constant(bytes_[i], 8);
  return e->width() == 8 ? ExprRef(e) : ctx.extract(ExprRef(e), 8 * exprs_.piece(i), 8);
}

void ObjectState::setByte(ExprContext &ctx, uint64_t i, const ExprRef &e) {
  if (array_ && !throughArray_ && ++storesOnArray_ > bytes_.size())
    array_ = ExprRef(); // bytes_/exprs_ have it all: built again when asked
  if (array_)
    array_ = ctx.store(array_, ctx.constant(i, 64), e);
  if (throughArray_)
    return;
  if (e->isConstant()) {
    bytes_[i] = uint8_t(e->value());
    exprs_.clear(i, 1);
    return;
  }
  exprs_.set(i, e);
}

Value ObjectState::read(ExprContext &ctx, uint64_t offset, unsigned n) const {
  assert(offset + n <= bytes_.size());
  noteAccess(n);
  if (n <= 8 && !throughArray_ && exprs_.empty()) { // the common case: one little-endian load
    uint64_t v = 0;
    std::memcpy(&v, bytes_.data() + offset, n);
    return Value(u128(v));
  }
  bool allConcrete = !throughArray_;
  if (allConcrete && !exprs_.empty())
    for (unsigned i = 0; i < n && allConcrete; ++i)
      allConcrete = !exprs_.at(offset + i);
  if (allConcrete) { // the fast path: no expression is built
    u128 v = 0;
    for (unsigned i = n; i-- > 0;)
      v = (v << 8) | bytes_[offset + i];
    return Value(v);
  }
  if (const Expr *whole = wholeValueAt(offset, n))
    return Value(ExprRef(whole));
  ExprRef e = byteExpr(ctx, offset);
  for (unsigned i = 1; i < n; ++i)
    e = ctx.concat(byteExpr(ctx, offset + i), e);
  return Value(e);
}

// A symbolic value written whole and read back whole (a pointer in the relocatable model, a
// struct field) is the value itself: no concatenation of its bytes to build and simplify.
const Expr *ObjectState::wholeValueAt(uint64_t offset, unsigned n) const {
  if (n < 2 || throughArray_ || exprs_.empty())
    return nullptr;
  const Expr *whole = exprs_.at(offset);
  if (!whole || whole->width() != 8 * n || exprs_.piece(offset) != 0)
    return nullptr;
  for (unsigned i = 1; i < n; ++i)
    if (exprs_.at(offset + i) != whole || exprs_.piece(offset + i) != i)
      return nullptr;
  return whole;
}

void ObjectState::write(ExprContext &ctx, uint64_t offset, const Value &v, unsigned n) {
  assert(offset + n <= bytes_.size());
  noteAccess(n);
  if (v.concrete() && !throughArray_ && !array_) {
    // Concrete bytes next to symbolic ones (an int field beside a pointer field in the
    // relocatable model) are stored as bytes too: no constant is built per byte.
    if (n <= 8) {
      const uint64_t low = uint64_t(v.bits); // the host is little-endian, as the programs are
      std::memcpy(bytes_.data() + offset, &low, n);
    } else {
      for (unsigned i = 0; i < n; ++i)
        bytes_[offset + i] = uint8_t(v.bits >> (8 * i));
    }
    exprs_.clear(offset, n);
    return;
  }
  ExprRef e = v.expr(ctx, n * 8);
  if (n > 1 && !e->isConstant() && !array_ && !throughArray_) {
    for (unsigned i = 0; i < n; ++i)
      exprs_.set(offset + i, e, uint8_t(i));
    return;
  }
  for (unsigned i = 0; i < n; ++i)
    setByte(ctx, offset + i, ctx.extract(e, 8 * i, 8));
}

void ObjectState::writeConcrete(ExprContext &ctx, uint64_t offset, const uint8_t *from, uint64_t n) {
  assert(offset + n <= bytes_.size());
  noteAccess(1); // a copy of bytes
  if (throughArray_ || array_) { // the array expression is kept up to date byte by byte
    std::vector<uint8_t> copy(from, from + n);
    for (uint64_t i = 0; i < n; ++i)
      setByte(ctx, offset + i, ctx.constant(copy[i], 8));
    return;
  }
  std::memmove(bytes_.data() + offset, from, n);
  exprs_.clear(offset, n);
}

void ObjectState::fillConcrete(ExprContext &ctx, uint64_t offset, uint8_t byte, uint64_t n) {
  assert(offset + n <= bytes_.size());
  noteAccess(1);
  if (throughArray_ || array_) {
    for (uint64_t i = 0; i < n; ++i)
      setByte(ctx, offset + i, ctx.constant(byte, 8));
    return;
  }
  std::memset(bytes_.data() + offset, byte, n);
  exprs_.clear(offset, n);
}

Value ObjectState::readSymbolic(ExprContext &ctx, const ExprRef &offset, unsigned n) const {
  noteAccess(n);
  ExprRef a = arrayExpr(ctx);
  ExprRef off = ctx.zextOrTrunc(offset, 64);
  return Value(ctx.readLE(a, off, n));
}

void ObjectState::writeSymbolic(ExprContext &ctx, const ExprRef &offset, const Value &v, unsigned n) {
  noteAccess(n);
  ExprRef a = arrayExpr(ctx);
  ExprRef off = ctx.zextOrTrunc(offset, 64);
  ExprRef e = v.expr(ctx, n * 8);
  for (unsigned i = 0; i < n; ++i)
    a = ctx.store(a, ctx.add(off, ctx.constant(i, 64)), ctx.extract(e, 8 * i, 8));
  array_ = a;
  throughArray_ = true;
}

void ObjectState::makeSymbolic(ExprContext &ctx, const ExprRef &array) {
  throughArray_ = false;
  array_ = array;
  storesOnArray_ = 0;
  exprs_ = SymbolicBytes(bytes_.size());
  for (uint64_t i = 0; i < bytes_.size(); ++i)
    exprs_.set(i, ctx.select(array, ctx.constant(i, array->domainWidth())));
  if (array->domainWidth() != 64)
    array_ = ExprRef(); // rebuilt with 64-bit indices on demand
}

AddressSpace::AddressSpace(const AddressSpace &o) : objects_(o.objects_), bytes_(o.bytes_) { o.disown(); }

AddressSpace &AddressSpace::operator=(const AddressSpace &o) {
  if (this != &o) {
    objects_ = o.objects_;
    bytes_ = o.bytes_;
    forget();
    o.disown();
  }
  return *this;
}

AddressSpace::AddressSpace(AddressSpace &&o) noexcept : objects_(std::move(o.objects_)), bytes_(o.bytes_) { o.forget(); }

AddressSpace &AddressSpace::operator=(AddressSpace &&o) noexcept {
  if (this != &o) {
    objects_ = std::move(o.objects_);
    bytes_ = o.bytes_;
    forget();
    o.forget();
  }
  return *this;
}

void AddressSpace::bind(std::shared_ptr<const MemoryObject> mo, std::shared_ptr<const ObjectState> os) {
  forget();
  uint64_t base = mo->address;
  if (const Objects::value_type *old = objects_.find(base))
    bytes_ -= old->second.object->size;
  bytes_ += mo->size;
  objects_.insertOrAssign(base, Entry{std::move(mo), std::move(os)});
}

void AddressSpace::unbind(uint64_t address) {
  forget();
  if (const Objects::value_type *old = objects_.find(address)) {
    bytes_ -= old->second.object->size;
    objects_.erase(address);
  }
}

void AddressSpace::remember(Entry *e, bool owned) const {
  const uint64_t size = e->object->size ? e->object->size : 1; // a zero-sized object still owns its address
  Remembered *slot = nullptr;
  for (Remembered &r : remembered_)
    if (!r.entry || r.entry == e) {
      slot = &r;
      break;
    }
  if (!slot)
    slot = &remembered_[nextSlot_++ % kRemembered];
  *slot = {e, e->object->address, size, owned};
}

const AddressSpace::Entry *AddressSpace::findInMap(uint64_t address) const {
  const Objects::value_type *below = objects_.floor(address);
  if (!below)
    return nullptr;
  const MemoryObject &mo = *below->second.object;
  if (address - mo.address >= (mo.size ? mo.size : 1))
    return nullptr;
  // The map's nodes are not changed through a found entry: remembering it writable is safe.
  Entry *e = const_cast<Entry *>(&below->second);
  remember(e, false);
  return e;
}

// Objects do not overlap, so only the last one starting before the range's end can meet it.
const AddressSpace::Entry *AddressSpace::overlapping(uint64_t address, uint64_t size) const {
  const Objects::value_type *below = objects_.floor(address + size - 1);
  if (!below)
    return nullptr;
  const MemoryObject &mo = *below->second.object;
  return mo.address + std::max<uint64_t>(mo.size, 1) > address ? &below->second : nullptr;
}

const AddressSpace::Entry *AddressSpace::findBase(uint64_t address) const {
  const Objects::value_type *at = objects_.find(address);
  return at ? &at->second : nullptr;
}

ObjectState &AddressSpace::makeWritable(uint64_t base) {
  Entry *e = objects_.mutate(base);
  if (!e)
    throw std::out_of_range("no object at this address");
  // Making the path to `base` unshared may have replaced nodes a found entry lives in.
  for (Remembered &r : remembered_)
    if (!r.owned)
      r = {};
  remember(e, true);
  return ownState(*e);
}

} // namespace cairn::engine
