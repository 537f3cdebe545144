// Benchmarks of the foundation: expression construction rate and hash-cons hit rate, and the
// solver chain's cache hit rates on an exploration-shaped query workload, side by side with the
// bare backend. Prints tables; not a timed test.
//
//   cairn-bench-expr [--nodes N] [--depth D]
#include "ExploreWorkload.h"

#include "cairn/solver/SolverChain.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

using namespace cairn;
using namespace cairn::bench;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Builds expressions the way an interpreter does: byte reads of an input combined with
// arithmetic, comparisons and casts, many of them repeated across paths.
void benchConstruction(uint64_t nodes) {
  ExprContext ctx;
  ExprRef input = ctx.symbol(ctx.declareArray("input", 64));
  std::mt19937_64 rng(42);
  std::vector<ExprRef> pool;
  for (unsigned i = 0; i < 64; ++i)
    pool.push_back(ctx.zext(ctx.select(input, ctx.constant(i, 32)), 32));
  uint64_t built = 0;
  auto start = Clock::now();
  while (built < nodes) {
    const ExprRef &a = pool[rng() % pool.size()];
    const ExprRef &b = pool[rng() % pool.size()];
    ExprRef c = ctx.constant(rng() % 16, 32);
    ExprRef e;
    switch (rng() % 8) {
    case 0: e = ctx.add(a, c); break;
    case 1: e = ctx.add(a, b); break;
    case 2: e = ctx.mul(a, c); break;
    case 3: e = ctx.bvand(a, b); break;
    case 4: e = ctx.zext(ctx.ult(a, b), 32); break;
    case 5: e = ctx.sub(a, c); break;
    case 6: e = ctx.ite(ctx.eq(a, c), a, b); break;
    default: e = ctx.shl(a, ctx.constant(rng() % 4, 32)); break;
    }
    ++built;
    if (pool.size() < 4096)
      pool.push_back(e);
    else
      pool[rng() % pool.size()] = e;
  }
  double s = secondsSince(start);
  const ExprContextStats &st = ctx.stats();
  std::printf("\n== expression construction ==\n");
  std::printf("%-28s %14s\n", "metric", "value");
  std::printf("%-28s %14llu\n", "builder calls", (unsigned long long)built);
  std::printf("%-28s %14.0f\n", "builder calls per second", double(built) / s);
  std::printf("%-28s %14llu\n", "node requests (interned)", (unsigned long long)st.requests);
  std::printf("%-28s %13.1f%%\n", "hash-cons hit rate", 100 * st.hitRate());
  std::printf("%-28s %14llu\n", "nodes created", (unsigned long long)st.created);
  std::printf("%-28s %14llu\n", "nodes alive at the end", (unsigned long long)st.live);
}

void printWorkload(const char *label, const WorkloadResult &r) {
  std::printf("%s: %llu engine questions in %.3f s\n", label, (unsigned long long)r.queries,
              r.seconds);
  std::printf("  %-16s %10s %10s %9s %10s\n", "layer", "queries", "answered", "hit rate",
              "time (s)");
  for (const SolverLayerStats &l : r.layers)
    std::printf("  %-16s %10llu %10llu %8.1f%% %10.3f\n", l.layer.c_str(),
                (unsigned long long)l.queries, (unsigned long long)l.answered,
                l.queries ? 100.0 * double(l.answered) / double(l.queries) : 0.0, l.seconds);
}

uint64_t coreQueries(const WorkloadResult &r) { return r.layers.back().queries; }

} // namespace

int main(int argc, char **argv) {
  uint64_t nodes = 2'000'000;
  unsigned depth = 6;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--nodes"))
      nodes = std::stoull(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--depth"))
      depth = unsigned(std::stoul(argv[i + 1]));
  }
  benchConstruction(nodes);

  std::printf("\n== solver chain on an exploration workload (depth %u, z3) ==\n", depth);
  ExprContext ctx; // declared first: the solvers' caches hold its expressions
  SolverChainOptions bare;
  bare.independence = bare.queryCache = bare.cexCache = false;
  std::unique_ptr<Solver> bareSolver = createSolverChain(bare);
  std::unique_ptr<Solver> chain = createSolverChain(SolverChainOptions{});
  WorkloadResult b = explore(ctx, *bareSolver, depth);
  WorkloadResult c = explore(ctx, *chain, depth);
  printWorkload("bare z3", b);
  printWorkload("full chain", c);
  std::printf("\nsolver calls: %llu bare vs %llu chain (%.1fx fewer); time ratio bare/chain %.2fx\n",
              (unsigned long long)coreQueries(b), (unsigned long long)coreQueries(c),
              double(coreQueries(b)) / double(std::max<uint64_t>(1, coreQueries(c))),
              b.seconds / std::max(1e-9, c.seconds));
  return 0;
}
