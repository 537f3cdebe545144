// RemoteSolver against a pool service in this process: answers and models arrive in the
// asker's context, the pool's cache hits are counted, time limits travel with the query, an
// unreachable replica is skipped and, with none left, the in-process fallback answers.
#include "PoolService.h"

#include "cairn/solver/RemoteSolver.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

using namespace cairn;

namespace {

// A loopback port nothing listens on: bound once by the kernel's choice, then closed.
std::string closedEndpoint() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr *>(&addr), len), 0);
  EXPECT_EQ(::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len), 0);
  ::close(fd);
  return "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
}

struct RemoteSolverTest : ::testing::Test {
  pool::PoolService service{[] {
    pool::PoolServiceOptions o;
    o.lanes = 2;
    o.maxTimeoutSeconds = 10;
    return o;
  }()};
  std::unique_ptr<grpc::Server> server;
  std::string endpoint;

  ExprContext ctx;
  ExprRef input = ctx.symbol(ctx.declareArray("input", 4));
  ExprRef n = ctx.symbol(ctx.declareSymbol("n", 32, SymbolClass::Input));
  ExprRef byte(unsigned i) { return ctx.select(input, ctx.constant(i, 32)); }
  ExprRef c8(unsigned v) { return ctx.constant(v, 8); }

  void SetUp() override {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    service.registerWith(builder);
    server = builder.BuildAndStart();
    ASSERT_NE(port, 0);
    service.start();
    endpoint = "127.0.0.1:" + std::to_string(port);
  }
  void TearDown() override {
    service.stop();
    server->Shutdown();
    service.join();
  }

  v1::StatsResponse poolStats() {
    v1::StatsResponse s;
    service.fillStats(s);
    return s;
  }
  RemoteSolverOptions options(std::vector<std::string> endpoints) {
    RemoteSolverOptions o;
    o.endpoints = std::move(endpoints);
    o.timeoutSeconds = 10;
    return o;
  }
};

TEST_F(RemoteSolverTest, ModelsArriveInTheAskersContext) {
  RemoteSolver solver(options({endpoint}));
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10)), ctx.ult(c8(3), byte(0)),
                             ctx.eq(ctx.extract(n, 0, 8), byte(1))};
  Answer<Assignment> m = solver.getInitialValues(pc, {input, n});
  ASSERT_TRUE(m.known()) << m.reason;
  const u128 b0 = m->element(input->symbol(), 0);
  EXPECT_GT(b0, 3u);
  EXPECT_LT(b0, 10u);
  EXPECT_EQ(m->scalar(n->symbol()) & 0xff, m->element(input->symbol(), 1));
  ASSERT_NE(m->array(input->symbol()), nullptr);
  EXPECT_EQ(m->array(input->symbol())->size(), 4u);

  Answer<bool> unsat = solver.mayBeTrue(pc, ctx.eq(byte(0), c8(2)));
  ASSERT_TRUE(unsat.known()) << unsat.reason;
  EXPECT_FALSE(*unsat);
  // Without a model asked for, none comes back.
  SolverResponse r = solver.check(Query(pc, ctx.eq(byte(0), c8(5))), false);
  EXPECT_EQ(r.result, SatResult::Sat);
  EXPECT_TRUE(r.model.empty());
  EXPECT_EQ(poolStats().requests(), 3u);
  EXPECT_EQ(solver.fallbackQueries(), 0u);
}

TEST_F(RemoteSolverTest, RepeatsAreAnsweredByThePoolsCache) {
  RemoteSolver first(options({endpoint}));
  std::vector<ExprRef> pc = {ctx.ult(byte(2), c8(50))};
  ASSERT_TRUE(first.mayBeTrue(pc, ctx.eq(byte(2), c8(49))).known());
  // Another client with its own context, asking with a model this time: the cached answer has
  // one, rebuilt in that client's context.
  ExprContext other;
  ExprRef input2 = other.symbol(other.declareArray("input", 4));
  RemoteSolver second(options({endpoint}));
  SolverResponse r = second.check(
      Query({other.ult(other.select(input2, other.constant(2, 32)), other.constant(50, 8))},
            other.eq(other.select(input2, other.constant(2, 32)), other.constant(49, 8))),
      true);
  ASSERT_EQ(r.result, SatResult::Sat);
  EXPECT_EQ(r.model.element(input2->symbol(), 2), 49u);
  std::vector<SolverLayerStats> stats;
  second.collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].layer, "pool");
  EXPECT_EQ(stats[0].queries, 1u);
  EXPECT_EQ(stats[0].answered, 1u);
  v1::StatsResponse s = poolStats();
  EXPECT_EQ(s.cache().hits(), 1u);
  EXPECT_EQ(s.solved(), 1u);
}

