// The traversal behind --check-leaks on hand-built address spaces: which heap blocks the roots
// reach through the words stored in memory, concrete and symbolic.
#include "memory/Reachability.h"

#include <gtest/gtest.h>

#include <map>

using namespace cairn;
using namespace cairn::engine;

namespace {

// Answers as the test says: the words the layout determines given by hand, and the blocks any
// other symbolic word may point into given as the addresses it may take. Counts the solver
// questions it is asked.
class ScriptedQuestions final : public PointerQuestions {
public:
  std::map<const Expr *, uint64_t> placed;
  std::vector<uint64_t> values; // the addresses a word the layout does not determine may take
  unsigned asked = 0;

  std::optional<uint64_t> layoutValue(const ExprRef &word) override {
    auto it = placed.find(word.get());
    return it != placed.end() ? std::optional<uint64_t>(it->second) : std::nullopt;
  }
  bool mayPointInto(const ExprRef &, const std::vector<HeapBlock> &blocks) override {
    ++asked;
    for (const HeapBlock &b : blocks)
      for (uint64_t v : values)
        if (v - b.address < std::max<uint64_t>(b.size, 1))
          return true;
    return false;
  }
};

class ReachabilityTest : public ::testing::Test {
protected:
  uint64_t add(ObjectKind kind, uint64_t address, uint64_t size) {
    auto mo = std::make_shared<MemoryObject>();
    mo->id = ++nextId_;
    mo->address = address;
    mo->size = size;
    mo->kind = kind;
    space.bind(mo, std::make_shared<ObjectState>(size));
    return address;
  }
  void store(uint64_t at, const Value &v) {
    const AddressSpace::Entry *e = space.find(at);
    ASSERT_NE(e, nullptr);
    space.writable(e->object->address).write(ctx, at - e->object->address, v, 8);
  }
  void storePointer(uint64_t at, uint64_t target) { store(at, Value(u128(target))); }

  // The addresses of the blocks the globals (and `extraRoot` objects) do not reach.
  std::vector<uint64_t> lost(std::optional<ObjectKind> extraRoot = std::nullopt) {
    Reachability r(ctx, space, *model, questions);
    r.addRootObjects(ObjectKind::Global);
    if (extraRoot)
      r.addRootObjects(*extraRoot);
    std::vector<uint64_t> addresses;
    for (const HeapBlock &b : r.unreachable())
      addresses.push_back(b.address);
    return addresses;
  }

  ExprContext ctx;
  AddressSpace space;
  std::unique_ptr<MemoryModel> model = createStandardModel();
  ScriptedQuestions questions;

private:
  uint64_t nextId_ = 0;
};

using Addresses = std::vector<uint64_t>;

TEST_F(ReachabilityTest, LiveBlocksAreTheHeapObjectsOnly) {
  add(ObjectKind::Global, 0x1000, 16);
  add(ObjectKind::Stack, 0x2000, 16);
  add(ObjectKind::Heap, 0x3000, 8);
  add(ObjectKind::Argument, 0x4000, 16);
  add(ObjectKind::Heap, 0x5000, 0);
  std::vector<HeapBlock> blocks = liveHeapBlocks(space, *model);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].address, 0x3000u);
  EXPECT_EQ(blocks[1].address, 0x5000u);
  EXPECT_EQ(blocks[1].size, 0u);
}

TEST_F(ReachabilityTest, AGlobalReachesBlocksTransitivelyAndALostCycleStaysLost) {
  uint64_t global = add(ObjectKind::Global, 0x1000, 16);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 16), b = add(ObjectKind::Heap, 0x3100, 8);
  uint64_t c = add(ObjectKind::Heap, 0x3200, 8), d = add(ObjectKind::Heap, 0x3300, 8);
  storePointer(global + 8, a);
  storePointer(a, b);
  storePointer(c, d); // c and d point to each other and nothing else points to them
  storePointer(d, c);
  EXPECT_EQ(lost(), (Addresses{c, d}));
}

