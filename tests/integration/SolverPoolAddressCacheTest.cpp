// cairn-solver-pool --address-aware-cache as a process: two clients, each with its own
// expression context and its own heap layout (other bases, other addresses), ask the same
// questions of a table of heap pointers. The second client's queries reach the pool with other
// address constants, so the shared cache misses them; the pool's address-aware cache answers
// every one of them from the first client's, with the answers an in-process Z3 gives. Without
// the flag, the core solver answers them all.
#include "Process.h"

#include "cairn/solver/Backends.h"
#include "cairn/solver/RemoteSolver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

using namespace cairn;
using namespace cairn::testing;

namespace {

// One client: its context, its inputs (named alike in every client, as an engine names them)
// and its objects: a table of two pointers to two 2-byte buffers, the first holding a 7.
struct Client {
  Client(std::string namePrefix, uint64_t buf0, uint64_t buf1)
      : prefix(std::move(namePrefix)), buf0At(buf0), buf1At(buf1) {}

  ExprContext ctx;
  ExprRef i = ctx.symbol(ctx.declareSymbol("i", 64, SymbolClass::Input));
  ExprRef j = ctx.symbol(ctx.declareSymbol("j", 64, SymbolClass::Input));
  std::string prefix;
  uint64_t buf0At, buf1At;

  ExprRef c64(uint64_t v) { return ctx.constant(v, 64); }
  ExprRef base(const std::string &name, uint64_t size) {
    return ctx.symbol(ctx.declareSymbol(prefix + name, 64, SymbolClass::Address, size));
  }

