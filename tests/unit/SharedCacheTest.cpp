// The solver pool's shared cache: decided answers come back (without their model unless asked),
// unknown ones are never kept, a model-less sat answer does not pass for one with a model, the
// byte budget holds, and concurrent lanes and clients see consistent counters.
#include "SharedCache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace cairn;
using cairn::pool::SharedCache;

namespace {

v1::QueryResponse satWithModel(uint64_t x) {
  v1::QueryResponse r;
  r.set_result(v1::QueryResponse::RESULT_SAT);
  v1::ScalarValue &v = *r.add_scalars();
  v.set_name("x");
  v.mutable_value()->set_lo(x);
  return r;
}

v1::QueryResponse withResult(v1::QueryResponse::Result result) {
  v1::QueryResponse r;
  r.set_result(result);
  return r;
}

TEST(SharedCache, AnswersRepeatsWithOrWithoutTheModel) {
  SharedCache cache(1 << 20);
  v1::QueryResponse out;
  EXPECT_FALSE(cache.lookup("q", true, out));
  cache.insert("q", satWithModel(7), true);
  ASSERT_TRUE(cache.lookup("q", true, out));
  EXPECT_EQ(out.result(), v1::QueryResponse::RESULT_SAT);
  ASSERT_EQ(out.scalars_size(), 1);
  EXPECT_EQ(out.scalars(0).value().lo(), 7u);
  ASSERT_TRUE(cache.lookup("q", false, out));
  EXPECT_EQ(out.result(), v1::QueryResponse::RESULT_SAT);
  EXPECT_EQ(out.scalars_size(), 0);
  EXPECT_FALSE(cache.lookup("other", false, out));
  auto s = cache.stats();
  EXPECT_EQ(s.lookups, 4u);
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.entries, 1u);
}

TEST(SharedCache, UnknownAnswersAreNotKept) {
  SharedCache cache(1 << 20);
  v1::QueryResponse unknown = withResult(v1::QueryResponse::RESULT_UNKNOWN);
  unknown.set_reason("timeout");
  cache.insert("q", unknown, false);
  v1::QueryResponse out;
  EXPECT_FALSE(cache.lookup("q", false, out));
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(SharedCache, SatWithoutModelDoesNotAnswerARequestForOne) {
  SharedCache cache(1 << 20);
  cache.insert("q", withResult(v1::QueryResponse::RESULT_SAT), false);
  v1::QueryResponse out;
  EXPECT_TRUE(cache.lookup("q", false, out));
  EXPECT_FALSE(cache.lookup("q", true, out));
  // The model arrives later and replaces the entry; a model-less answer after it does not.
  cache.insert("q", satWithModel(3), true);
  cache.insert("q", withResult(v1::QueryResponse::RESULT_SAT), false);
  ASSERT_TRUE(cache.lookup("q", true, out));
  EXPECT_EQ(out.scalars(0).value().lo(), 3u);
  EXPECT_EQ(cache.stats().entries, 1u);
  // Unsat needs no model.
  cache.insert("u", withResult(v1::QueryResponse::RESULT_UNSAT), false);
  ASSERT_TRUE(cache.lookup("u", true, out));
  EXPECT_EQ(out.result(), v1::QueryResponse::RESULT_UNSAT);
}

TEST(SharedCache, StaysWithinItsBudgetDroppingTheLeastRecentlyUsed) {
  const uint64_t budget = 64 << 10;
  SharedCache cache(budget);
  const std::string pad(200, 'k');
  v1::QueryResponse out;
  for (int i = 0; i < 2000; ++i) {
    cache.insert(pad + std::to_string(i), satWithModel(uint64_t(i)), true);
    // Key 0 is used all the time, so it is never the least recently used one of its shard.
    ASSERT_TRUE(cache.lookup(pad + "0", true, out)) << "after " << i;
  }
  auto s = cache.stats();
  EXPECT_LE(s.bytes, budget);
  EXPECT_GT(s.evictions, 0u);
  EXPECT_EQ(s.entries + s.evictions, 2000u);
  EXPECT_FALSE(cache.lookup(pad + "1", true, out));
  EXPECT_TRUE(cache.lookup(pad + "1999", true, out));
}

TEST(SharedCache, ConcurrentUse) {
  SharedCache cache(16 << 20);
  const int threads = 4, keys = 500;
  std::vector<std::thread> workers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      v1::QueryResponse out;
      for (int round = 0; round < 2; ++round)
        for (int k = 0; k < keys; ++k) {
          const std::string key = "key" + std::to_string((k * 7 + t) % keys);
          const uint64_t value = uint64_t((k * 7 + t) % keys);
          if (cache.lookup(key, true, out)) {
            if (out.scalars(0).value().lo() != value)
              ++wrong;
          } else {
            cache.insert(key, satWithModel(value), true);
          }
        }
    });
  for (std::thread &w : workers)
    w.join();
  EXPECT_EQ(wrong, 0);
  auto s = cache.stats();
  EXPECT_EQ(s.lookups, uint64_t(threads * keys * 2));
  EXPECT_EQ(s.entries, uint64_t(keys));
  // The second round of every thread finds everything.
  EXPECT_GE(s.hits, uint64_t(threads * keys));
}

} // namespace
