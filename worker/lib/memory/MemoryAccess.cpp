#include "memory/MemoryAccess.h"

#include "executor/Engine.h"
#include "memory/Extents.h"

#include <algorithm>
#include <cassert>

namespace cairn::engine {

namespace {
// Objects one symbolic pointer may resolve to before the rest of its values end the path.
constexpr unsigned kMaxTargets = 1024;
} // namespace

MemoryAccess::MemoryAccess(Engine &engine, MemoryModel &model) : engine_(engine), model_(model), ctx_(engine.ctx) {}

uint64_t MemoryAccess::allocate(ExecutionState &s, uint64_t size, ObjectKind kind, std::string name, uint32_t loc,
                                ExprRef sizeExpr, uint64_t alignment) {
  assert((alignment & (alignment - 1)) == 0 && alignment <= kMaxObjectAlignment);
  auto mo = std::make_shared<MemoryObject>();
  mo->id = engine_.nextObjectId++;
  uint64_t at = alignUp(s.nextAddress, alignment);
  // Fixed objects may lie ahead; past one, the address is aligned again (and checked again).
  while (s.fixedObjects) {
    uint64_t past = alignUp(pastFixedObjects(s, at, paddedSize(size)), alignment);
    if (past == at)
      break;
    at = past;
  }
  mo->address = at;
  mo->alignment = uint32_t(std::max(alignment, kMinAlignment));
  mo->size = size;
  mo->sizeExpr = std::move(sizeExpr);
  mo->kind = kind;
  mo->name = std::move(name);
  mo->allocLoc = loc;
  model_.place(s, *mo);
  s.nextAddress = mo->address + paddedSize(size);
  s.memory.bind(mo, std::make_shared<ObjectState>(size));
  return mo->address;
}

Value MemoryAccess::pointerTo(const ExecutionState &s, uint64_t address) const {
  const MemoryObject &mo = *s.memory.findBase(address)->object;
  return mo.base ? Value(mo.base) : Value(u128(address));
}

// An access that runs from one part of an object the model cut up into the next, within the
// whole object: the parts are joined again (and the caller re-runs the access).
bool MemoryAccess::joinAcrossParts(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a, unsigned bytes) {
  const MemoryObject &mo = *e.object;
  std::optional<MemoryModel::Whole> whole = model_.wholeOf(mo);
  if (!whole || a - mo.address + bytes <= mo.size || a + bytes > whole->address + whole->size)
    return false;
  model_.rejoin(s, mo);
  return true;
}

void MemoryAccess::readOnlyError(ExecutionState &s, const MemoryObject &mo) {
  engine_.error(s, "ptr", "read-only", "write to read-only memory " + mo.name);
}

// One target object at a time, found by asking the solver for a value of the address; the
// bounds are checked against the object's base and size expressions.
void MemoryAccess::resolveSymbolic(ExecutionState &s, const Value &address, unsigned bytes, bool write,
                                   Access access) {
  // Counted once per access, however often a split or a join re-runs it.
  const bool outermost = resolutionDepth_++ == 0;
  const uint64_t queriesBefore = engine_.stats.queries;
  resolveTargets(s, address, bytes, write, access, true);
  if (outermost)
    engine_.stats.memory.resolutionQueries += engine_.stats.queries - queriesBefore;
  --resolutionDepth_;
}

// `merge`: the model may move objects first (not when re-run after a split or a join).
void MemoryAccess::resolveTargets(ExecutionState &s, const Value &address, unsigned bytes, bool write,
                                  Access access, bool merge) {
  ExprRef p = address.expr(ctx_, 64);
  if (merge) {
    model_.beforeResolution(s, p);
    if (engine_.isTerminated(&s))
      return;
  }
  ExecutionState *rest = &s;
  for (unsigned round = 0; rest && round < kMaxTargets; ++round) {
    std::optional<u128> sample = engine_.questions.concretize(*rest, address, 64, false);
    if (!sample)
      return;
    const AddressSpace::Entry *e = rest->memory.find(uint64_t(*sample));
    if (!e) {
      // The address may miss every object: one error state for all such addresses, and the
      // rest, which must hit some object, goes on being resolved.
      ExprRef hitsSome = pointsIntoSomeObject(ctx_, rest->memory, p);
      ExprRef astray = hitsSome ? ctx_.lnot(hitsSome) : ctx_.eq(p, ctx_.constant(*sample, 64));
      auto [bad, others] = engine_.branch(*rest, astray, true);
      if (bad)
        memoryError(*bad, uint64_t(*sample), bytes, nullptr);
      rest = others;
      continue;
    }
    // Held: a split below unbinds the object from the state that may be its only owner.
    const std::shared_ptr<const MemoryObject> object = e->object;
    const MemoryObject &mo = *object;
    ExprRef offset = ctx_.sub(p, baseOf(ctx_, mo));
    // In the object's extent at all (a zero-sized object still owns its first byte), then
    // within its size for the whole access.
    const bool cross = model_.crossesObjects(p, mo);
    auto [inside, outside] = engine_.branch(*rest, inObject(ctx_, p, mo), cross);
    if (inside && outside)
      ++engine_.stats.memory.resolutionForks;
    if (inside) {
      ExprRef size = sizeOf(ctx_, mo), n = ctx_.constant(bytes, 64);
      ExprRef fits = ctx_.land(ctx_.ule(n, size), ctx_.ule(offset, ctx_.sub(size, n)));
      auto [ok, overflow] = engine_.branch(*inside, fits, cross);
      if (overflow)
        overflowAccess(*overflow, mo, p, uint64_t(*sample), address, bytes, write, access);
      if (ok && model_.splitForAccess(*ok, mo, offset)) {
        resolveTargets(*ok, address, bytes, write, access, false); // again, on the chunks
      } else if (ok) {
        const AddressSpace::Entry *entry = ok->memory.findBase(mo.address);
        if (write && mo.readOnly)
          readOnlyError(*ok, mo);
        else
          access(*ok, *entry, Value(offset));
      }
    }
    rest = outside;
  }
  if (rest)
    engine_.terminate(*rest, Termination::partialPath("too many objects for one pointer"));
}

// An access that starts in `mo` and runs past its end: an error, unless `mo` is a part of a
// whole object (a chunk) and the access stays within the whole; then the whole is put back
// together and the access re-run. `mo` is held by the caller.
void MemoryAccess::overflowAccess(ExecutionState &s, const MemoryObject &mo, const ExprRef &p, uint64_t sample,
                                  const Value &address, unsigned bytes, bool write, Access access) {
  std::optional<MemoryModel::Whole> whole = model_.wholeOf(mo);
  if (!whole)
    return memoryError(s, sample, bytes, s.memory.find(sample));
  ExprRef offset = ctx_.sub(p, whole->base);
  ExprRef within = ctx_.ule(offset, ctx_.constant(whole->size - bytes, 64));
  auto [joined, astray] = bytes <= whole->size ? engine_.branch(s, within) : Engine::Sides{nullptr, &s};
  if (astray)
    memoryError(*astray, sample, bytes, astray->memory.find(sample));
  if (joined) {
    model_.rejoin(*joined, mo);
    resolveTargets(*joined, address, bytes, write, access, false);
  }
}

void MemoryAccess::memoryError(ExecutionState &s, uint64_t address, unsigned bytes, const AddressSpace::Entry *near) {
  if (address < kNullPage)
    return engine_.error(s, "ptr", "null", "memory error: null pointer dereference");
  for (const auto &[base, size] : s.freed)
    if (address >= base && address < base + std::max<uint64_t>(size, 1))
      return engine_.error(s, "ptr", "use-after-free", "memory error: use after free");
  for (const GlobalObject &g : engine_.program.globals)
    if (!g.unsupported.empty() && address >= g.address && address < g.address + g.size)
      return engine_.error(s, "model", "unsupported-constant",
                           "the initial value of global " + g.name + " cannot be computed: " + g.unsupported);
  std::string what = "memory error: out of bound pointer";
  if (near)
    what += " (" + std::to_string(bytes) + "-byte access at offset " +
            std::to_string(int64_t(address - near->object->address)) + " of " +
            std::to_string(near->object->size) + "-byte object " + near->object->name + ")";
  engine_.error(s, "ptr", "out-of-bounds", what);
}

Value MemoryAccess::readAt(ExecutionState &s, const AddressSpace::Entry &e, const Value &offset, unsigned bytes) {
  if (offset.concrete())
    return e.state->read(ctx_, uint64_t(offset.bits), bytes);
  countSymbolicAccess(*e.object);
  Value v = e.state->readSymbolic(ctx_, offset.sym, bytes);
  noteArrayType(s, *e.state);
  return v;
}

void MemoryAccess::noteArrayType(ExecutionState &s, const ObjectState &os) {
  if (const Expr *root = os.arrayRoot())
    s.constraints.noteArrayAccess(root, os.elementBytes());
}

void MemoryAccess::writeAt(ExecutionState &s, const AddressSpace::Entry &e, const Value &offset, const Value &v,
                           unsigned bytes) {
  ObjectState &os = s.memory.writable(e.object->address);
  if (offset.concrete()) {
    os.write(ctx_, uint64_t(offset.bits), v, bytes);
  } else {
    countSymbolicAccess(*e.object);
    os.writeSymbolic(ctx_, offset.sym, v, bytes);
    noteArrayType(s, os);
  }
}

void MemoryAccess::countSymbolicAccess(const MemoryObject &mo) {
  MemoryModelStats &stats = engine_.stats.memory;
  ++stats.symbolicAccesses;
  stats.symbolicAccessBytes += mo.size;
  stats.maxSymbolicAccessBytes = std::max(stats.maxSymbolicAccessBytes, mo.size);
}

std::string MemoryAccess::readString(ExecutionState &s, const Value &address, size_t limit) {
  std::optional<uint64_t> start = knownAddress(s, address);
  if (!start)
    return "(symbolic string)";
  std::string out;
  uint64_t a = *start;
  while (out.size() < limit) {
    const AddressSpace::Entry *e = s.memory.find(a);
    if (!e)
      break;
    Value byte = e->state->read(ctx_, a - e->object->address, 1);
    uint8_t c = byte.concrete() ? uint8_t(byte.bits) : engine_.questions.byteValue(s, byte.sym);
    if (!c)
      break;
    out.push_back(char(c));
    ++a;
  }
  return out;
}

void MemoryAccess::copy(ExecutionState &s, const Value &dstPtr, const Value &srcPtr, const Value &count, unsigned w) {
  if (keepsLengthSymbolic(count))
    return copySymbolicLength(s, dstPtr, srcPtr, count, w);
  copyConcretized(s, dstPtr, srcPtr, count, w);
}

void MemoryAccess::copyConcretized(ExecutionState &s, const Value &dstPtr, const Value &srcPtr, const Value &count,
                                   unsigned w) {
  std::optional<u128> n = engine_.questions.concretize(s, count, w, true);
  if (!n)
    return;
  forEachTarget(s, dstPtr, true, *n, [&](ExecutionState &st, const Value &dst) {
    forEachTarget(st, srcPtr, false, *n, [&](ExecutionState &from, const Value &src) {
      // Read all first: the ranges may overlap (memmove). Grown byte by byte, so that a huge
      // count takes no more room than the bytes that exist: the first one past the object ends
      // the path before.
      std::vector<Value> bytes;
      bytes.reserve(size_t(std::min<u128>(*n, 4096)));
      for (u128 i = 0; i < *n; ++i)
        if (!loadByte(from, offsetBy(src, uint64_t(i)), bytes.emplace_back()))
          return;
      for (u128 i = 0; i < *n; ++i)
        if (!storeByte(from, offsetBy(dst, uint64_t(i)), bytes[size_t(i)]))
          return;
    });
  });
}

void MemoryAccess::set(ExecutionState &s, const Value &dstPtr, const Value &value, const Value &count, unsigned w) {
  Value byte = value.concrete() ? Value(value.bits & 0xff) : Value(ctx_.extract(value.sym, 0, 8));
  if (keepsLengthSymbolic(count))
    return setSymbolicLength(s, dstPtr, byte, count, w);
  setConcretized(s, dstPtr, byte, count, w);
}

void MemoryAccess::setConcretized(ExecutionState &s, const Value &dstPtr, const Value &byte, const Value &count,
                                  unsigned w) {
  std::optional<u128> n = engine_.questions.concretize(s, count, w, true);
  if (!n)
    return;
  forEachTarget(s, dstPtr, true, *n, [&](ExecutionState &st, const Value &dst) {
    for (u128 i = 0; i < *n; ++i)
      if (!storeByte(st, offsetBy(dst, uint64_t(i)), byte))
        return;
  });
}

void MemoryAccess::forEachTarget(ExecutionState &s, const Value &p, bool write, u128 bytes, PointerUse use) {
  if (!bytes || knownAddress(s, p)) {
    std::optional<Value> fixed = fixPointer(s, p);
    if (fixed)
      use(s, *fixed);
    return;
  }
  resolveSymbolic(s, p, 1, write, [&](ExecutionState &st, const AddressSpace::Entry &, const Value &) {
    if (std::optional<Value> fixed = fixPointer(st, p))
      use(st, *fixed);
  });
}

bool MemoryAccess::loadByte(ExecutionState &s, const Value &address, Value &out) {
  bool done = false;
  resolve(s, address, 1, false, [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &off) {
    out = readAt(st, e, off, 1);
    done = true;
  });
  return done && !engine_.isTerminated(&s);
}

bool MemoryAccess::storeByte(ExecutionState &s, const Value &address, const Value &byte) {
  bool done = false;
  resolve(s, address, 1, true, [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &off) {
    writeAt(st, e, off, byte, 1);
    done = true;
  });
  return done && !engine_.isTerminated(&s);
}

std::optional<Value> MemoryAccess::fixPointer(ExecutionState &s, const Value &p) {
  std::optional<u128> v = engine_.questions.concretize(s, p, 64, true);
  return v ? std::optional<Value>(Value(*v)) : std::nullopt;
}

Value MemoryAccess::offsetBy(const Value &p, uint64_t k) {
  if (p.concrete())
    return Value((p.bits + k) & widthMask(64));
  return Value(ctx_.add(ctx_.constant(k, 64), p.sym));
}

std::optional<uint64_t> MemoryAccess::heapObjectSize(const ExecutionState &s, uint64_t a) const {
  const AddressSpace::Entry *e = s.memory.find(a);
  if (!e || e->object->kind != ObjectKind::Heap)
    return std::nullopt;
  const MemoryObject &mo = *e->object;
  if (mo.relocation && model_.isMoved(mo))
    return model_.objectSizeAt(mo, a);
  if (mo.address != a)
    return std::nullopt;
  return mo.size;
}

void MemoryAccess::resolveHeapStart(ExecutionState &s, const Value &p, HeapStartUse use) {
  if (std::optional<uint64_t> known = knownAddress(s, p))
    return use(s, *known);
  // Where heap objects start, as expressions: a base for a whole object, the address for one
  // inside an object the model moved.
  constexpr size_t kMaxStarts = 256;
  std::vector<std::pair<uint64_t, ExprRef>> starts;
  for (const auto &[address, entry] : s.memory.objects()) {
    const MemoryObject &mo = *entry.object;
    if (mo.kind != ObjectKind::Heap)
      continue;
    if (mo.relocation && model_.isMoved(mo)) {
      for (uint64_t a : model_.objectStartsIn(mo))
        starts.emplace_back(a, ctx_.constant(a, 64));
    } else {
      starts.emplace_back(mo.address, baseOf(ctx_, mo));
    }
  }
  if (starts.size() > kMaxStarts) { // too many to say in one formula: one of its values
    if (std::optional<Value> fixed = fixPointer(s, p))
      use(s, uint64_t(fixed->bits));
    return;
  }
  const ExprRef ptr = p.sym;
  auto [null, nonNull] = engine_.branch(s, ctx_.eq(ptr, ctx_.constant(0, 64)));
  if (null)
    use(*null, 0);
  if (!nonNull)
    return;
  ExprRef anyStart = ctx_.falseExpr();
  for (const auto &[address, start] : starts)
    anyStart = ctx_.lor(anyStart, ctx_.eq(ptr, start));
  auto [valid, invalid] = engine_.branch(*nonNull, anyStart);
  if (invalid) {
    ExprRef freedBefore = ctx_.falseExpr();
    for (const auto &[base, size] : invalid->freed)
      freedBefore = ctx_.lor(freedBefore, ctx_.eq(ptr, ctx_.constant(base, 64)));
    auto [twice, wild] = engine_.branch(*invalid, freedBefore);
    if (twice)
      engine_.error(*twice, "free", "double-free", "memory error: double free");
    if (wild)
      engine_.error(*wild, "free", "invalid-free", "memory error: invalid free");
  }
  ExecutionState *rest = valid;
  for (unsigned round = 0; rest && round < kMaxTargets; ++round) {
    std::optional<u128> sample = engine_.questions.concretize(*rest, p, 64, false);
    if (!sample)
      return;
    auto start = std::find_if(starts.begin(), starts.end(), [&](const auto &st) { return st.first == uint64_t(*sample); });
    if (start == starts.end()) // cannot happen: the state's pointer is one of the starts
      return engine_.terminate(*rest, Termination::partialPath("a freed pointer is no object's start"));
    auto [hit, miss] = engine_.branch(*rest, ctx_.eq(ptr, start->second));
    if (hit)
      use(*hit, start->first);
    rest = miss;
  }
  if (rest)
    engine_.terminate(*rest, Termination::partialPath("too many objects for one pointer"));
}

void MemoryAccess::free(ExecutionState &s, const Value &p) {
  resolveHeapStart(s, p, [&](ExecutionState &st, uint64_t a) { freeAt(st, a); });
}

void MemoryAccess::freeAt(ExecutionState &s, uint64_t address) {
  if (!address)
    return;
  if (const AddressSpace::Entry *in = s.memory.find(address); in && in->object->relocation && model_.isMoved(*in->object))
    return model_.free(s, *in, address);
  const AddressSpace::Entry *e = s.memory.findBase(address);
  if (!e) {
    for (const auto &[base, size] : s.freed)
      if (base == address)
        return engine_.error(s, "free", "double-free", "memory error: double free");
    return engine_.error(s, "free", "invalid-free", "memory error: invalid free");
  }
  if (e->object->kind != ObjectKind::Heap)
    return engine_.error(s, "free", "invalid-free", "free of " + e->object->name);
  s.freed.emplace_back(e->object->address, e->object->size);
  s.memory.unbind(e->object->address);
}

} // namespace cairn::engine
