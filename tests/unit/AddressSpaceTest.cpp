// The address space's object table is shared between forked states: random binds, unbinds and
// writes on a tree of forks must each behave as on a private std::map, no state may see another's
// changes, and a fork must share what neither side changed.
#include "cairn/engine/Memory.h"
#include "cairn/engine/PersistentMap.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace cairn;
using namespace cairn::engine;

namespace {

// Each map is checked against its reference: same entries, in order, found by key and by floor.
void expectSame(const PersistentMap<int> &m, const std::map<uint64_t, int> &ref) {
  ASSERT_EQ(m.size(), ref.size());
  auto r = ref.begin();
  for (const auto &[key, value] : m) {
    ASSERT_NE(r, ref.end());
    EXPECT_EQ(key, r->first);
    EXPECT_EQ(value, r->second);
    ++r;
  }
  EXPECT_EQ(r, ref.end());
  for (uint64_t probe = 0; probe < 260; probe += 3) {
    const auto *found = m.find(probe);
    auto it = ref.find(probe);
    ASSERT_EQ(found != nullptr, it != ref.end()) << probe;
    if (found) {
      EXPECT_EQ(found->second, it->second);
    }
    const auto *below = m.floor(probe);
    auto above = ref.upper_bound(probe);
    ASSERT_EQ(below != nullptr, above != ref.begin()) << probe;
    if (below) {
      EXPECT_EQ(below->first, std::prev(above)->first);
    }
  }
}

TEST(PersistentMapTest, ForksBehaveAsIndependentMaps) {
  std::mt19937_64 rng(7);
  std::vector<PersistentMap<int>> maps(1);
  std::vector<std::map<uint64_t, int>> refs(1);
  for (int step = 0; step < 4000; ++step) {
    size_t i = rng() % maps.size();
    uint64_t key = rng() % 256;
    switch (rng() % 8) {
    case 0: // fork
      if (maps.size() < 24) {
        maps.push_back(maps[i]);
        refs.push_back(refs[i]);
      }
      break;
    case 1:
    case 2: EXPECT_EQ(maps[i].erase(key), refs[i].erase(key) == 1); break;
    case 3: {
      int *v = maps[i].mutate(key);
      ASSERT_EQ(v != nullptr, refs[i].count(key) == 1);
      if (v)
        *v = refs[i][key] = int(rng() % 1000);
      break;
    }
    default: {
      int v = int(rng() % 1000);
      maps[i].insertOrAssign(key, v);
      refs[i][key] = v;
    }
    }
    if (step % 97 == 0)
      for (size_t k = 0; k < maps.size(); ++k)
        expectSame(maps[k], refs[k]);
  }
  for (size_t k = 0; k < maps.size(); ++k)
    expectSame(maps[k], refs[k]);
}

TEST(PersistentMapTest, EmptyMapAndSingleEntry) {
  PersistentMap<int> m;
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.begin(), m.end());
  EXPECT_EQ(m.floor(5), nullptr);
  EXPECT_EQ(m.mutate(5), nullptr);
  EXPECT_FALSE(m.erase(5));
  m.insertOrAssign(5, 1);
  EXPECT_EQ(m.floor(4), nullptr);
  EXPECT_EQ(m.floor(~0ull)->second, 1);
  PersistentMap<int> copy = m;
  EXPECT_TRUE(m.erase(5));
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(copy.find(5)->second, 1);
}

std::shared_ptr<const MemoryObject> object(uint64_t address, uint64_t size) {
  auto mo = std::make_shared<MemoryObject>();
  mo->address = address;
  mo->size = size;
  return mo;
}

TEST(AddressSpaceTest, ForkSharesEverythingButWhatChanged) {
  ExprContext ctx;
  AddressSpace parent;
  constexpr uint64_t kObjects = 10000;
  for (uint64_t i = 0; i < kObjects; ++i)
    parent.bind(object(0x1000 + 32 * i, 16), std::make_shared<ObjectState>(16));
  AddressSpace child = parent;
  const uint64_t written = 0x1000 + 32 * 1234, added = 0x1000 + 32 * kObjects, removed = 0x1000;
  child.writable(written).write(ctx, 0, Value(u128(0xab)), 1);
  child.bind(object(added, 8), std::make_shared<ObjectState>(8));
  child.unbind(removed);

  EXPECT_EQ(parent.objects().size(), kObjects);
  EXPECT_EQ(child.objects().size(), kObjects);
  EXPECT_EQ(parent.findBase(written)->state->read(ctx, 0, 1).bits, 0u);
  EXPECT_EQ(child.findBase(written)->state->read(ctx, 0, 1).bits, 0xabu);
  EXPECT_EQ(parent.find(added + 1), nullptr);
  EXPECT_NE(child.find(added + 1), nullptr);
  EXPECT_NE(parent.find(removed + 15), nullptr);
  EXPECT_EQ(child.find(removed + 15), nullptr);
  EXPECT_EQ(child.find(removed + 16), nullptr); // between objects
  // Untouched objects' contents are one copy for both states.
  size_t shared = 0;
  for (const auto &[address, entry] : child.objects())
    if (const AddressSpace::Entry *p = parent.findBase(address); p && p->state == entry.state)
      ++shared;
  EXPECT_EQ(shared, kObjects - 2);
  // A second write to the same object in the child copies nothing more.
  const ObjectState *first = child.findBase(written)->state.get();
  EXPECT_EQ(&child.writable(written), first);
  EXPECT_THROW(child.writable(removed), std::out_of_range);
}