TEST_F(ReachabilityTest, APointerIntoTheMiddleKeepsABlockButOnePastItsEndDoesNot) {
  uint64_t global = add(ObjectKind::Global, 0x1000, 16);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 32), b = add(ObjectKind::Heap, 0x3100, 8);
  uint64_t empty = add(ObjectKind::Heap, 0x3200, 0);
  storePointer(global, a + 31);
  storePointer(global + 8, b + 8);
  EXPECT_EQ(lost(), (Addresses{b, empty}));
  storePointer(global + 8, empty); // a block of no bytes owns its address
  EXPECT_EQ(lost(), (Addresses{b}));
}

TEST_F(ReachabilityTest, OnlyAlignedWordsAreRead) {
  uint64_t global = add(ObjectKind::Global, 0x1000, 24);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 8);
  storePointer(global + 4, a);
  EXPECT_EQ(lost(), (Addresses{a}));
}

TEST_F(ReachabilityTest, TheStackIsARootOnlyWhenAdded) {
  uint64_t frame = add(ObjectKind::Stack, 0x2000, 8);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 8);
  storePointer(frame, a);
  EXPECT_EQ(lost(), (Addresses{a}));
  EXPECT_EQ(lost(ObjectKind::Stack), Addresses{});
}

TEST_F(ReachabilityTest, AWordTheLayoutDeterminesPointsThereWithoutTheSolver) {
  uint64_t global = add(ObjectKind::Global, 0x1000, 16);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 16), b = add(ObjectKind::Heap, 0x3100, 16);
  const SymbolDecl *baseA = ctx.declareSymbol("base_a", 64, SymbolClass::Address, 16);
  ExprRef pointer = ctx.add(ctx.symbol(baseA), ctx.constant(8, 64));
  questions.placed[pointer.get()] = a + 8;
  store(global, Value(pointer));
  EXPECT_EQ(lost(), (Addresses{b}));
  EXPECT_EQ(questions.asked, 0u);
}

// A word read back from an object written at a symbolic offset mentions the bases the offset
// was computed from; it points into their blocks only when the solver says it may.
TEST_F(ReachabilityTest, MentioningABaseIsNotPointingIntoItsBlock) {
  uint64_t global = add(ObjectKind::Global, 0x1000, 16);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 16);
  const SymbolDecl *baseA = ctx.declareSymbol("base_a", 64, SymbolClass::Address, 16);
  const SymbolDecl *i = ctx.declareSymbol("i", 64, SymbolClass::Input);
  store(global, Value(ctx.sub(ctx.symbol(i), ctx.symbol(baseA))));
  EXPECT_EQ(lost(), (Addresses{a}));
  EXPECT_EQ(questions.asked, 1u);
}

TEST_F(ReachabilityTest, AWordOfInputsReachesTheBlocksItMayPointInto) {
  uint64_t global = add(ObjectKind::Global, 0x1000, 16);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 16), b = add(ObjectKind::Heap, 0x3100, 16);
  uint64_t c = add(ObjectKind::Heap, 0x3200, 16);
  const SymbolDecl *input = ctx.declareSymbol("x", 64, SymbolClass::Input);
  store(global, Value(ctx.symbol(input)));
  questions.values = {b + 4, c};
  EXPECT_EQ(lost(), (Addresses{a}));
  EXPECT_EQ(questions.asked, 4u); // all open blocks at once, then each of them
  questions.values.clear();
  questions.asked = 0;
  EXPECT_EQ(lost(), (Addresses{a, b, c}));
  EXPECT_EQ(questions.asked, 1u); // one question says it points nowhere
}

TEST_F(ReachabilityTest, ReachedBlocksAreScannedInTurn) {
  uint64_t global = add(ObjectKind::Global, 0x1000, 16);
  uint64_t a = add(ObjectKind::Heap, 0x3000, 16), b = add(ObjectKind::Heap, 0x3100, 16);
  const SymbolDecl *x = ctx.declareSymbol("x", 64, SymbolClass::Input);
  storePointer(global, a);
  store(a + 8, Value(ctx.symbol(x))); // found only once a is reached
  questions.values = {b};
  EXPECT_EQ(lost(), Addresses{});
  EXPECT_EQ(questions.asked, 1u);
}

} // namespace
