// T10 of type- and interval-aware array solving: the engine infers each object's element width
// from its accesses (the narrowest one; a byte access or a memcpy makes it 1) and sends it with
// the path's queries, where the typed array solver prunes axioms by it.
#include "RunSource.h"

#include "cairn/engine/Memory.h"

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

TEST(ArrayTypeInference, NarrowestAccessDecidesTheElementWidth) {
  ExprContext ctx;
  ObjectState words(16);
  words.read(ctx, 0, 4);
  words.write(ctx, 8, Value(u128(7)), 4);
  EXPECT_EQ(words.elementBytes(), 4u);
  words.read(ctx, 4, 8);
  EXPECT_EQ(words.elementBytes(), 4u); // a wider access does not widen it
  words.read(ctx, 1, 1);
  EXPECT_EQ(words.elementBytes(), 1u);

  ObjectState copied(16);
  uint64_t plain = 0;
  copied.readPlain(0, 8, plain);
  EXPECT_EQ(copied.elementBytes(), 8u);
  const uint8_t bytes[4] = {1, 2, 3, 4};
  copied.writeConcrete(ctx, 0, bytes, 4); // memcpy
  EXPECT_EQ(copied.elementBytes(), 1u);

  ObjectState odd(16);
  odd.read(ctx, 0, 3); // an i24: no power of two
  EXPECT_EQ(odd.elementBytes(), 2u);
}

TEST(ArrayTypeInference, SymbolicAccessPutsTheWidthOnThePath) {
  ExprContext ctx;
  ObjectState table(16);
  ConstraintList path;
  EXPECT_EQ(path.arrayTypes(), nullptr);
  ExprRef index = ctx.symbol(ctx.declareSymbol("i", 64, SymbolClass::Input));
  table.readSymbolic(ctx, ctx.mul(ctx.constant(4, 64), index), 4);
  ASSERT_NE(table.arrayRoot(), nullptr);
  path.noteArrayAccess(table.arrayRoot(), table.elementBytes());
  ASSERT_NE(path.arrayTypes(), nullptr);
  EXPECT_EQ(path.arrayTypes()->bytesOf(table.arrayRoot()), 4u);
  // A copy of the path shares the record until one of them learns something new.
  ConstraintList forked = path;
  forked.noteArrayAccess(table.arrayRoot(), 1);
  EXPECT_EQ(path.arrayTypes()->bytesOf(table.arrayRoot()), 4u);
  EXPECT_EQ(forked.arrayTypes()->bytesOf(table.arrayRoot()), 1u);
}

class ArrayTypeRun : public EngineRunTest {
protected:
  uint64_t counter(const Outcome &o, const std::string &name) {
    for (const SolverLayerStats &l : o.stats.solverLayers)
      for (const auto &[n, v] : l.counters)
        if (n == name)
          return v;
    ADD_FAILURE() << "no counter " << name;
    return 0;
  }
  Outcome runTyped(const std::string &body) {
    ExecutorOptions eo;
    eo.search = SearchStrategy::Dfs;
    eo.solver.arrays.typed = true;
    eo.solver.arrays.precheck = true;
    return runSource(body, eo);
  }
};

// An int table read at a symbolic index, through int loads only: every read of it is pruned by
// its offset within an int (16 element axioms for the 4 byte reads of a[i], i < 4, where 52
// positions are in their intervals); one byte read of the table makes it a byte array again.
TEST_F(ArrayTypeRun, IntTableIsPrunedByElementWidthUntilAByteAccess) {
  const std::string intsOnly = R"(
int table[4] = {1, 2, 3, 11};
int main(void) {
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  if (i < 4 && table[i] > 10)
    return 1;
  return 0;
})";
  const std::string withByteRead = R"(
int table[4] = {1, 2, 3, 11};
int main(void) {
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  volatile char c = ((char *)table)[1];
  if (i < 4 && table[i] > 10)
    return 1;
  return c;
})";
  Outcome typed = runTyped(intsOnly);
  Outcome bytes = runTyped(withByteRead);
  EXPECT_EQ(typed.tests.size(), 3u); // i >= 4; a[i] > 10; a[i] <= 10
  EXPECT_EQ(bytes.tests.size(), 3u);
  ASSERT_GT(counter(typed, "cegar_queries"), 0u);
  ASSERT_GT(counter(bytes, "cegar_queries"), 0u);
  EXPECT_EQ(counter(typed, "untyped_reads"), 0u);
  const uint64_t perQueryTyped = counter(typed, "axiom_pool") / counter(typed, "cegar_queries");
  const uint64_t perQueryBytes = counter(bytes, "axiom_pool") / counter(bytes, "cegar_queries");
  EXPECT_EQ(perQueryTyped, 16u);
  EXPECT_EQ(perQueryBytes, 4u * 13 + 6);
}

} // namespace
