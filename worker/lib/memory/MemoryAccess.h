// Memory as the program sees it: allocation, and every access checked (bounds, null, use after
// free, read-only), a symbolic pointer resolved to each object it may point into, one state
// per target. What an object's base is and how a pointer's address is known is the memory
// model's part (MemoryModel.h).
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "executor/FunctionRef.h"
#include "memory/MemoryModel.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cairn::engine {

class Engine;

class MemoryAccess {
public:
  // What an access does once resolved: on the state, with the object's entry and the offset.
  using Access = FunctionRef<void(ExecutionState &, const AddressSpace::Entry &, const Value &)>;

  MemoryAccess(Engine &engine, MemoryModel &model);

  // A new object; fresh memory reads as zero, like KLEE's default. With `sizeExpr`, `size` is
  // the capacity. Its address is a multiple of `alignment` (a power of two up to
  // kMaxAlignment; at least 16). Returns its address.
  uint64_t allocate(ExecutionState &s, uint64_t size, ObjectKind kind, std::string name, uint32_t loc,
                    ExprRef sizeExpr = {}, uint64_t alignment = 16);
  // klee_define_fixed_object: an object of `size` bytes at `address`, where the program says,
  // for memory-mapped devices and the like. Why it cannot be placed there (it meets another
  // object, the null page, the functions' addresses, a range the model keeps), or empty.
  std::string defineFixed(ExecutionState &s, uint64_t address, uint64_t size, uint32_t loc);
  // The size of the object `address` lies in, as the program sees it (klee_get_obj_size): the
  // whole object's for a chunk of a split one, the member's for one moved into a segment, the
  // size expression for a symbolic-size object.
  Value objectSize(const AddressSpace::Entry &e, uint64_t address);
  // The pointer the program gets for the object at `address`: its base, symbolic or not.
  Value pointerTo(const ExecutionState &s, uint64_t address) const;
  // The address a pointer has on this state when the layout alone determines it.
  std::optional<uint64_t> knownAddress(const ExecutionState &s, const Value &p) {
    if (p.concrete())
      return uint64_t(p.bits);
    std::optional<u128> v = model_.layoutValue(s, p.sym);
    return v ? std::optional<uint64_t>(uint64_t(*v)) : std::nullopt;
  }

  // Resolves an access of `bytes` at `address` to one object per feasible target, forking when
  // the address may point into several objects, and calls `access(state, entry, offset)` for
  // each. Reports out-of-bounds, null and use-after-free errors on the states that go astray.
  // An address the layout determines (a concrete one, or a base plus a constant) takes this
  // concrete path: no solver question, no callback through a pointer.
  template <class F> void resolve(ExecutionState &s, const Value &address, unsigned bytes, bool write, F &&access) {
    std::optional<uint64_t> known = knownAddress(s, address);
    if (!known)
      return resolveSymbolic(s, address, bytes, write, access);
    const uint64_t a = *known;
    const AddressSpace::Entry *e = s.memory.find(a);
    if (e && e->object->sizeExpr)
      return resolveSymbolic(s, address, bytes, write, access); // checks need the size expression
    if (e && e->object->relocation && joinAcrossParts(s, *e, a, bytes))
      return resolve(s, address, bytes, write, access);
    if (!e || a - e->object->address + bytes > e->object->size)
      return memoryError(s, a, bytes, e);
    if (e->object->relocation && !model_.checkAccess(s, *e, a, bytes))
      return;
    if (write && e->object->readOnly)
      return readOnlyError(s, *e->object);
    access(s, *e, Value(u128(a - e->object->address)));
  }
  void resolveSymbolic(ExecutionState &s, const Value &address, unsigned bytes, bool write, Access access);
  // The concrete fast path of a load or a store: at a concrete address, within an ordinary
  // object (a constant size, not relocated) whose bytes are all concrete, of 1, 2, 4 or 8
  // bytes. Done at once, as resolve() would; false, having done nothing, for resolve() to
  // decide (an error among them).
  bool loadPlain(ExecutionState &s, uint64_t a, unsigned bytes, uint64_t &out) const {
    const AddressSpace::Entry *e = s.memory.find(a);
    return e && isPlainAccess(*e->object, a, bytes) && e->state->readPlain(a - e->object->address, bytes, out);
  }
  bool storePlain(ExecutionState &s, uint64_t a, unsigned bytes, uint64_t v) {
    const AddressSpace::Entry *e = s.memory.find(a);
    return e && isPlainAccess(*e->object, a, bytes) && !e->object->readOnly &&
           s.memory.writable(e->object->address).writePlain(a - e->object->address, bytes, v);
  }