TEST(AddressSpaceTest, WriteAfterForkLeavesTheOtherSideAlone) {
  ExprContext ctx;
  AddressSpace a;
  a.bind(object(0x100, 4), std::make_shared<ObjectState>(4));
  AddressSpace b = a;
  a.writable(0x100).write(ctx, 0, Value(u128(1)), 1);
  b.writable(0x100).write(ctx, 0, Value(u128(2)), 1);
  AddressSpace c = b;
  c.writable(0x100).write(ctx, 1, Value(u128(3)), 1);
  EXPECT_EQ(a.findBase(0x100)->state->read(ctx, 0, 2).bits, 0x0001u);
  EXPECT_EQ(b.findBase(0x100)->state->read(ctx, 0, 2).bits, 0x0002u);
  EXPECT_EQ(c.findBase(0x100)->state->read(ctx, 0, 2).bits, 0x0302u);
}

// The bytes of a state's objects (what --max-memory bounds per path): a rebound address counts
// its new object only, an unbound one nothing, and a fork keeps its own count.
TEST(AddressSpaceTest, CountsTheBytesOfItsObjects) {
  AddressSpace a;
  a.bind(object(0x100, 40), std::make_shared<ObjectState>(40));
  a.bind(object(0x200, 2), std::make_shared<ObjectState>(2));
  EXPECT_EQ(a.bytes(), 42u);
  a.bind(object(0x100, 8), std::make_shared<ObjectState>(8)); // moved or resized in place
  EXPECT_EQ(a.bytes(), 10u);
  AddressSpace b = a;
  b.unbind(0x200);
  b.unbind(0x300); // nothing there
  EXPECT_EQ(b.bytes(), 8u);
  EXPECT_EQ(a.bytes(), 10u);
}

// A pointer stored whole into an object (the relocatable model's base + offset) and concrete
// fields written around and over it: each read gives back what was written last, concrete bytes
// as bytes with no expression, the pointer whole, and a concrete write over half of it leaves
// the other half symbolic.
TEST(ObjectStateTest, ConcreteWritesBesideAndOverAStoredPointer) {
  ExprContext ctx;
  ExprRef base = ctx.symbol(ctx.declareSymbol("base", 64, SymbolClass::Address, 16));
  ExprRef pointer = ctx.add(ctx.constant(8, 64), base);
  ObjectState node(24); // { char *text; int length; ...; struct node *next; }
  node.write(ctx, 0, Value(pointer), 8);
  node.write(ctx, 8, Value(u128(5)), 4);
  node.write(ctx, 16, Value(u128(0x1122334455667788)), 8);

  EXPECT_EQ(node.read(ctx, 0, 8).sym, pointer);
  Value length = node.read(ctx, 8, 4);
  EXPECT_TRUE(length.concrete());
  EXPECT_EQ(length.bits, 5u);
  EXPECT_EQ(node.read(ctx, 16, 8).bits, 0x1122334455667788u);
  for (uint64_t i = 8; i < 24; ++i)
    EXPECT_TRUE(node.isConcreteByte(i)) << i;

  // Half the pointer overwritten: concrete low bytes, the pointer's high bytes still symbolic.
  node.write(ctx, 0, Value(u128(0xaabbccdd)), 4);
  for (uint64_t i = 0; i < 4; ++i)
    EXPECT_TRUE(node.isConcreteByte(i)) << i;
  for (uint64_t i = 4; i < 8; ++i)
    EXPECT_FALSE(node.isConcreteByte(i)) << i;
  ExprRef mixed = node.read(ctx, 0, 8).sym;
  ASSERT_TRUE(mixed);
  EXPECT_EQ(ctx.extract(mixed, 0, 32), ctx.constant(0xaabbccdd, 32));
  EXPECT_EQ(ctx.extract(mixed, 32, 32), ctx.extract(pointer, 32, 32));

  // All of it overwritten: concrete again.
  node.write(ctx, 0, Value(u128(7)), 8);
  Value whole = node.read(ctx, 0, 8);
  EXPECT_TRUE(whole.concrete());
  EXPECT_EQ(whole.bits, 7u);
}

} // namespace

