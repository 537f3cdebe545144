// The counters a work item reports and a job sums: what `cairn run` would have counted.
#include "cairn/service/FramedResults.h"
#include "cairn/service/ServiceMessages.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

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
  // Another layer's mismatches (the quantified layer's, under --validate-merges) are not the
  // cache's: the engine counts them with the merges'.
  s.solverLayers.push_back({"quantified", 2, 2, 0, 0.01, {{"mismatches", 5}}});
  EXPECT_EQ(s.addressCacheMismatches(), 0u);
  s.solverLayers[1].counters.back().second = 4;
  EXPECT_EQ(s.addressCacheMismatches(), 4u);
}

// --validate-merges in a job: a refuted merge on any item fails the job as `cairn run` fails.
TEST(ServiceMessages, MergeMismatchesTravelFromItemsToTheJob) {
  engine::RunStatistics item;
  item.merging.patterns = 2;
  item.merging.quantifiedMerges = 2;
  item.merging.mergesValidated = 2;
  v1::Counters job;
  service::addCounters(job, service::countersOf(item));
  item.merging.mismatches = 1;
  service::addCounters(job, service::countersOf(item));
  const engine::MergeStats m = service::statisticsOf(job).merging;
  EXPECT_EQ(m.mergesValidated, 4u);
  EXPECT_EQ(m.mismatches, 1u);
  EXPECT_EQ(m.quantifiedMerges, 4u);
}

// A job under a merging strategy reports what `cairn run` reports in summary.json's "merging".
TEST(ServiceMessages, MergingCountersAddUpOverItems) {
  engine::RunStatistics item;
  item.merging.merges = 3;
  item.merging.statesMerged = 6;
  item.merging.refused = 1;
  item.merging.multiplicity = 40;
  item.merging.fastForwarded = 5;
  item.merging.fastForwardedMerged = 2;
  item.merging.stops = 9;
  item.merging.qceFunctions = 7;
  item.merging.qceSeconds = 0.25;
  v1::Counters job;
  service::addCounters(job, service::countersOf(item));
  item.merging.multiplicity = 2;
  service::addCounters(job, service::countersOf(item));
  const engine::MergeStats m = service::statisticsOf(job).merging;
  EXPECT_EQ(m.merges, 6u);
  EXPECT_EQ(m.statesMerged, 12u);
  EXPECT_EQ(m.refused, 2u);
  EXPECT_EQ(m.multiplicity, 42u);
  EXPECT_EQ(m.fastForwarded, 10u);
  EXPECT_EQ(m.fastForwardedMerged, 4u);
  EXPECT_EQ(m.stops, 18u);
  EXPECT_EQ(m.qceFunctions, 7u); // the program's functions, not a sum
  EXPECT_DOUBLE_EQ(m.qceSeconds, 0.5);

  v1::Counters plain; // no strategy: no merging block
  service::addCounters(plain, service::countersOf(engine::RunStatistics{}));
  EXPECT_FALSE(plain.has_merging());
}

v1::TestResult fullResult(const std::string &pathId, bool withError) {
  v1::TestResult r;
  r.set_path_id(pathId);
  r.set_path(std::string("\x00\x01\x01", 3));
  v1::TestObject *o = r.add_objects();
  o->set_name("input");
  o->set_bytes(std::string(300, 'x')); // longer than one byte of length
  if (withError) {
    r.mutable_error()->set_type("ptr");
    r.mutable_error()->set_kind("out-of-bounds");
    r.mutable_error()->set_file("p.c");
    r.mutable_error()->set_line(12);
    r.mutable_error()->add_stack("main");
  }
  r.set_partial(true);
  r.set_end_reason("exit");
  r.set_output("hello\n");
  return r;
}

// Framed results read back whole, and their keys read without the rest of each result.
TEST(FramedResults, KeysAndBytesRoundTrip) {
  std::vector<v1::TestResult> results = {fullResult("0123456789abcdef", false), fullResult("p2", true),
                                         v1::TestResult()};
  std::string framed;
  for (const v1::TestResult &r : results)
    service::appendFramed(framed, r);
  service::FramedReader reader(framed);
  std::string_view whole, body;
  size_t n = 0;
  std::string again;
  for (; reader.next(whole, body); ++n) {
    ASSERT_LT(n, results.size());
    EXPECT_EQ(body, results[n].SerializeAsString());
    again.append(whole);
    std::optional<service::ResultKey> key = service::readKey(body);
    ASSERT_TRUE(key);
    EXPECT_EQ(key->pathId, results[n].path_id());
    EXPECT_EQ(key->partial, results[n].partial());
    ASSERT_EQ(key->error.has_value(), results[n].has_error());
    if (key->error) {
      EXPECT_EQ(key->error->SerializeAsString(), results[n].error().SerializeAsString());
    }
  }
  EXPECT_FALSE(reader.failed());
  EXPECT_EQ(n, results.size());
  EXPECT_EQ(again, framed); // the pieces are the whole, in order
}

TEST(FramedResults, BrokenFramingAndBodiesAreFound) {
  std::string framed;
  service::appendFramed(framed, fullResult("a", true));
  std::string_view whole, body;
  for (size_t cut = 1; cut < framed.size(); cut += 37) { // cut short anywhere
    service::FramedReader reader(std::string_view(framed).substr(0, cut));
    EXPECT_FALSE(reader.next(whole, body)) << cut;
    EXPECT_TRUE(reader.failed()) << cut;
  }
  // A body that is not a TestResult: a field cut short, a wire type that does not exist.
  EXPECT_FALSE(service::readKey(std::string("\x0a\x05" "ab", 4)));
  EXPECT_FALSE(service::readKey(std::string("\x0f\x01", 2)));
  // An error given twice merges, as a full parse does.
  v1::TestResult a, b;
  a.mutable_error()->set_file("p.c");
  b.mutable_error()->set_line(7);
  std::optional<service::ResultKey> key = service::readKey(a.SerializeAsString() + b.SerializeAsString());
  ASSERT_TRUE(key && key->error);
  EXPECT_EQ(key->error->file(), "p.c");
  EXPECT_EQ(key->error->line(), 7u);
}

} // namespace
