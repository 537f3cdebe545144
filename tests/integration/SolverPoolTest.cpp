// cairn-solver-pool as a process: it reports SERVING on gRPC's health service, answers like an
// in-process Z3 (results and models), shares its cache between clients, rejects garbage with
// INVALID_ARGUMENT and keeps serving, serves clients at once, and stops cleanly on SIGTERM.
#include "Process.h"
#include "RandomQueries.h"

#include "cairn/expr/Assignment.h"
#include "cairn/expr/Float.h"
#include "cairn/expr/Quantified.h"
#include "cairn/solver/ArrayTypes.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/solver/RemoteSolver.h"
#include "cairn/solver/SolverChain.h"
#include "cairn/support/TokenFile.h"
#include "cairn/v1/solver_pool.grpc.pb.h"

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <cstring>
#include <cstdlib>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>

using namespace cairn;
using namespace cairn::testing;

namespace {

RemoteSolverOptions remoteOptions(std::vector<std::string> endpoints) {
  RemoteSolverOptions o;
  o.endpoints = std::move(endpoints);
  o.timeoutSeconds = 20;
  o.token = testPoolToken();
  return o;
}

bool satisfies(const Assignment &model, const Query &q) {
  for (const ExprRef &c : q.constraints)
    if (!evaluatesTrue(c.get(), model))
      return false;
  return evaluatesTrue(q.expr.get(), model);
}

// Sends raw bytes as a Solve request.
grpc::Status solveRaw(const std::string &endpoint, const std::string &bytes,
                      const std::string &token = testPoolToken()) {
  grpc::GenericStub stub(grpc::CreateChannel(endpoint, grpc::InsecureChannelCredentials()));
  grpc::ClientContext call;
  call.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  if (!token.empty())
    call.AddMetadata("authorization", "Bearer " + token);
  grpc::Slice slice(bytes);
  grpc::ByteBuffer request(&slice, 1), response;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  grpc::Status status;
  stub.UnaryCall(&call, "/cairn.v1.SolverPool/Solve", grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) {
                   std::lock_guard<std::mutex> lock(m);
                   status = std::move(s);
                   done = true;
                   cv.notify_one();
                 });
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [&] { return done; });
  return status;
}

TEST(SolverPool, ReportsServing) {
  PoolProcess pool;
  ASSERT_TRUE(pool.ready());
  EXPECT_EQ(waitServing(pool.endpoint(), "cairn.v1.SolverPool", 10), 1);
  v1::StatsResponse s = pool.stats();
  EXPECT_EQ(s.solver(), "z3");
  EXPECT_GE(s.lanes(), 1u);
}