  Value readAt(ExecutionState &s, const AddressSpace::Entry &e, const Value &offset, unsigned bytes);
  void writeAt(ExecutionState &s, const AddressSpace::Entry &e, const Value &offset, const Value &v, unsigned bytes);
  // After an access at a symbolic offset: the element width of the object's array goes with
  // the path's queries.
  static void noteArrayType(ExecutionState &s, const ObjectState &os);
  // Reads a NUL-terminated string with concrete bytes (for messages and printf).
  std::string readString(ExecutionState &s, const Value &address, size_t limit = 4096);

  // The bulk operations resolve their pointers like an access, one state per target object,
  // and fix them to one value there, so their byte accesses do not fork. A symbolic length is
  // fixed to one value too, except under the symbolic-size model, which checks and does the
  // operation for every length the path allows (SymbolicLength.cpp).
  void copy(ExecutionState &s, const Value &dst, const Value &src, const Value &count, unsigned countWidth);
  void set(ExecutionState &s, const Value &dst, const Value &value, const Value &count, unsigned countWidth);
  // One byte at `address`, checked like any access; false when the state ended.
  bool loadByte(ExecutionState &s, const Value &address, Value &out);
  bool storeByte(ExecutionState &s, const Value &address, const Value &byte);
  // `p` moved by `k` bytes.
  Value offsetBy(const Value &p, uint64_t k);
  // A pointer resolved like an access of `bytes` (one state per object it may point into, the
  // states where it points into none ended with the error), then fixed to one value within
  // that object: for operations on a range that must not fork byte by byte. No bytes: fixed
  // at once.
  using PointerUse = FunctionRef<void(ExecutionState &, const Value &)>;
  void forEachTarget(ExecutionState &s, const Value &p, bool write, u128 bytes, PointerUse use);
  // A pointer fixed to one of its values (constrained to it).
  std::optional<Value> fixPointer(ExecutionState &s, const Value &p);

  // The live heap objects `p` may be the start of, one state each with `p` fixed to it, for free
  // and realloc: `use(state, address)`, address 0 for a null pointer. A state where `p` is
  // neither null nor a live heap object's start ends with a double or an invalid free.
  using HeapStartUse = FunctionRef<void(ExecutionState &, uint64_t)>;
  void resolveHeapStart(ExecutionState &s, const Value &p, HeapStartUse use);
  void free(ExecutionState &s, const Value &p);
  // free() of a concrete address (0: nothing).
  void freeAt(ExecutionState &s, uint64_t address);
  // The size of the live heap object starting at `a`: a whole object, a member of a segment or
  // an object split into chunks.
  std::optional<uint64_t> heapObjectSize(const ExecutionState &s, uint64_t a) const;

private:
  static bool isPlainAccess(const MemoryObject &mo, uint64_t a, unsigned bytes) {
    return !mo.sizeExpr && !mo.relocation && a - mo.address < mo.size && mo.size - (a - mo.address) >= bytes;
  }
  void resolveTargets(ExecutionState &s, const Value &address, unsigned bytes, bool write, Access access,
                      bool merge);
  void overflowAccess(ExecutionState &s, const MemoryObject &mo, const ExprRef &p, uint64_t sample,
                      const Value &address, unsigned bytes, bool write, Access access);
  bool joinAcrossParts(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a, unsigned bytes);
  void memoryError(ExecutionState &s, uint64_t address, unsigned bytes, const AddressSpace::Entry *near);
  void readOnlyError(ExecutionState &s, const MemoryObject &mo);
  void countSymbolicAccess(const MemoryObject &mo);

  void copyConcretized(ExecutionState &s, const Value &dst, const Value &src, const Value &count, unsigned countWidth);
  void setConcretized(ExecutionState &s, const Value &dst, const Value &byte, const Value &count, unsigned countWidth);
  // SymbolicLength.cpp: the bulk operations with a symbolic length, under the symbolic-size model.
  bool keepsLengthSymbolic(const Value &count) const;
  bool isMovedTarget(const ExecutionState &s, uint64_t address) const;
  void copySymbolicLength(ExecutionState &s, const Value &dst, const Value &src, const Value &count,
                          unsigned countWidth);
  void setSymbolicLength(ExecutionState &s, const Value &dst, const Value &byte, const Value &count,
                         unsigned countWidth);
  ExecutionState *checkRange(ExecutionState &s, uint64_t address, const ExprRef &len, bool write);
  std::optional<std::pair<uint64_t, uint64_t>> lengthRange(ExecutionState &s, const ExprRef &len, uint64_t most);
  void writeUpToLength(ExecutionState &s, uint64_t object, uint64_t offset, const std::vector<ExprRef> &bytes,
                       const ExprRef &len, uint64_t least);
  // Where an object of `size` bytes may go at or after `address`, past the fixed objects.
  uint64_t pastFixedObjects(const ExecutionState &s, uint64_t address, uint64_t size) const;

  Engine &engine_;
  MemoryModel &model_;
  ExprContext &ctx_;
  unsigned resolutionDepth_ = 0;
};

} // namespace cairn::engine