// klee_define_fixed_object asks which object a range meets: the objects' extents, a zero-sized
// object owning its first byte, the ranges between them meeting none.
TEST(AddressSpaceTest, OverlappingFindsTheObjectARangeMeets) {
  AddressSpace space;
  space.bind(object(0x1000, 16), std::make_shared<ObjectState>(16));
  space.bind(object(0x1040, 0), std::make_shared<ObjectState>(0));
  space.bind(object(0x1080, 32), std::make_shared<ObjectState>(32));
  EXPECT_EQ(space.overlapping(0x0f00, 0x100), nullptr);     // ends where the first begins
  EXPECT_EQ(space.overlapping(0x0f00, 0x101)->object->address, 0x1000u);
  EXPECT_EQ(space.overlapping(0x100f, 1)->object->address, 0x1000u);
  EXPECT_EQ(space.overlapping(0x1010, 0x30), nullptr);      // between the first and the empty one
  EXPECT_EQ(space.overlapping(0x1010, 0x31)->object->address, 0x1040u);
  EXPECT_EQ(space.overlapping(0x1041, 0x3f), nullptr);
  EXPECT_EQ(space.overlapping(0x1000, 0x1000)->object->address, 0x1080u); // the last one it meets
  EXPECT_EQ(space.overlapping(0x10a0, 0x100), nullptr);
}

// find() remembers the last object it found and writable() the last entry it made its own.
// Random forks, moves, writes, reads at every offset, unbinds and rebinds on a set of address
// spaces: no remembered entry may show another space's bytes or an object that is gone.
TEST(AddressSpaceTest, RememberedEntriesNeverCrossAForkOrOutliveAChange) {
  ExprContext ctx;
  std::mt19937 rng(20261127);
  auto pick = [&](size_t n) { return size_t(std::uniform_int_distribution<size_t>(0, n - 1)(rng)); };
  struct Side {
    AddressSpace space;
    std::map<uint64_t, uint8_t> first; // each bound object's first byte, as written
  };
  std::vector<Side> sides(1);
  sides.reserve(6); // no reallocation: its moves would make every side forget what it remembers
  for (uint64_t base : {0x100u, 0x200u, 0x300u, 0x400u}) {
    sides[0].space.bind(object(base, 8), std::make_shared<ObjectState>(8));
    sides[0].first[base] = 0;
  }
  auto expectSeen = [&](const Side &s) {
    for (const auto &[base, byte] : s.first)
      for (uint64_t at = base; at < base + 8; at += 3) {
        const AddressSpace::Entry *e = s.space.find(at);
        ASSERT_NE(e, nullptr) << std::hex << at;
        ASSERT_EQ(e->object->address, base);
        ASSERT_EQ(e->state->read(ctx, 0, 1).bits, byte) << std::hex << at;
      }
  };
  for (int step = 0; step < 3000; ++step) {
    Side &s = sides[pick(sides.size())];
    const uint64_t base = 0x100 * (1 + pick(4));
    switch (pick(6)) {
    case 0: // a fork: a new side, or another side replaced by the copy
      if (sides.size() < sides.capacity()) {
        Side copy = s;
        sides.push_back(std::move(copy));
      } else {
        sides[pick(sides.size())] = s;
      }
      break;
    case 1: { // a move, as a state's container may make
      Side moved = std::move(s);
      s = std::move(moved);
      break;
    }
    case 2:
      if (s.first.size() > 1 && s.first.count(base)) {
        s.space.unbind(base);
        s.first.erase(base);
        EXPECT_EQ(s.space.find(base + 1), nullptr);
      }
      break;
    case 3:
      s.space.bind(object(base, 8), std::make_shared<ObjectState>(8));
      s.first[base] = 0;
      break;
    default:
      if (s.first.count(base)) {
        const uint8_t v = uint8_t(pick(256));
        s.space.find(base + 5); // remembered before the write makes the entry its own
        s.space.writable(base).write(ctx, 0, Value(u128(v)), 1);
        s.first[base] = v;
      }
    }
    for (const Side &each : sides)
      expectSeen(each);
    if (::testing::Test::HasFailure())
      return;
  }
}