  struct Question {
    std::vector<ExprRef> pc;
    ExprRef cond;
  };
  // table[i][j] resolved to buffer `target`; is the byte there 7? With `symbolic`, the buffers'
  // addresses are their bases, else the constants they stand for.
  Question ask(bool symbolic, int target) {
    ExprRef b0 = symbolic ? base("buf0", 2) : c64(buf0At);
    ExprRef b1 = symbolic ? base("buf1", 2) : c64(buf1At);
    ExprRef table = ctx.constArray(std::vector<u128>(16, 0), 8, 64);
    for (unsigned b = 0; b < 8; ++b) {
      table = ctx.store(table, c64(b), ctx.extract(b0, 8 * b, 8));
      table = ctx.store(table, c64(8 + b), ctx.extract(b1, 8 * b, 8));
    }
    ExprRef pointer = ctx.add(ctx.readLE(table, ctx.mul(i, c64(8)), 8), j);
    ExprRef offset = ctx.sub(pointer, target == 0 ? b0 : b1);
    std::vector<u128> bytes = {0, target == 0 ? 7u : 0u};
    return {{ctx.ult(i, c64(2)), ctx.ult(j, c64(2)), ctx.ult(offset, c64(2))},
            ctx.eq(ctx.select(ctx.constArray(bytes, 8, 64), offset), ctx.constant(7, 8))};
  }
};

struct Answers {
  std::vector<Validity> branches;
  std::vector<u128> values; // a model's i and j, checked against the question's constraints
};

// Asks both branch questions and one model question, through `solver`, with the symbolic form
// when `withForm`.
Answers askAll(Client &c, Solver &solver, bool withForm) {
  Answers out;
  for (int target = 0; target < 2; ++target) {
    Client::Question conc = c.ask(false, target), sym = c.ask(true, target);
    Answer<Validity> v = withForm ? solver.evaluate(PathConstraints(conc.pc, sym.pc, false), conc.cond, sym.cond)
                                  : solver.evaluate(conc.pc, conc.cond);
    EXPECT_TRUE(v.known()) << v.reason;
    out.branches.push_back(v.known() ? *v : Validity::Either);
  }
  Client::Question conc = c.ask(false, 0), sym = c.ask(true, 0);
  std::vector<ExprRef> pc = conc.pc, symPc = sym.pc;
  pc.push_back(conc.cond);
  symPc.push_back(sym.cond);
  Answer<Assignment> model = withForm ? solver.getInitialValues(PathConstraints(pc, symPc, false), {c.i, c.j})
                                      : solver.getInitialValues(pc, {c.i, c.j});
  EXPECT_TRUE(model.known()) << model.reason;
  if (model.known()) {
    for (const ExprRef &e : pc)
      EXPECT_TRUE(evaluatesTrue(e.get(), *model));
    out.values = {model->scalar(c.i->symbol()), model->scalar(c.j->symbol())};
  }
  return out;
}

const v1::LayerStats *layer(const v1::StatsResponse &s, const std::string &name) {
  for (const v1::LayerStats &l : s.layers())
    if (l.layer() == name)
      return &l;
  return nullptr;
}

RemoteSolverOptions remoteOptions(const std::string &endpoint) {
  RemoteSolverOptions o;
  o.endpoints = {endpoint};
  o.timeoutSeconds = 20;
  o.token = testPoolToken();
  return o;
}

uint64_t remoteQueries(const Solver &remote) {
  std::vector<SolverLayerStats> stats;
  remote.collectStats(stats);
  return stats.empty() ? 0 : stats.front().queries;
}

TEST(SolverPoolAddressCache, AnswersAnotherClientsRenamedLayout) {
  PoolProcess pool({"--threads", "1", "--address-aware-cache"});
  ASSERT_TRUE(pool.ready());
  Client a("a.", 0x1000, 0x2000);
  Client b("b.", 0x5010, 0x7020);

  RemoteSolver remoteA(remoteOptions(pool.endpoint()));
  Answers fromA = askAll(a, remoteA, true);
  const uint64_t queriesA = remoteQueries(remoteA);
  v1::StatsResponse afterA = pool.stats();
  ASSERT_NE(layer(afterA, "address-cache"), nullptr);
  ASSERT_NE(layer(afterA, "z3"), nullptr);

  RemoteSolver remoteB(remoteOptions(pool.endpoint()));
  Answers fromB = askAll(b, remoteB, true);
  const uint64_t queriesB = remoteQueries(remoteB);
  ASSERT_EQ(queriesB, 5u); // two branch evaluations (2 + 2 questions) and one model question
  ASSERT_EQ(queriesA, queriesB);
  v1::StatsResponse afterB = pool.stats();
  // Every query of b's is new to the shared cache and answered by renaming a's.
  EXPECT_EQ(afterB.cache().hits(), afterA.cache().hits());
  EXPECT_EQ(layer(afterB, "address-cache")->queries(), queriesA + queriesB);
  // a's model question is a's first branch question with its condition as a constraint: the
  // same key, so the cache answered it already, with the model kept for it.
  EXPECT_EQ(layer(afterA, "address-cache")->answered(), 1u);
  EXPECT_EQ(layer(afterB, "address-cache")->answered(), 1u + 5u);
  EXPECT_EQ(layer(afterB, "z3")->queries(), layer(afterA, "z3")->queries());

  std::unique_ptr<Solver> z3 = createZ3Solver(20);
  Answers inProcess = askAll(b, *z3, false);
  EXPECT_EQ(fromB.branches, inProcess.branches);
  EXPECT_EQ(fromA.branches, inProcess.branches);
  EXPECT_EQ(fromB.branches, (std::vector<Validity>{Validity::Either, Validity::False}));
  EXPECT_EQ(fromB.values.size(), 2u);
}

TEST(SolverPoolAddressCache, WithoutTheFlagTheSolverAnswersEveryLayout) {
  PoolProcess pool({"--threads", "1"});
  ASSERT_TRUE(pool.ready());
  Client a("a.", 0x1000, 0x2000);
  Client b("b.", 0x5010, 0x7020);
  RemoteSolver remoteA(remoteOptions(pool.endpoint())), remoteB(remoteOptions(pool.endpoint()));
  askAll(a, remoteA, true);
  askAll(b, remoteB, true);
  v1::StatsResponse s = pool.stats();
  EXPECT_EQ(layer(s, "address-cache"), nullptr);
  EXPECT_EQ(s.cache().hits(), 0u);
  EXPECT_EQ(s.solved(), remoteQueries(remoteA) + remoteQueries(remoteB));
}

// What a run's JSON summary says it found: paths, tests and errors.
std::string findings(const std::string &json) {
  std::string out;
  std::smatch m;
  for (const char *name : {"paths_completed", "tests"})
    out += std::regex_search(json, m, std::regex("\"" + std::string(name) + "\": ([0-9]+)"))
               ? std::string(name) + "=" + std::string(m[1]) + " "
               : std::string(name) + " missing ";
  if (std::regex_search(json, m, std::regex("\"errors\": (\\[[^\\]]*\\])")))
    out += m[1];
  return out;
}

// Two runs of a program whose paths allocate differently, searching in other orders, so that
// each run's states (and bases) lie elsewhere: the second run's queries reach the pool with
// other addresses, and the pool's address-aware cache answers 15 of them from the first's.
// Both find what an in-process run finds.
TEST(SolverPoolAddressCache, RunsWithOtherLayoutsShareAnswers) {
  PoolProcess pool({"--threads", "1", "--address-aware-cache"});
  ASSERT_TRUE(pool.ready());
  namespace fs = std::filesystem;
  const fs::path work =
      fs::path(::testing::TempDir()) / ("cairn-pool-address-" + std::to_string(::getpid()));
  fs::remove_all(work);
  auto run = [&](const std::string &search, bool withPool) {
    std::vector<std::string> argv = {CAIRN_BIN, "run", "--json", "--quiet",
                                     "--memory-model", "relocatable", "--address-aware-cache",
                                     "--search", search, "--output-dir",
                                     (work / (search + (withPool ? "-pool" : ""))).string()};
    if (withPool)
      argv.insert(argv.end(), {"--solver-pool", pool.endpoint(), "--solver-pool-token-file", testPoolTokenFile()});
    argv.push_back(std::string(CAIRN_BENCH_DIR) + "/address/pointer-table.c");
    CommandResult r = runCommand(argv);
    EXPECT_EQ(r.status, 0) << r.output;
    return findings(r.output);
  };
  const std::string first = run("dfs", true);
  const uint64_t before = layer(pool.stats(), "address-cache")->answered();
  const std::string second = run("bfs", true);
  v1::StatsResponse s = pool.stats();
  EXPECT_EQ(before, 0u);
  EXPECT_EQ(layer(s, "address-cache")->answered(), 15u);
  EXPECT_EQ(s.lane_resets(), 0u);
  const std::string inProcess = run("bfs", false);
  EXPECT_EQ(inProcess, "paths_completed=96 tests=96 []");
  EXPECT_EQ(second, inProcess);
  EXPECT_EQ(first, inProcess);
  fs::remove_all(work);
}

} // namespace