// Clients authenticate: a call without the pool's token, or with another, is refused before the
// pool reads it (garbage with the token is INVALID_ARGUMENT, without it UNAUTHENTICATED); a
// client without the token is answered in-process and loses nothing.
TEST(SolverPool, ClientsNeedThePoolsToken) {
  PoolProcess pool({"--threads", "1"});
  ASSERT_TRUE(pool.ready());
  const std::string garbage = "\x01\x02not a request";
  EXPECT_EQ(solveRaw(pool.endpoint(), garbage, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  grpc::Status wrong = solveRaw(pool.endpoint(), garbage, testPoolToken() + "x");
  EXPECT_EQ(wrong.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_NE(wrong.error_message().find("--solver-pool-token-file"), std::string::npos) << wrong.error_message();
  EXPECT_EQ(solveRaw(pool.endpoint(), garbage).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  {
    auto stub = v1::SolverPool::NewStub(grpc::CreateChannel(pool.endpoint(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext call;
    v1::StatsResponse out;
    EXPECT_EQ(stub->Stats(&call, v1::StatsRequest{}, &out).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 8, SymbolClass::Input));
  RemoteSolverOptions o = remoteOptions({pool.endpoint()});
  o.token.clear();
  RemoteSolver solver(o);
  SolverResponse r = solver.check(Query({ctx.eq(x, ctx.constant(7, 8))}, ctx.trueExpr()), true);
  EXPECT_EQ(r.result, SatResult::Sat);
  EXPECT_EQ(r.model.scalar(x->symbol()), 7u);
  EXPECT_EQ(solver.fallbackQueries(), 1u);
  EXPECT_EQ(pool.stats().solved(), 0u);
}

// Given no --token-file, the pool makes its own in its working directory (mode 600, 256 bits);
// --open-clients is the way to serve without one, and the two options exclude each other.
TEST(SolverPool, MakesItsOwnTokenByDefaultAndOpensOnlyWhenAsked) {
  const std::string dir = ::testing::TempDir() + "/cairn-pool-token-" + std::to_string(::getpid());
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  const std::string garbage = "\x01\x02not a request";
  {
    Daemon pool({"/bin/sh", "-c", "cd " + dir + " && exec " CAIRN_SOLVER_POOL_BIN " --listen 127.0.0.1:0 --threads 1 --log-level warn"});
    ASSERT_TRUE(pool.ready());
    const std::string file = dir + "/cairn-solver-pool.token";
    struct stat st {};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    const std::string token = tokenFromFile(file);
    EXPECT_EQ(token.size(), 64u);
    EXPECT_EQ(solveRaw(pool.endpoint(), garbage, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(solveRaw(pool.endpoint(), garbage, token).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  {
    PoolProcess open({"--threads", "1", "--open-clients"});
    ASSERT_TRUE(open.ready());
    EXPECT_EQ(solveRaw(open.endpoint(), garbage, "").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  CommandResult both = runCommand({CAIRN_SOLVER_POOL_BIN, "--open-clients", "--token-file", dir + "/x"});
  EXPECT_EQ(both.status, 2);
  std::system(("rm -rf " + dir).c_str());
}

TEST(SolverPool, AnswersLikeInProcessZ3) {
  PoolProcess pool({"--threads", "2"});
  ASSERT_TRUE(pool.ready());
  ExprContext ctx;
  RandomQueries queries(ctx, 20240611);
  std::unique_ptr<Solver> z3 = createZ3Solver(20);
  RemoteSolver remote(remoteOptions({pool.endpoint()}));
  int sat = 0, unsat = 0;
  for (int i = 0; i < 120; ++i) {
    Query q = queries.next();
    const bool wantModel = i % 2 == 0;
    SolverResponse expected = z3->check(q, false);
    SolverResponse got = remote.check(q, wantModel);
    ASSERT_NE(expected.result, SatResult::Unknown) << expected.reason;
    ASSERT_EQ(got.result, expected.result) << "query " << i << ": " << got.reason;
    if (got.result == SatResult::Sat) {
      ++sat;
      if (wantModel)
        EXPECT_TRUE(satisfies(got.model, q)) << "query " << i;
      else
        EXPECT_TRUE(got.model.empty()) << "query " << i;
    } else {
      ++unsat;
    }
  }
  // Both answers are common, or the comparison says little.
  EXPECT_GE(sat, 20);
  EXPECT_GE(unsat, 20);
  EXPECT_EQ(remote.fallbackQueries(), 0u);
  EXPECT_EQ(pool.stats().requests(), 120u);
}

// Floating-point queries travel to the pool (the F* kinds serialize like any other) and come
// back with the in-process answer; models are checked with the folder's semantics.
TEST(SolverPool, AnswersFloatQueriesLikeInProcess) {
  PoolProcess pool({"--threads", "2"});
  ASSERT_TRUE(pool.ready());
  ExprContext ctx;
  auto sym = [&](const char *name, unsigned w) { return ctx.symbol(ctx.declareSymbol(name, w, SymbolClass::Input)); };
  auto op = [&](Kind k, std::vector<ExprRef> kids, unsigned w = 0) { return ctx.floatOp(k, kids, w); };
  auto bits = [](auto v) {
    u128 b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
  };
  ExprRef x = sym("x", 64), y = sym("y", 64), f = sym("f", 32);
  ExprRef one = ctx.constant(bits(1.0), 64);
  std::vector<Query> queries = {
      Query({}, op(Kind::FOlt, {one, op(Kind::FMul, {x, y})})),
      Query({}, ctx.lnot(op(Kind::FOeq, {x, x}))),
      Query({op(Kind::FOeq, {x, x})}, ctx.lnot(op(Kind::FOeq, {x, x}))),
      Query({}, ctx.eq(op(Kind::FToSInt, {f}, 32), ctx.constant(0x80000000u, 32))),
      Query({ctx.eq(x, one)}, ctx.ne(op(Kind::FAdd, {x, x}), ctx.constant(bits(2.0), 64))),
      Query({}, op(Kind::FOeq, {op(Kind::FConvert, {f}, 80), op(Kind::SIntToF, {ctx.constant(7, 16)}, 80)})),
  };
  const SatResult expected[] = {SatResult::Sat, SatResult::Sat, SatResult::Unsat,
                                SatResult::Sat, SatResult::Unsat, SatResult::Sat};
  std::unique_ptr<Solver> z3 = createZ3Solver(20);
  RemoteSolver remote(remoteOptions({pool.endpoint()}));
  for (size_t i = 0; i < queries.size(); ++i) {
    SolverResponse local = z3->check(queries[i], true);
    SolverResponse got = remote.check(queries[i], true);
    EXPECT_EQ(local.result, expected[i]) << "query " << i << ": " << local.reason;
    ASSERT_EQ(got.result, local.result) << "query " << i << ": " << got.reason;
    if (got.result == SatResult::Sat) {
      EXPECT_TRUE(satisfies(got.model, queries[i])) << "query " << i;
    }
  }
  EXPECT_EQ(remote.fallbackQueries(), 0u);
  EXPECT_EQ(pool.stats().requests(), uint64_t(queries.size()));
}

// A query with a bounded universal (state merging with quantifiers) is answered by the pool's
// procedure as in process: the worked example of the digest's §2.8, Sat with a model that holds
// on every instance, and an Unsat one that strip refutes.
TEST(SolverPool, AnswersQuantifiedQueriesWithItsProcedure) {
  PoolProcess pool({"--threads", "1"});
  ASSERT_TRUE(pool.ready());
  ExprContext ctx;
  const SymbolDecl *sDecl = ctx.declareArray("s", 8, 32, 8);
  ExprRef s = ctx.symbol(sDecl), n = ctx.symbol(ctx.declareSymbol("n", 32, SymbolClass::Input)),
          k = ctx.symbol(ctx.declareSymbol("k", 32, SymbolClass::Input)),
          i = ctx.symbol(ctx.declareSymbol("i", 32, SymbolClass::Bound));
  auto c = [&](u128 v, unsigned w = 32) { return ctx.constant(v, w); };
  ExprRef nonzero = ctx.ne(ctx.select(s, ctx.sub(i, c(1))), c(0, 8));
  const std::vector<ExprRef> sat = {ctx.eq(ctx.select(s, n), c(0, 8)), ctx.ule(c(1), k), ctx.ule(k, c(10)),
                                    ctx.eq(ctx.select(s, ctx.sub(k, c(1))), c(8, 8)), boundedForall(ctx, i, k, nonzero)};
  const std::vector<ExprRef> unsat = {ctx.ule(c(1), k), ctx.eq(ctx.select(s, c(0)), c(0, 8)),
                                      boundedForall(ctx, i, k, nonzero)};
  std::unique_ptr<Solver> local = createSolverChain(SolverChainOptions{});
  RemoteSolver remote(remoteOptions({pool.endpoint()}));
  for (const auto &phi : {sat, unsat}) {
    SolverResponse here = local->check(Query(phi, ctx.trueExpr(), {s}), true);
    SolverResponse there = remote.check(Query(phi, ctx.trueExpr(), {s}), true);
    ASSERT_EQ(there.result, here.result) << there.reason;
    if (there.result == SatResult::Sat) {
      for (const ExprRef &e : phi)
        EXPECT_TRUE(evaluatesTrue(e.get(), there.model)) << toString(e.get());
    }
  }
  EXPECT_EQ(remote.fallbackQueries(), 0u);
  const auto stats = pool.stats();
  bool found = false;
  for (const auto &layer : stats.layers())
    if (layer.layer() == "quantified") {
      found = true;
      EXPECT_EQ(layer.counters().at("quantified_queries"), 2u);
      EXPECT_EQ(layer.counters().at("unsat_by_strip"), 1u);
      EXPECT_EQ(layer.counters().at("fallback"), 0u);
    }
  EXPECT_TRUE(found);
}

// The typed array layer's options reach the lanes: a[a[a[x]]] = 5 over a constant int table,
// its element width sent with the query. With the default refinement the nested reads are tied
// to the table whole (from the first round: the table has 8 positions); with
// --array-refinement axioms none is, and --array-bounds integer bounds
// the indices by Z3's integer optimisation (milliseconds a program, where the default
// propagation takes microseconds). A wrong value is a usage error.
TEST(SolverPool, TypedArrayOptionsReachItsLanes) {
  ExprContext ctx;
  const ExprRef i = ctx.symbol(ctx.declareArray("i", 4));
  const ExprRef iw = ctx.readLE(i, ctx.constant(0, 32), 4);
  std::vector<u128> bytes;
  for (uint32_t w : {3u, 6u, 0u, 7u, 1u, 5u, 2u, 4u})
    for (unsigned b = 0; b < 4; ++b)
      bytes.push_back((w >> (8 * b)) & 0xff);
  const ExprRef a = ctx.constArray(bytes, 8, 64);
  auto element = [&](const ExprRef &x) { return ctx.readLE(a, ctx.mul(ctx.constant(4, 64), ctx.zext(x, 64)), 4); };
  Query q({ctx.ule(iw, ctx.constant(7, 32))}, ctx.eq(element(element(element(iw))), ctx.constant(5, 32)), {i});
  auto types = std::make_shared<ArrayTypes>();
  types->elementBytes.push_back({a, 4});
  q.arrayTypes = types;

  auto solve = [&](std::vector<std::string> args, std::map<std::string, uint64_t> &counters) {
    args.insert(args.begin(), {"--threads", "1", "--array-solver", "typed", "--array-precheck"});
    PoolProcess pool(args);
    ASSERT_TRUE(pool.ready());
    RemoteSolver remote(remoteOptions({pool.endpoint()}));
    SolverResponse r = remote.check(q, true);
    ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
    EXPECT_EQ(evaluate(iw.get(), r.model), 5u);
    EXPECT_EQ(remote.fallbackQueries(), 0u);
    const v1::StatsResponse stats = pool.stats(); // (a temporary's layers would not outlive the loop)
    for (const auto &layer : stats.layers())
      if (layer.layer() == "typed-arrays")
        counters.insert(layer.counters().begin(), layer.counters().end());
    EXPECT_FALSE(counters.empty()) << "no typed-arrays layer";
  };
  std::map<std::string, uint64_t> byDefault, asked;
  solve({}, byDefault);
  EXPECT_GT(byDefault["reads_tied_whole"] + byDefault["reads_tied_from_start"], 0u);
  EXPECT_EQ(byDefault["ilp_ms"], 0u); // propagation: no solver, microseconds
  solve({"--array-refinement", "axioms", "--array-bounds", "integer"}, asked);
  EXPECT_EQ(asked["reads_tied_whole"] + asked["reads_tied_from_start"], 0u);
  EXPECT_GT(asked["axioms_added"], 0u);
  EXPECT_GT(asked["ilp_ms"], 0u); // a Z3 optimiser per program: milliseconds each

  for (const std::vector<std::string> &bad : {std::vector<std::string>{"--array-refinement", "some"},
                                              std::vector<std::string>{"--array-bounds", "tight"}}) {
    CommandResult r = runCommand({"/bin/sh", "-c", std::string(CAIRN_SOLVER_POOL_BIN) + " " + bad[0] + " " +
                                                       bad[1] + " 2>&1"});
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("unknown array " + std::string(bad[0] == "--array-bounds" ? "bounds" : "refinement") +
                            " '" + bad[1] + "'"),
              std::string::npos)
        << r.output;
  }
}

TEST(SolverPool, RepeatsFromAnotherClientHitTheSharedCache) {
  PoolProcess pool;
  ASSERT_TRUE(pool.ready());
  auto ask = [&](ExprContext &ctx) {
    RandomQueries queries(ctx, 7);
    RemoteSolver remote(remoteOptions({pool.endpoint()}));
    std::vector<SatResult> results;
    for (int i = 0; i < 10; ++i)
      results.push_back(remote.check(queries.next(), true).result);
    return results;
  };
  ExprContext first, second;
  std::vector<SatResult> a = ask(first);
  v1::StatsResponse before = pool.stats();
  EXPECT_EQ(before.solved(), 10u);
  std::vector<SatResult> b = ask(second);
  v1::StatsResponse after = pool.stats();
  EXPECT_EQ(a, b);
  EXPECT_EQ(after.solved(), 10u) << "the second client's queries reached no lane";
  EXPECT_EQ(after.cache().hits() - before.cache().hits(), 10u);
  EXPECT_GT(after.cache().hit_rate(), 0.49);
  ASSERT_GE(after.layers_size(), 2);
  EXPECT_EQ(after.layers(0).layer(), "shared-cache");
  EXPECT_EQ(after.layers(0).answered(), 10u);
}

TEST(SolverPool, GarbageIsInvalidArgumentAndTheServerKeepsServing) {
  PoolProcess pool;
  ASSERT_TRUE(pool.ready());
  // Not protobuf at all: a field whose length runs past the end, and an invalid wire type.
  EXPECT_EQ(solveRaw(pool.endpoint(), std::string("\x12\x7f\x01\x02", 4)).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(solveRaw(pool.endpoint(), std::string("\x0f\xff\xff\xff", 4)).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // Protobuf, but not a query: a node whose operand comes after it.
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 8, SymbolClass::Input));
  Query q({}, ctx.ult(x, ctx.constant(9, 8)));
  v1::SolveRequest request;
  serializeQuery(q, false, 0, *request.mutable_query());
  v1::SolveRequest broken = request;
  broken.mutable_query()->mutable_dag()->mutable_nodes(0)->add_operands(7);
  grpc::Status s = solveRaw(pool.endpoint(), broken.SerializeAsString());
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("malformed"), std::string::npos) << s.error_message();
  // Still serving, over a new connection and the raw one alike.
  EXPECT_TRUE(solveRaw(pool.endpoint(), request.SerializeAsString()).ok());
  RemoteSolver remote(remoteOptions({pool.endpoint()}));
  Answer<bool> a = remote.mayBeTrue({}, ctx.eq(x, ctx.constant(3, 8)));
  ASSERT_TRUE(a.known()) << a.reason;
  EXPECT_TRUE(*a);
  EXPECT_EQ(remote.fallbackQueries(), 0u);
  v1::StatsResponse stats = pool.stats();
  EXPECT_EQ(stats.invalid_requests(), 3u);
  EXPECT_EQ(stats.requests(), 5u);
}

TEST(SolverPool, ServesClientsAtOnce) {
  PoolProcess pool({"--threads", "2"});
  ASSERT_TRUE(pool.ready());
  const int clients = 4, perClient = 25;
  std::vector<int> wrong(clients, 0), fallback(clients, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < clients; ++t)
    threads.emplace_back([&, t] {
      ExprContext ctx; // one per thread: contexts are single-threaded
      RandomQueries queries(ctx, 100 + uint32_t(t));
      std::unique_ptr<Solver> z3 = createZ3Solver(20);
      RemoteSolver remote(remoteOptions({pool.endpoint()}));
      for (int i = 0; i < perClient; ++i) {
        Query q = queries.next();
        SolverResponse got = remote.check(q, true);
        if (got.result != z3->check(q, false).result ||
            (got.result == SatResult::Sat && !satisfies(got.model, q)))
          ++wrong[size_t(t)];
      }
      fallback[size_t(t)] = int(remote.fallbackQueries());
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < clients; ++t) {
    EXPECT_EQ(wrong[size_t(t)], 0) << "client " << t;
    EXPECT_EQ(fallback[size_t(t)], 0) << "client " << t;
  }
  EXPECT_EQ(pool.stats().requests(), uint64_t(clients * perClient));
}

TEST(SolverPool, StopsCleanlyOnSigtermFinishingTheQueryBeingSolved) {
  PoolProcess pool({"--threads", "1"});
  ASSERT_TRUE(pool.ready());
  // No 64-bit factorisation of p*q but the trivial ones: it runs into its time limit.
  ExprContext ctx;
  const uint64_t p = 2147483647ull, q = 2147483629ull;
  ExprRef x = ctx.symbol(ctx.declareSymbol("hx", 64, SymbolClass::Input));
  ExprRef y = ctx.symbol(ctx.declareSymbol("hy", 64, SymbolClass::Input));
  Query hard({ctx.ugt(x, ctx.constant(1, 64)), ctx.ugt(y, ctx.constant(1, 64)),
              ctx.ne(x, ctx.constant(p, 64)), ctx.ne(x, ctx.constant(q, 64))},
             ctx.eq(ctx.mul(ctx.zext(x, 128), ctx.zext(y, 128)), ctx.constant(u128(p) * q, 128)));
  RemoteSolverOptions o = remoteOptions({pool.endpoint()});
  o.timeoutSeconds = 2;
  RemoteSolver remote(o);
  SolverResponse answer;
  std::thread asker([&] { answer = remote.check(hard, false); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (pool.stats().solving() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  pool.signal(SIGTERM);
  asker.join();
  // The pool's answer, not the fallback's: the query being solved was finished.
  EXPECT_EQ(answer.result, SatResult::Unknown);
  EXPECT_EQ(remote.fallbackQueries(), 0u) << answer.reason;
  int status = pool.wait(20);
  ASSERT_NE(status, -1) << "still running 20 s after SIGTERM";
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(SolverPool, StopsCleanlyWithIsolatedSolvers) {
  // Each lane's solver runs in a child process of its own; all of them must end with the pool.
  PoolProcess pool({"--threads", "2", "--isolate-solver"});
  ASSERT_TRUE(pool.ready());
  std::vector<std::thread> clients;
  std::vector<int> wrong(2, 0);
  for (int t = 0; t < 2; ++t)
    clients.emplace_back([&, t] {
      ExprContext ctx;
      RandomQueries queries(ctx, 300 + uint32_t(t));
      // The oracle is plain Z3 without the pool's layers: one of these queries takes it 5 s on
      // an idle machine, more than 20 s on a loaded one, where an Unknown is no wrong answer of
      // the pool's.
      std::unique_ptr<Solver> z3 = createZ3Solver(300);
      RemoteSolver remote(remoteOptions({pool.endpoint()}));
      for (int i = 0; i < 10; ++i) {
        Query q = queries.next();
        if (remote.check(q, false).result != z3->check(q, false).result)
          ++wrong[size_t(t)];
      }
    });
  for (std::thread &c : clients)
    c.join();
  EXPECT_EQ(wrong, std::vector<int>(2, 0));
  // The core and the float core (cvc5), each isolated: the last two layers.
  const auto stats = pool.stats();
  ASSERT_GE(stats.layers_size(), 2);
  EXPECT_EQ(stats.layers(stats.layers_size() - 2).layer(), "isolated-z3");
  EXPECT_EQ(stats.layers(stats.layers_size() - 1).layer(), "isolated-cvc5");
  pool.signal(SIGTERM);
  int status = pool.wait(20);
  ASSERT_NE(status, -1) << "still running 20 s after SIGTERM";
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

} // namespace
