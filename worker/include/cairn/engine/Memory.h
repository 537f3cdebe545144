// Memory of one execution state: objects, their contents, and the address space that maps
// addresses to them. Both the address space and the contents are copy-on-write between forked
// states: a fork costs what the states change afterwards, not the number of objects.
//
// An object's base and size are concrete in the standard model; the relocatable model gives
// objects symbolic bases (MemoryModel.h), the symbolic-size model symbolic sizes.
#pragma once

#include "cairn/engine/PersistentMap.h"
#include "cairn/engine/SymbolicBytes.h"
#include "cairn/engine/Value.h"

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace cairn::engine {

enum class ObjectKind : uint8_t { Global, Stack, Heap, Argument };

// The largest alignment an object may ask for (a power of two): as large as the largest
// allocation, so an aligned object costs at most twice its address space.
constexpr uint64_t kMaxObjectAlignment = uint64_t(1) << 31;

// Relocatable model: what moving an object made of it (memory/Relocation.h).
struct RelocationInfo;

// An object's place in memory. `address` and `size` are the concrete layout the address space
// is keyed by; `base` and `sizeExpr`, when set, are what expressions and checks use instead:
// a symbolic base (relocatable model, bound to `address` by an address constraint) or a
// symbolic size bounded by `size` (symbolic-size model, where `size` is the capacity).
struct MemoryObject {
  uint64_t id = 0;
  uint64_t address = 0;
  uint64_t size = 0;
  ExprRef base;     // null: the constant `address`
  ExprRef sizeExpr; // null: the constant `size`
  ObjectKind kind = ObjectKind::Heap;
  bool readOnly = false;
  std::string name;     // the variable or allocation site, for messages
  uint32_t allocLoc = 0; // source location of the allocation
  uint32_t alignment = 16; // `address` is a multiple of it (a power of two): a moved object keeps it
  // Relocatable model: a segment's members, a chunk's origin, what resolution remembers of the
  // object; null for every object the model never touched (and in the standard model).
  std::shared_ptr<const RelocationInfo> relocation;
};

// The bytes of one object. Concrete bytes are kept as bytes; symbolic ones as expressions.
// After a write at a symbolic offset, the whole object is read through one array expression.
class ObjectState {
public:
  explicit ObjectState(uint64_t size, const uint8_t *initial = nullptr);

  uint64_t size() const { return bytes_.size(); }
  // Reads/writes `bytes` little-endian bytes at a concrete offset (within bounds).
  Value read(ExprContext &ctx, uint64_t offset, unsigned bytes) const;
  void write(ExprContext &ctx, uint64_t offset, const Value &v, unsigned bytes);
  // The concrete fast paths: an access of 1, 2, 4 or 8 bytes to an object with no symbolic
  // byte, done with one fixed-size copy; false, having done nothing, for any other access.
  bool readPlain(uint64_t offset, unsigned n, uint64_t &out) const {
    if (throughArray_ || !exprs_.empty())
      return false;
    noteAccess(n);
    out = 0;
    return copyPlain(&out, bytes_.data() + offset, n);
  }
  bool writePlain(uint64_t offset, unsigned n, uint64_t v) {
    if (throughArray_ || array_ || !exprs_.empty())
      return false;
    noteAccess(n);
    return copyPlain(bytes_.data() + offset, &v, n);
  }
  // The element width of the object as its accesses show it: the largest power of two no
  // wider than the narrowest access so far (a byte access or a memcpy makes it 1). The typed
  // array solver prunes read axioms by it (cairn/solver/ArrayTypes.h).
  unsigned elementBytes() const { return narrowest_ >= 8 ? 8 : narrowest_ >= 4 ? 4 : narrowest_ >= 2 ? 2 : 1; }
  // The constant or input array under the stores of the array expression of the contents,
  // when one was built (a symbolic-offset access builds it); null otherwise.
  const Expr *arrayRoot() const {
    const Expr *a = array_.get();
    while (a && a->kind() == Kind::Store)
      a = a->kid(0);
    return a;
  }
  // At a symbolic offset (the caller has checked the bounds).
  Value readSymbolic(ExprContext &ctx, const ExprRef &offset, unsigned bytes) const;
  void writeSymbolic(ExprContext &ctx, const ExprRef &offset, const Value &v, unsigned bytes);
  // Makes the object's bytes the elements of a fresh symbolic array.
  void makeSymbolic(ExprContext &ctx, const ExprRef &array);

  bool isConcreteByte(uint64_t i) const { return !throughArray_ && !exprs_.at(i); }
  // How many bytes from `offset` on, at most `max`, are concrete (none once a symbolic-offset
  // write made the object one array): the string functions' fast path reads them directly.
  uint64_t concreteRun(uint64_t offset, uint64_t max) const {
    return throughArray_ ? 0 : exprs_.concreteRun(offset, max);
  }
  const uint8_t *concreteBytes() const { return bytes_.data(); }
  // Stores `n` concrete bytes at `offset` (`from` may point into this object's own bytes).
  void writeConcrete(ExprContext &ctx, uint64_t offset, const uint8_t *from, uint64_t n);
  void fillConcrete(ExprContext &ctx, uint64_t offset, uint8_t byte, uint64_t n);
  uint8_t concreteByte(uint64_t i) const { return bytes_[i]; }
  // Byte `i` as an expression (a constant when it is concrete).
  ExprRef byteExpr(ExprContext &ctx, uint64_t i) const;

private:
  // Little-endian, as the host is: the low `n` bytes of a uint64_t are the value's.
  static bool copyPlain(void *to, const void *from, unsigned n) {
    switch (n) {
    case 1: std::memcpy(to, from, 1); return true;
    case 2: std::memcpy(to, from, 2); return true;
    case 4: std::memcpy(to, from, 4); return true;
    case 8: std::memcpy(to, from, 8); return true;
    default: return false;
    }
  }
  const Expr *wholeValueAt(uint64_t offset, unsigned n) const;
  ExprRef arrayExpr(ExprContext &ctx) const;
  void setByte(ExprContext &ctx, uint64_t i, const ExprRef &e);

  std::vector<uint8_t> bytes_;
  // A symbolic value written whole is kept whole: each of its bytes holds the value and its
  // byte's index (its piece), and the 8-bit extract is built only when that byte is read
  // alone. A pointer stored and loaded again (the relocatable model's base + offset) then costs
  // no expression at all.
  SymbolicBytes exprs_;
  mutable ExprRef array_;      // the contents as an array, built on demand
  // Writes since array_ was built, each a store on top of it. While bytes_/exprs_ hold the
  // contents, array_ is dropped once they outnumber the bytes: built again, it is one store
  // per symbolic byte, where the chain would grow with every write (a loop updating a small
  // array read at symbolic indices, as melded branches make, gave 190-store chains for 12 bytes).
  mutable uint64_t storesOnArray_ = 0;
  // The narrowest access so far, in bytes: only ever lowered, so a read through a copy shared
  // with another path can only make that path's pruning more cautious.
  mutable uint8_t narrowest_ = 8;
  void noteAccess(unsigned n) const {
    if (n < narrowest_)
      narrowest_ = uint8_t(n);
  }
  bool throughArray_ = false;  // a symbolic-offset write happened: bytes_/exprs_ are stale
};

class AddressSpace {
public:
  struct Entry {
    std::shared_ptr<const MemoryObject> object;
    std::shared_ptr<const ObjectState> state;
  };

  AddressSpace() = default;
  // A copy shares every entry with its source, so neither may write through an entry it made
  // its own before (`Remembered::owned`).
  AddressSpace(const AddressSpace &o);
  AddressSpace &operator=(const AddressSpace &o);
  AddressSpace(AddressSpace &&o) noexcept;
  AddressSpace &operator=(AddressSpace &&o) noexcept;

  void bind(std::shared_ptr<const MemoryObject> mo, std::shared_ptr<const ObjectState> os);
  void unbind(uint64_t address);
  // The object whose [address, address+size) holds `address`, if any.
  const Entry *find(uint64_t address) const {
    for (const Remembered &r : remembered_)
      if (r.entry && address - r.start < r.size)
        return r.entry;
    return findInMap(address);
  }
  const Entry *findBase(uint64_t address) const;
  // An object whose extent meets [address, address + size) (size > 0, no wrap-around), if any.
  const Entry *overlapping(uint64_t address, uint64_t size) const;
  // A writable copy of the object's contents (copied when another state shares it).
  ObjectState &writable(uint64_t base) {
    for (const Remembered &r : remembered_)
      if (r.owned && r.start == base)
        return ownState(*r.entry);
    return makeWritable(base);
  }
  // By address: iterates as (address, Entry) pairs.
  using Objects = PersistentMap<Entry>;
  const Objects &objects() const { return objects_; }
  // The sizes of the bound objects together: the memory this state's program holds (for a
  // symbolic-size object, its capacity).
  uint64_t bytes() const { return bytes_; }

private:
  // The entries found last, with their extents: consecutive accesses nearly always meet a few
  // objects (a frame's locals, one array), and the map's walk was a third of a concrete load's
  // cost. An entry writable() made this space's own (its path in the map unshared) is marked
  // `owned`: written again without a walk. Any change to the map forgets them all, except that
  // making another path unshared keeps the owned ones (it copies only shared nodes, never an
  // owned one or its ancestors); a copy of the space shares every node, so neither side may
  // write through an entry it owned before.
  struct Remembered {
    Entry *entry = nullptr;
    uint64_t start = 0, size = 0;
    bool owned = false;
  };
  static constexpr unsigned kRemembered = 4;
  const Entry *findInMap(uint64_t address) const;
  ObjectState &makeWritable(uint64_t base);
  // The entry's contents, copied first when another state's entry shares them (the entry is
  // this state's alone, so a count above one means exactly that).
  static ObjectState &ownState(Entry &e) {
    if (e.state.use_count() > 1)
      e.state = std::make_shared<ObjectState>(*e.state);
    return const_cast<ObjectState &>(*e.state);
  }
  void remember(Entry *e, bool owned) const;
  void forget() const { remembered_ = {}; }
  void disown() const {
    for (Remembered &r : remembered_)
      r.owned = false;
  }

  Objects objects_;
  uint64_t bytes_ = 0;
  mutable std::array<Remembered, kRemembered> remembered_{};
  mutable unsigned nextSlot_ = 0; // the slot a new entry replaces, round robin
};

} // namespace cairn::engine