// A worker's next item asks its first query after a quiet second or so. The answer, from the
// pool's cache, must come at once: gRPC's callback threads would sleep through it (up to
// 100 ms after a second without events), which is why the pool serves its own queue.
TEST_F(RemoteSolverTest, TheFirstQueryAfterAQuietSecondIsAnsweredAtOnce) {
  RemoteSolver solver(options({endpoint}));
  std::vector<ExprRef> pc = {ctx.ult(byte(3), c8(20))};
  ASSERT_TRUE(solver.mayBeTrue(pc, ctx.eq(byte(3), c8(7))).known());
  double fastest = 1e9;
  for (int i = 0; i < 3; ++i) { // the fastest of three, so a busy machine is no failure
    std::this_thread::sleep_for(std::chrono::milliseconds(1020));
    auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(solver.mayBeTrue(pc, ctx.eq(byte(3), c8(7))).known());
    fastest = std::min(fastest, std::chrono::duration<double, std::milli>(
                                    std::chrono::steady_clock::now() - start).count());
  }
  EXPECT_LT(fastest, 40.0);
  EXPECT_EQ(poolStats().cache().hits(), 3u);
}

TEST_F(RemoteSolverTest, TimeLimitsTravelWithTheQuery) {
  // No 64-bit factorisation of p*q but the trivial ones: far beyond a tenth of a second.
  const uint64_t p = 2147483647ull, q = 2147483629ull;
  ExprRef x = ctx.symbol(ctx.declareSymbol("hx", 64, SymbolClass::Input));
  ExprRef y = ctx.symbol(ctx.declareSymbol("hy", 64, SymbolClass::Input));
  Query hard({ctx.ugt(x, ctx.constant(1, 64)), ctx.ugt(y, ctx.constant(1, 64)),
              ctx.ne(x, ctx.constant(p, 64)), ctx.ne(x, ctx.constant(q, 64))},
             ctx.eq(ctx.mul(ctx.zext(x, 128), ctx.zext(y, 128)), ctx.constant(u128(p) * q, 128)));
  RemoteSolverOptions o = options({endpoint});
  o.timeoutSeconds = 0.1;
  RemoteSolver solver(o);
  auto start = std::chrono::steady_clock::now();
  SolverResponse r = solver.check(hard, false);
  EXPECT_EQ(r.result, SatResult::Unknown);
  EXPECT_FALSE(r.reason.empty());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
  EXPECT_EQ(solver.fallbackQueries(), 0u) << "an unknown answer is an answer";
  EXPECT_EQ(poolStats().cache().entries(), 0u) << "unknown answers are not cached";
}

TEST_F(RemoteSolverTest, AnUnreachableReplicaIsSkipped) {
  const std::string closed = closedEndpoint();
  RemoteSolver solver(options({closed, endpoint}));
  int answered = 0;
  for (unsigned v = 0; v < 20; ++v) {
    Answer<bool> a = solver.mayBeTrue({ctx.ult(byte(3), c8(100))}, ctx.eq(byte(3), c8(v * 7)));
    ASSERT_TRUE(a.known()) << a.reason;
    EXPECT_EQ(*a, v * 7 < 100) << v;
    ++answered;
  }
  EXPECT_EQ(solver.fallbackQueries(), 0u);
  EXPECT_EQ(poolStats().requests(), uint64_t(answered));
}

TEST_F(RemoteSolverTest, WithNoReplicaTheFallbackAnswers) {
  RemoteSolver solver(options({closedEndpoint(), closedEndpoint()}));
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10))};
  Answer<Assignment> m = solver.getInitialValues(pc, {input});
  ASSERT_TRUE(m.known()) << m.reason;
  EXPECT_LT(m->element(input->symbol(), 0), 10u);
  Answer<bool> no = solver.mayBeTrue(pc, ctx.eq(byte(0), c8(10)));
  ASSERT_TRUE(no.known());
  EXPECT_FALSE(*no);
  EXPECT_EQ(solver.fallbackQueries(), 2u);
}

TEST_F(RemoteSolverTest, TheChainUsesThePoolAsItsCore) {
  SolverChainOptions o;
  o.poolEndpoints = {endpoint};
  o.timeoutSeconds = 10;
  std::unique_ptr<Solver> chain = createSolverChain(o);
  // Four bytes, three of them free: more candidates than the byte-domain layer tries, so it
  // hands the query on to the core.
  auto wide = [&](unsigned i) { return ctx.zext(byte(i), 16); };
  std::vector<ExprRef> pc = {ctx.ult(ctx.add(ctx.add(wide(0), wide(1)), wide(2)), wide(3))};
  for (int i = 0; i < 3; ++i) // repeats stay in the local query cache
    ASSERT_TRUE(chain->mayBeTrue(pc, ctx.eq(byte(1), c8(4))).known());
  std::vector<SolverLayerStats> stats;
  chain->collectStats(stats);
  ASSERT_FALSE(stats.empty());
  EXPECT_EQ(stats.back().layer, "pool");
  EXPECT_EQ(stats.back().queries, 1u);
  EXPECT_EQ(poolStats().requests(), 1u);
}

} // namespace
