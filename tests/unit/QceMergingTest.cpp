// The QCE merging strategies (PLDI'12) on whole runs: the introduction's two-state merge, the
// similarity gate (a hot variable with different concrete values keeps states apart, a cold
// one does not), and static versus dynamic merging on the paper's logPacketHash shape.
#include "RunSource.h"
#include "SleepProgram.h"

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

class QceMergingTest : public EngineRunTest {
protected:
  ExecutorOptions with(MergeStrategy strategy, SearchStrategy search = SearchStrategy::Dfs) {
    ExecutorOptions o;
    o.merging.strategy = strategy;
    o.search = search;
    return o;
  }
  // `bytes` symbolic bytes, each a branch whose sides add different amounts to an accumulator
  // nothing branches on (cold: the states merge at each join).
  static std::string accumulator(unsigned bytes) {
    const std::string n = std::to_string(bytes);
    return "int main(void) {\n"
           "  unsigned char in[" + n + "];\n"
           "  klee_make_symbolic(in, sizeof in, \"in\");\n"
           "  long seconds = 0;\n"
           "  for (int i = 0; i < " + n + "; ++i)\n"
           "    if (in[i] > 'a') seconds += 60; else seconds += 1;\n"
           "  return (int)seconds;\n"
           "}\n";
  }
  // DSM driven by random-state under one of the seeds the tests run it with.
  ExecutorOptions dynamicWithSeed(uint64_t seed) {
    ExecutorOptions o = with(MergeStrategy::Dynamic, SearchStrategy::RandomState);
    o.seed = seed;
    return o;
  }
};

// if (x < 0) x = 0; else x = 5: one state with x = ite(X < 0, 0, 5) and the path condition
// true (the common prefix), standing for both paths.
TEST_F(QceMergingTest, IntroductionExampleBecomesOneState) {
  const char *program = "int main(void) {\n"
                        "  int x;\n"
                        "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                        "  if (x < 0) x = 0; else x = 5;\n"
                        "  return x;\n"
                        "}\n";
  Outcome plain = runSource(program, with(MergeStrategy::None));
  EXPECT_EQ(plain.stats.pathsCompleted, 2u);
  EXPECT_EQ(plain.stats.merging.merges, 0u);
  Outcome merged = runSource(program, with(MergeStrategy::Static));
  EXPECT_EQ(merged.stats.pathsCompleted, 1u);
  EXPECT_EQ(merged.stats.merging.merges, 1u);
  EXPECT_EQ(merged.stats.merging.multiplicity, 2u) << "one path standing for two";
  EXPECT_LT(merged.stats.queries, plain.stats.queries) << "no query added; one test less to solve for";
  EXPECT_GT(merged.stats.merging.qceFunctions, 0u);
  ASSERT_EQ(merged.tests.size(), 1u);
}

// 70 merged forks stand for 2^70 paths: the estimate stays at its largest value, not 2^70
// modulo 2^64 (which is 0).
TEST_F(QceMergingTest, MultiplicityPastTwoToTheSixtyFourStaysAtItsLargest) {
  Outcome ssm = runSource(accumulator(70), with(MergeStrategy::Static));
  EXPECT_EQ(ssm.stats.pathsCompleted, 1u);
  EXPECT_EQ(ssm.stats.merging.merges, 70u);
  EXPECT_EQ(ssm.stats.merging.multiplicity, UINT64_MAX);
}

