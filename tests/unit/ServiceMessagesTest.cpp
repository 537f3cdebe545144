// The counters a work item reports and a job sums: what `cairn run` would have counted.
#include "ServiceMessages.h"

#include <gtest/gtest.h>

using namespace cairn;

namespace {

engine::RunStatistics itemWithMismatches(uint64_t mismatches) {
  engine::RunStatistics s;
  s.pathsCompleted = 3;
  s.solverLayers.push_back({"cex-cache", 10, 4, 0, 0.1, {{"entries", 6}}});
  s.solverLayers.push_back({"address-cache", 8, 5, 0, 0.2, {{"validated", 5}, {"mismatches", mismatches}}});
  return s;
}

// A job must fail validation when any of its items did, as `cairn run` does on the same program.
TEST(ServiceMessages, AddressCacheMismatchesTravelFromItemsToTheJob) {
  v1::Counters job;
  service::addCounters(job, service::countersOf(itemWithMismatches(0)));
  EXPECT_EQ(job.address_cache_mismatches(), 0u);
  EXPECT_EQ(service::statisticsOf(job).addressCacheMismatches(), 0u);

  service::addCounters(job, service::countersOf(itemWithMismatches(2)));
  service::addCounters(job, service::countersOf(itemWithMismatches(1)));
  EXPECT_EQ(job.address_cache_mismatches(), 3u);
  EXPECT_EQ(job.paths_completed(), 9u);
  EXPECT_EQ(service::statisticsOf(job).addressCacheMismatches(), 3u);
}

TEST(ServiceMessages, OnlyTheMismatchCounterCounts) {
  engine::RunStatistics s = itemWithMismatches(0);
  s.solverLayers.push_back({"z3", 2, 2, 0, 0.01, {{"validated", 7}}});
  EXPECT_EQ(s.addressCacheMismatches(), 0u);
  s.solverLayers.back().counters.push_back({"mismatches", 4});
  EXPECT_EQ(s.addressCacheMismatches(), 4u);
}

} // namespace
