// The symbolic-size model's bound: sizes above an allocation's capacity are not explored, and
// the run says so (partial paths, RunStatistics::sizeBound, summary.json's size_bound, a job's
// counters), so that no run claims "no error" beyond it.
#include "RunSource.h"

#include "cairn/engine/OutputDirectory.h"
#include "cairn/service/ServiceMessages.h"

#include <gtest/gtest.h>

#include <string>

namespace cairn::engine {
namespace {

class SizeBound : public unit::EngineRunTest {
protected:
  static ExecutorOptions symbolic(uint64_t capacity) {
    ExecutorOptions eo;
    eo.search = SearchStrategy::Dfs;
    eo.sizeModel.kind = SizeModelKind::Symbolic;
    eo.sizeModel.capacity = capacity;
    return eo;
  }
};

// n is free: n <= 3 is explored (one path per size through the loop), n > 3 is one partial path.
const char *kFreeSize = R"(
int main(void) {
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *p = malloc(n);
  for (unsigned long i = 0; i < n; i++)
    p[i] = 1;
  return 0;
}
)";

TEST_F(SizeBound, SizesAboveTheCapacityEndAsPartialPaths) {
  unit::Outcome o = runSource(kFreeSize, symbolic(3));
  EXPECT_EQ(o.stats.pathsCompleted, 4u);
  EXPECT_EQ(o.stats.pathsPartial, 1u);
  ASSERT_TRUE(o.stats.sizeBound);
  EXPECT_EQ(o.stats.sizeBound->capacity, 3u);
  EXPECT_EQ(o.stats.sizeBound->maxCapacity, 3u);
  EXPECT_EQ(o.stats.sizeBound->pathsCut, 1u);
  size_t partial = 0;
  for (const TestCase &t : o.tests)
    if (t.partial) {
      ++partial;
      EXPECT_EQ(t.endReason, "size above the capacity 3 not explored (--capacity)");
      ASSERT_EQ(t.objects.size(), 1u);
      uint64_t n = 0;
      for (size_t i = 0; i < 8; ++i)
        n |= uint64_t(t.objects[0].second[i]) << (8 * i);
      EXPECT_GT(n, 3u) << "the partial path's test has a size the bound cut";
    }
  EXPECT_EQ(partial, 1u);
}

TEST_F(SizeBound, EagerModeCutsTheSameSizes) {
  ExecutorOptions eo = symbolic(3);
  eo.sizeModel.mode = SizeMode::Eager;
  unit::Outcome o = runSource(kFreeSize, eo);
  EXPECT_EQ(o.stats.pathsCompleted, 4u);
  EXPECT_EQ(o.stats.pathsPartial, 1u);
  EXPECT_EQ(o.stats.sizeBound->pathsCut, 1u);
}

TEST_F(SizeBound, SizesWithinTheCapacityCutNothing) {
  unit::Outcome o = runSource(R"(
int main(void) {
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 3);
  char *p = malloc(n);
  return p != 0;
}
)",
                              symbolic(3));
  EXPECT_EQ(o.stats.pathsPartial, 0u);
  ASSERT_TRUE(o.stats.sizeBound);
  EXPECT_EQ(o.stats.sizeBound->pathsCut, 0u);
}

TEST_F(SizeBound, ARaisedCapacityIsNamedAndStillCuts) {
  // n >= 150 cannot fit 100: sizes over 2^31 get NULL (one path), the capacity of the others is
  // raised to 160 (their least size, in steps of 20), and n > 160 is cut.
  unit::Outcome o = runSource(R"(
int main(void) {
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 150);
  char *p = malloc(n);
  if (p)
    p[n - 1] = 1;
  return 0;
}
)",
                              symbolic(100));
  ASSERT_TRUE(o.stats.sizeBound);
  EXPECT_EQ(o.stats.sizeBound->capacity, 100u);
  EXPECT_EQ(o.stats.sizeBound->maxCapacity, 160u);
  EXPECT_EQ(o.stats.sizeBound->pathsCut, 1u);
  EXPECT_EQ(o.stats.pathsCompleted, 2u) << "NULL, and n in 150..160";
  EXPECT_EQ(o.stats.pathsPartial, 1u);
  EXPECT_TRUE(o.stats.errors.empty());
}

TEST_F(SizeBound, TheConcreteModelHasNone) {
  ExecutorOptions eo;
  eo.search = SearchStrategy::Dfs;
  unit::Outcome o = runSource(kFreeSize, eo);
  EXPECT_FALSE(o.stats.sizeBound);
  EXPECT_EQ(summaryJson(o.stats, {}).find("size_bound"), std::string::npos);
}

TEST(SizeBoundSummary, NamesTheBoundAfterTheOtherCounters) {
  RunStatistics s;
  s.pathsCompleted = 4;
  s.pathsPartial = 2;
  s.sizeBound = SizeBoundStats{3, 20, 1};
  std::string json = summaryJson(s, {});
  EXPECT_NE(json.find("\"paths_partial\": 2, "), std::string::npos) << "existing fields unchanged";
  EXPECT_NE(json.find(", \"size_bound\": {\"capacity\": 3, \"max_capacity\": 20, \"paths_cut\": 1}, "),
            std::string::npos)
      << json;
}

TEST(SizeBoundSummary, TravelsFromItemsToTheJob) {
  v1::Counters job;
  service::addCounters(job, service::countersOf(RunStatistics{}));
  EXPECT_FALSE(job.has_size_bound()) << "a concrete-model item has no bound";
  RunStatistics item;
  item.sizeBound = SizeBoundStats{4, 4, 2};
  service::addCounters(job, service::countersOf(item));
  item.sizeBound = SizeBoundStats{4, 20, 1};
  service::addCounters(job, service::countersOf(item));
  RunStatistics summed = service::statisticsOf(job);
  ASSERT_TRUE(summed.sizeBound);
  EXPECT_EQ(summed.sizeBound->capacity, 4u);
  EXPECT_EQ(summed.sizeBound->maxCapacity, 20u);
  EXPECT_EQ(summed.sizeBound->pathsCut, 3u);
}

} // namespace
} // namespace cairn::engine