// x is branched on after the join: it is hot, 0 and 5 are different concrete values, so the
// states stay apart; with alpha so large nothing is hot, they merge and the branch on the
// merged x = ite(X < 0, 0, 5) forks again.
TEST_F(QceMergingTest, HotVariableWithDifferentValuesKeepsStatesApart) {
  const char *program = "int main(void) {\n"
                        "  int x, y;\n"
                        "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                        "  klee_make_symbolic(&y, sizeof y, \"y\");\n"
                        "  if (x < 0) x = 0; else x = 5;\n"
                        "  if (x > 3) return 1;\n"
                        "  return 2;\n"
                        "}\n";
  // Kept apart at the join, each state takes its side of x > 3 without a query; they merge
  // at the return, where only the returned value differs.
  Outcome kept = runSource(program, with(MergeStrategy::Static));
  EXPECT_EQ(kept.stats.forks, 1u);
  EXPECT_EQ(kept.stats.merging.merges, 1u);
  ExecutorOptions cold = with(MergeStrategy::Static);
  cold.merging.qceAlpha = 1e300;
  Outcome merged = runSource(program, cold);
  EXPECT_EQ(merged.stats.forks, 2u) << "x > 3 on the merged ite(X < 0, 0, 5) forks again";
  EXPECT_EQ(merged.stats.merging.merges, 2u);
  EXPECT_GT(merged.stats.queries, kept.stats.queries);
}

// The paper's Eq. 7: v is symbolic in both states and different (y + 1, y * 3), so by Eq. 1
// they merge into v = ite(X < 0, Y + 1, Y * 3), which the branch ahead reads. With a query
// over a merged ite costing zeta = 4 times one without, (zeta - 1) * Q_add(v) exceeds
// alpha * Q_t: they stay apart and each decides v > 10 on its own (one fork more), merging
// at the return. A branch on y alone, the same in both, leaves them similar under any zeta.
TEST_F(QceMergingTest, AnIteCostAboveOneKeepsStatesWithDifferentSymbolicValuesApart) {
  const char *program = "int main(void) {\n"
                        "  int x, y, v;\n"
                        "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                        "  klee_make_symbolic(&y, sizeof y, \"y\");\n"
                        "  if (x < 0) v = y + 1; else v = y * 3;\n"
                        "  if (%s > 10) return 1;\n"
                        "  return v;\n"
                        "}\n";
  auto run = [&](const char *tested, double zeta) {
    char source[512];
    std::snprintf(source, sizeof source, program, tested);
    ExecutorOptions o = with(MergeStrategy::Static);
    o.merging.qceZeta = zeta;
    return runSource(source, o);
  };
  Outcome paper = run("v", 1);
  EXPECT_EQ(paper.stats.forks, 2u) << "merged at the join; v > 10 forks the merged state";
  EXPECT_EQ(paper.stats.merging.merges, 2u);
  Outcome costly = run("v", 4);
  EXPECT_EQ(costly.stats.forks, 3u) << "apart at the join: each state forks on v > 10";
  EXPECT_EQ(costly.stats.merging.merges, 3u) << "the four meet at the return";
  EXPECT_EQ(costly.stats.pathsCompleted, 1u);
  Outcome same = run("y", 4);
  EXPECT_EQ(same.stats.forks, 2u) << "y is the same in both: merged at the join";
  EXPECT_EQ(same.stats.merging.merges, 2u);
}

// A cold variable: an accumulator no branch reads (the paper's `sleep`). Every fork of the
// loop merges at its join, so eight symbolic bytes end in one path instead of 256.
TEST_F(QceMergingTest, AccumulatorForksMergeAtEachJoin) {
  const std::string program = accumulator(8);
  Outcome plain = runSource(program, with(MergeStrategy::None));
  EXPECT_EQ(plain.stats.pathsCompleted, 256u);
  Outcome ssm = runSource(program, with(MergeStrategy::Static));
  EXPECT_EQ(ssm.stats.pathsCompleted, 1u);
  EXPECT_EQ(ssm.stats.merging.merges, 8u);
  EXPECT_EQ(ssm.stats.merging.multiplicity, 256u);
  // Under DSM the driving searcher (random states, the paper's for exhaustive runs) picks anew
  // at every block entry near a fork, so the states stay within a few blocks of each other, and fast-forwarding
  // catches the laggards up: nearly as few paths as SSM, each counted with the paths it stands
  // for. (With the driving searcher keeping one state for a burst of picks, the leader ran
  // hundreds of blocks ahead and about 150 paths remained.)
  Outcome dsm = runSource(program, with(MergeStrategy::Dynamic, SearchStrategy::RandomState));
  EXPECT_LE(dsm.stats.pathsCompleted, 4u); // 3 with the default seed
  EXPECT_EQ(dsm.stats.merging.multiplicity, 256u);
  EXPECT_GT(dsm.stats.merging.fastForwardedMerged, 0u);
  // Breadth-first runs a state until it forks, so the side of a fork it does not run waits at
  // its successor's entry; it must wait there as a state that stopped would (both sides of a
  // fork arrive where they stand), or the sibling arriving at the join later finds no one and
  // nothing merges (256 paths, as before they did).
  Outcome bfs = runSource(program, with(MergeStrategy::Dynamic, SearchStrategy::Bfs));
  EXPECT_LE(bfs.stats.pathsCompleted, 4u); // 2
  EXPECT_EQ(bfs.stats.merging.multiplicity, 256u);
}

// Far from a fork, with no state to catch up and none behind it, a DSM state would be picked
// again at every block entry: it runs on instead, so that the driving searcher sees the picks it
// would see without merging. Here each side of the one fork runs a 300-iteration loop that
// forks no more: some 1800 block entries, of which a state stops at the first dsmDistance after
// the fork (and where the sides meet again).
TEST_F(QceMergingTest, DynamicMergingLetsAStateFarFromAForkRunOn) {
  const char *program = "int main(void) {\n"
                        "  int x, sum = 0, step = 5;\n"
                        "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                        "  if (x > 10) step = 3; else step += 2;\n"
                        "  for (int i = 0; i < 300; ++i)\n"
                        "    sum += i % 7 == 0 ? step : 1;\n"
                        "  return sum;\n"
                        "}\n";
  Outcome dsm = runSource(program, with(MergeStrategy::Dynamic, SearchStrategy::RandomState));
  EXPECT_EQ(dsm.stats.merging.multiplicity, 2u);
  EXPECT_GT(dsm.stats.merging.stops, 0u);
  EXPECT_LT(dsm.stats.merging.stops, 100u) << "a state stopped at most block entries of its loop";
}

// A tokenizer's state machine (tests/bench/merging/state-machine.c): `state` is hot in the
// loop, so paths in different states run apart to its end, where nothing is hot. Under DSM the
// first state at main's return used to end before the others came (19-31 tests at N=9, seeds
// 1-3, against static merging's one); gathered there until no other state runs, all of them
// merge into one, under any seed of the driving searcher.
TEST_F(QceMergingTest, DynamicMergingGathersTheStatesAtTheProgramsReturn) {
  const char *program = "int main(void) {\n"
                        "  char in[5];\n"
                        "  klee_make_symbolic(in, sizeof in, \"in\");\n"
                        "  int state = 0, tokens = 0;\n"
                        "  for (int i = 0; i < 5; ++i) {\n"
                        "    char c = in[i];\n"
                        "    if (state == 0) { if (c >= 'a' && c <= 'z') state = 1; else if (c == '\"') state = 2; }\n"
                        "    else if (state == 1) { if (!(c >= 'a' && c <= 'z')) { state = 0; ++tokens; } }\n"
                        "    else if (c == '\"') { state = 0; ++tokens; }\n"
                        "  }\n"
                        "  return tokens;\n"
                        "}\n";
  for (uint64_t seed : {1, 2, 3}) {
    Outcome dsm = runSource(program, dynamicWithSeed(seed));
    EXPECT_EQ(dsm.stats.pathsCompleted, 1u) << "seed " << seed;
    EXPECT_EQ(dsm.tests.size(), 1u) << "seed " << seed;
  }
}

// The paper's sleep over ten arguments of up to three digits under DSM: by Eq. 2 the digit
// index is cold where the estimate counts every argument still to come (QueryCountsTest), so
// a laggard merged into a state an iteration ahead of it and every later read of the argument
// was at a symbolic index. Hot as an index (the default), the merged states are in the same
// iteration: at most half the solver queries (cairn run on tests/bench/merging/sleep-sum.c
// with -DN=10: 38 against 141).
TEST_F(QceMergingTest, DynamicMergingKeepsStatesInDifferentIterationsApart) {
  const std::string program = sleepOverTenArguments("klee_make_symbolic(arg, sizeof arg, \"arg\");");
  Outcome hot = runSource(program, with(MergeStrategy::Dynamic, SearchStrategy::RandomState));
  ExecutorOptions paper = with(MergeStrategy::Dynamic, SearchStrategy::RandomState);
  paper.merging.qceAddressesHot = false;
  Outcome cold = runSource(program, paper);
  EXPECT_GT(hot.stats.merging.merges, 0u);
  EXPECT_LE(2 * hot.stats.solverQueries, cold.stats.solverQueries)
      << hot.stats.solverQueries << " solver queries with the index hot, " << cold.stats.solverQueries << " cold";
}

// The paper's sleep over ten arguments under DSM: the first state to leave an argument's digit
// loop used to run on into the next argument's loop before the others left theirs, and met them
// there pair by pair, each partial merge forking again (sleep-sum.c at N=5: 111 merges and 3330
// instructions against SSM's 30 and 774). Waiting at the loop's exit while states are still
// inside it (LoopPopulation.h), the states leave each argument merged into one, as under SSM,
// whatever the driving searcher's seed.
TEST_F(QceMergingTest, DynamicMergingHoldsAStateAtALoopsExitForTheStatesStillInside) {
  const std::string program = sleepOverTenArguments("klee_make_symbolic(arg, sizeof arg, \"arg\");");
  Outcome ssm = runSource(program, with(MergeStrategy::Static));
  for (uint64_t seed : {1, 2, 3}) {
    ExecutorOptions o = dynamicWithSeed(seed);
    Outcome without = runSource(program, o);
    EXPECT_EQ(without.stats.merging.exitHolds, 0u) << "seed " << seed << ": only with --dsm-hold-exits";
    EXPECT_GT(without.stats.merging.merges, ssm.stats.merging.merges) << "seed " << seed;
    o.merging.holdLoopExits = true;
    Outcome dsm = runSource(program, o);
    EXPECT_GT(dsm.stats.merging.exitHolds, 0u) << "seed " << seed;
    EXPECT_EQ(dsm.stats.merging.merges, ssm.stats.merging.merges) << "seed " << seed;
    EXPECT_LE(dsm.stats.instructions, ssm.stats.instructions + ssm.stats.instructions / 10) << "seed " << seed;
    EXPECT_EQ(dsm.stats.pathsCompleted, 1u) << "seed " << seed;
  }
}

// A scan whose exit index is branched on after the loop: states leaving at different indices
// differ in a hot value and never merge at the exit. The first to leave waits there; the next
// to leave meets it, merges with nothing, and from then on no state waits at that exit (each
// used to wait out the states still inside: 7 waits, to merge nowhere).
TEST_F(QceMergingTest, DynamicMergingStopsHoldingAtAnExitWhereLeavingStatesDoNotMerge) {
  const char *program = "int main(void) {\n"
                        "  char s[8];\n"
                        "  klee_make_symbolic(s, sizeof s, \"s\");\n"
                        "  s[7] = 0;\n"
                        "  int i = 0;\n"
                        "  while (s[i] != 0 && s[i] != ',')\n"
                        "    ++i;\n"
                        "  if (i > 2)\n"
                        "    return 1;\n"
                        "  return 0;\n"
                        "}\n";
  for (uint64_t seed : {1, 2, 3}) {
    ExecutorOptions o = dynamicWithSeed(seed);
    o.merging.holdLoopExits = true;
    Outcome dsm = runSource(program, o);
    EXPECT_EQ(dsm.stats.merging.exitHolds, 1u) << "seed " << seed;
    EXPECT_EQ(dsm.stats.pathsCompleted, 1u) << "seed " << seed << ": merged at the return";
  }
}

// Figure 1's echo, with the paper's alpha = 0.5, beta = 0.6, kappa = 1 (H(7) = {arg}), the
// "-n" test a symbolic flag and the arguments concrete, so that the only fork is the flag's.
// The two states at the join on line 6 differ in arg and r: arg is hot, they stay apart;
// without the ++arg they differ in r alone, which is cold: they merge at line 6, and the
// merged r forks at `if (r)`. (They print different amounts, so they never merge at the return.)
TEST_F(QceMergingTest, EchoStatesAtTheJoinMergeWhenOnlyTheColdVariableDiffers) {
  auto echo = [](const char *flagged) {
    return std::string("int putchar(int);\n"
                       "int echo(int argc, char **argv, const char *isFlag) {\n"
                       "  int r = 1, arg = 1;\n"
                       "  if (arg < argc)\n"
                       "    if (isFlag[arg]) {\n") +
           flagged +
           "    }\n"
           "  for (; arg < argc; ++arg)\n"
           "    for (int i = 0; argv[arg][i] != 0; ++i)\n"
           "      putchar(argv[arg][i]);\n"
           "  if (r)\n"
           "    putchar('\\n');\n"
           "  return 0;\n"
           "}\n"
           "int main(void) {\n"
           "  char flags[3];\n"
           "  klee_make_symbolic(flags, sizeof flags, \"flags\");\n"
           "  char *argv[] = {\"echo\", \"ab\", \"c\", 0};\n"
           "  return echo(3, argv, flags);\n"
           "}\n";
  };
  ExecutorOptions o = with(MergeStrategy::Static);
  o.merging.qceAlpha = 0.5;
  o.merging.qceBeta = 0.6;
  o.merging.qceKappa = 1;
  Outcome both = runSource(echo("      r = 0; ++arg;\n").c_str(), o);
  EXPECT_EQ(both.stats.forks, 1u);
  EXPECT_EQ(both.stats.merging.merges, 0u);
  EXPECT_EQ(both.stats.pathsCompleted, 2u);
  Outcome rAlone = runSource(echo("      r = 0;\n").c_str(), o);
  EXPECT_EQ(rAlone.stats.merging.merges, 1u);
  EXPECT_EQ(rAlone.stats.forks, 2u) << "the merged r = ite(flag, 0, 1) forks at if (r)";
  EXPECT_EQ(rAlone.stats.pathsCompleted, 2u);
}

// Figure 2 (logPacketHash): the hash loop's states differ in the hot, concrete `h`, so they
// cannot merge.
// Static merging runs them all before anything after the join; dynamic merging lets the
// driving searcher take the cheap side to handlePacket first.
TEST_F(QceMergingTest, DynamicMergingDoesNotHoldTheCheapSideBack) {
  const char *program = "static int handled;\n"
                        "static int computeHash(unsigned char *p) {\n"
                        "  int h = 7;\n"
                        "  for (int i = 0; i < 10; ++i)\n"
                        "    if (p[i] > 100) h = h * 31 + 1; else h ^= 5;\n"
                        "    if (h % 7 == 3) h += 2;\n"
                        "  return h;\n"
                        "}\n"
                        "static void handlePacket(unsigned char *p) {\n"
                        "  handled = p[0];\n"
                        "}\n"
                        "int main(void) {\n"
                        "  unsigned char pkt[10];\n"
                        "  int logHash, hash = 0;\n"
                        "  klee_make_symbolic(pkt, sizeof pkt, \"pkt\");\n"
                        "  klee_make_symbolic(&logHash, sizeof logHash, \"logHash\");\n"
                        "  if (logHash)\n"
                        "    hash = computeHash(pkt);\n"
                        "  handlePacket(pkt);\n"
                        "  return hash;\n"
                        "}\n";
  const uint32_t handleLine = kEnginePreludeLines + 10;
  auto reachesHandlePacket = [&](MergeStrategy s) {
    ExecutorOptions o = with(s, SearchStrategy::Bfs);
    o.maxInstructions = 4000;
    Outcome out = runSource(program, o);
    for (const ErrorReport &e : out.stats.errors)
      ADD_FAILURE() << e.message;
    return std::count_if(out.stats.coveredLines.begin(), out.stats.coveredLines.end(),
                         [&](uint64_t key) { return uint32_t(key) == handleLine; }) > 0;
  };
  EXPECT_FALSE(reachesHandlePacket(MergeStrategy::Static));
  EXPECT_TRUE(reachesHandlePacket(MergeStrategy::Dynamic));
  EXPECT_TRUE(reachesHandlePacket(MergeStrategy::None));
}

// States that printed the same amount merge; a byte they printed differently is a symbolic
// byte of the merged state, and each test has the byte its own inputs print.
TEST_F(QceMergingTest, OutputsOfOneLengthMergeByteByByte) {
  const char *program = "int putchar(int);\n"
                        "int main(void) {\n"
                        "  unsigned char c[2];\n"
                        "  klee_make_symbolic(c, sizeof c, \"c\");\n"
                        "  putchar(c[0] > 'm' ? 'y' : 'n');\n"
                        "  if (c[0] > 'm') putchar('+'); else putchar('-');\n"
                        "  putchar('\\n');\n"
                        "  if (c[1] == 'q') putchar('!');\n"
                        "  return 0;\n"
                        "}\n";
  Outcome merged = runSource(program, with(MergeStrategy::Static));
  EXPECT_GE(merged.stats.merging.merges, 1u);
  EXPECT_EQ(merged.stats.pathsCompleted, 2u) << "c[0] > 'm' merged; c[1] == 'q' prints more on one side";
  ASSERT_EQ(merged.tests.size(), 2u);
  for (const TestCase &t : merged.tests) {
    const uint8_t c0 = t.objects.at(0).second.at(0);
    const bool q = t.objects.at(0).second.at(1) == 'q';
    EXPECT_EQ(t.output, std::string(c0 > 'm' ? "y+\n" : "n-\n") + (q ? "!" : "")) << "c[0] = " << int(c0);
  }
}

} // namespace

// klee_assume(x > 5) contradicts the path x <= 0 (a user error there) but not the merged path
// x <= 0 || x > 0: the states at the join before it stay apart under either strategy and any
// driving searcher, and the error is reported as without merging. Static merging has them
// meet at the join, where the merge is refused; without the klee_assume the same states merge
// there (IntroductionExampleBecomesOneState).
TEST_F(QceMergingTest, StatesBeforeAKleeAssumeStayApart) {
  const char *program = "int main(void) {\n"
                        "  int x, y;\n"
                        "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                        "  if (x <= 0) y = 1; else y = 2;\n"
                        "  klee_assume(x > 5);\n"
                        "  return y;\n"
                        "}\n";
  Outcome plain = runSource(program, with(MergeStrategy::None));
  ASSERT_EQ(plain.errors().size(), 1u);
  for (MergeStrategy strategy : {MergeStrategy::Static, MergeStrategy::Dynamic})
    for (SearchStrategy search : {SearchStrategy::Dfs, SearchStrategy::Bfs, SearchStrategy::RandomState}) {
      Outcome merged = runSource(program, with(strategy, search));
      EXPECT_EQ(merged.errors(), plain.errors()) << int(strategy) << " " << int(search);
      EXPECT_EQ(merged.stats.merging.merges, 0u);
      if (strategy == MergeStrategy::Static) {
        EXPECT_GT(merged.stats.merging.refused, 0u) << "the states met at the join and were kept apart";
      }
    }
}

// A length computed in a loop and returned, which the caller then indexes with: the caller's
// count on the call's result reaches the callee's n through the returned value, so n is hot
// at the callee's return and the states there (n = 0, 1, 2, 3) stay apart; the caller reads
// table[n] at a concrete offset on each. With every variable cold (alpha past any count, and
// the address rule off: through the returned value n reaches table[n]'s address, which makes
// it hot whatever its count) they merge at the return and the caller's read is at the merged,
// symbolic n.
TEST_F(QceMergingTest, AReturnedLengthTheCallerIndexesWithIsHotInTheCallee) {
  const char *program = "static const char table[8] = \"abcdefg\";\n"
                        "static unsigned length(const char *s) {\n"
                        "  unsigned n = 0;\n"
                        "  while (s[n]) ++n;\n"
                        "  return n;\n"
                        "}\n"
                        "int main(void) {\n"
                        "  char s[4];\n"
                        "  klee_make_symbolic(s, sizeof s, \"s\");\n"
                        "  s[3] = 0;\n"
                        "  return table[length(s)];\n"
                        "}\n";
  Outcome kept = runSource(program, with(MergeStrategy::Static));
  EXPECT_EQ(kept.stats.memory.symbolicAccesses, 0u);
  EXPECT_GT(kept.stats.merging.refused + kept.stats.pathsCompleted, 1u);
  ExecutorOptions countsCold = with(MergeStrategy::Static);
  countsCold.merging.qceAlpha = 1e300;
  EXPECT_EQ(runSource(program, countsCold).stats.memory.symbolicAccesses, 0u)
      << "n reaches an address through the returned value: hot whatever alpha";
  ExecutorOptions cold = countsCold;
  cold.merging.qceAddressesHot = false;
  Outcome merged = runSource(program, cold);
  EXPECT_GT(merged.stats.memory.symbolicAccesses, 0u) << "table[n] at the merged n";
}
