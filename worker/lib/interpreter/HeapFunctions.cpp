// malloc, calloc, realloc and free (and the aligned allocation memalign & co. build on):
// allocation under the size model, checked frees.
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"
#include "memory/Extents.h"

namespace cairn::engine {

namespace {

// A heap object of `size` at a multiple of `alignment`, its pointer (or NULL when the size
// model refuses it) the call's result on each state the allocation leaves.
void allocateHeap(const SpecialCall &c, const Value &size, uint64_t alignment) {
  Engine &e = c.engine;
  e.sizes.allocate(
      c.state, size, ObjectKind::Heap, "heap object", c.instr.loc,
      [&](ExecutionState &st, uint64_t a) {
        e.interpreter.returnValue(st, c.instr, a ? e.memory.pointerTo(st, a) : Value(u128(0)));
      },
      alignment);
}

void allocate(const SpecialCall &c) {
  Value size = c.kind() == Special::Calloc ? c.engine.sizes.product(c.sizeArg(0), c.sizeArg(1)) : c.sizeArg(0);
  allocateHeap(c, size, kMinAlignment);
}

// cairn_aligned_malloc(alignment, size): a heap object at a multiple of `alignment`, which the
// runtime's memalign & co. have made a power of two; one the engine cannot honour (over
// kMaxObjectAlignment) gets NULL, as an allocation too large does.
void allocateAligned(const SpecialCall &c) {
  Engine &e = c.engine;
  std::optional<u128> alignment = e.questions.concretize(c.state, c.arg(0), c.argWidth(0), true);
  if (!alignment)
    return;
  if (*alignment == 0 || (*alignment & (*alignment - 1)) || *alignment > kMaxObjectAlignment)
    return c.result(Value(u128(0)));
  allocateHeap(c, c.sizeArg(1), uint64_t(*alignment));
}

// realloc's second half: the old object's bytes that fit go to the new one, which replaces it.
// Symbolic-size objects copy up to the smaller capacity: bytes past either size are never read.
void moveContents(Engine &e, ExecutionState &s, const Instr &in, uint64_t old, uint64_t fresh) {
  if (!fresh)
    return e.interpreter.returnValue(s, in, Value(u128(0)));
  if (old) {
    std::optional<uint64_t> size = e.memory.heapObjectSize(s, old);
    if (!size)
      return e.error(s, "free", "invalid-free", "realloc of a pointer that is not a heap object");
    uint64_t keep = std::min<uint64_t>(*size, s.memory.findBase(fresh)->object->size);
    for (uint64_t i = 0; i < keep; ++i) {
      const AddressSpace::Entry *entry = s.memory.find(old + i);
      Value b = entry->state->read(e.ctx, old + i - entry->object->address, 1);
      s.memory.writable(fresh).write(e.ctx, i, b, 1);
    }
    e.memory.free(s, Value(u128(old)));
  }
  e.interpreter.returnValue(s, in, e.memory.pointerTo(s, fresh));
}

// realloc(p, n): for n == 0, p is freed and the result is NULL (as glibc does); otherwise p is
// resolved to each heap object it may start (NULL: a plain malloc) and moved to a new one.
void reallocate(const SpecialCall &c) {
  Engine &e = c.engine;
  const Value &old = c.arg(0), size = c.sizeArg(1);
  ExecutionState *resize = &c.state;
  if (!size.concrete() || size.bits == 0) {
    ExprRef isZero = size.concrete() ? e.ctx.trueExpr() : e.ctx.eq(size.sym, e.ctx.constant(0, 64));
    auto [zero, nonZero] = e.branch(c.state, isZero);
    if (zero)
      e.memory.resolveHeapStart(*zero, old, [&](ExecutionState &st, uint64_t a) {
        e.memory.freeAt(st, a);
        if (!e.isTerminated(&st))
          e.interpreter.returnValue(st, c.instr, Value(u128(0)));
      });
    resize = nonZero;
  }
  if (!resize)
    return;
  e.memory.resolveHeapStart(*resize, old, [&](ExecutionState &st, uint64_t a) {
    e.sizes.allocate(st, size, ObjectKind::Heap, "heap object", c.instr.loc,
                     [&](ExecutionState &fresh, uint64_t address) { moveContents(e, fresh, c.instr, a, address); });
  });
}

} // namespace

void addHeapHandlers(SpecialHandlers &table) {
  table[size_t(Special::Malloc)] = &allocate;
  table[size_t(Special::Calloc)] = &allocate;
  table[size_t(Special::Realloc)] = &reallocate;
  table[size_t(Special::AlignedMalloc)] = &allocateAligned;
  table[size_t(Special::Free)] = [](const SpecialCall &c) { c.engine.memory.free(c.state, c.arg(0)); };
}

} // namespace cairn::engine
