// Exploring a program as work items (prefixes split off a run and explored by other Executors)
// finds exactly the paths, errors and instruction counts of one Executor exploring it alone.
#include "RunSource.h"
#include "cairn/engine/Executor.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"

#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <thread>

using namespace cairn;
using namespace cairn::engine;
namespace fs = std::filesystem;

namespace {

// Symbolic branches, a symbolic pointer resolved to several objects and out of bounds, a
// concretized allocation size, symbolic bytes printed, a division by zero and a failed check.
const char *kProgram =
    "void klee_make_symbolic(void *, unsigned long, const char *);\n"
    "void klee_report_error(const char *, int, const char *, const char *);\n"
    "void *malloc(unsigned long);\nvoid free(void *);\nint printf(const char *, ...);\n"
    "int a[4], b[3];\n"
    "int main(void) {\n"
    "  unsigned char in[4]; klee_make_symbolic(in, sizeof in, \"in\");\n"
    "  int n = 0;\n"
    "  for (int k = 0; k < 3; ++k) if (in[k] > 40 * k) n++;\n"
    "  int *p = in[0] & 1 ? &a[in[1] % 8] : &b[in[1] % 4];\n" // line 11: may be out of bounds
    "  *p = n;\n"
    "  unsigned size = (in[2] & 3) + 1;\n"
    "  char *m = malloc(size); m[0] = 1; free(m);\n"
    "  printf(\"%d\\n\", in[3] & 1);\n"
    "  if (in[3] == 7) return 100 / (in[2] - in[2]);\n" // line 16: division by zero
    "  if (in[3] == 9 && n == 3) klee_report_error(\"p.c\", 17, \"found\", \"assert.err\");\n"
    "  return n;\n}\n";

struct Outcome {
  std::set<std::string> paths;       // path ids of the tests without an error
  std::set<std::string> errorSites;  // type/kind@line
  std::multiset<std::string> allIds; // every test's path id, to see duplicates
  uint64_t pathsCompleted = 0, pathsPartial = 0, instructions = 0, forks = 0, items = 0;
};

class Collector : public ResultSink {
public:
  explicit Collector(Outcome &out) : out_(out) {}
  Executor *executor = nullptr;
  size_t splitEvery = 0; // ask for a split after this many tests (0: never)
  size_t splitCount = 2;  // of this many states
  size_t splitsLeft = SIZE_MAX;

  void onTest(const TestCase &t) override {
    std::string id = pathId(t.path);
    out_.allIds.insert(id);
    if (t.error)
      out_.errorSites.insert(t.error->type + "/" + t.error->kind + "@" + std::to_string(t.error->line));
    else
      out_.paths.insert(id);
    if (splitEvery && executor && splitsLeft && ++seen_ % splitEvery == 0) {
      executor->requestSplit(splitCount);
      --splitsLeft;
    }
  }

private:
  Outcome &out_;
  size_t seen_ = 0;
};

class SplitExplorationTest : public ::testing::Test {
protected:
  fs::path dir = fs::temp_directory_path() /
                 ("cairn-split-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::unique_ptr<Program> program;
  std::unique_ptr<LoadedModule> module;

  void SetUp() override {
    fs::create_directories(dir);
    load(kProgram);
  }
  void load(const char *source) {
    unit::CompiledSource compiled = unit::compileWithoutRuntime(dir, source);
    module = std::move(compiled.module);
    program = std::move(compiled.program);
  }
  void TearDown() override { fs::remove_all(dir); }

  std::function<void(ExecutorOptions &)> configure; // more options for every run

  ExecutorOptions options(SearchStrategy search) {
    ExecutorOptions eo;
    eo.search = search;
    eo.solver.timeoutSeconds = 10;
    if (configure)
      configure(eo);
    return eo;
  }

  static void add(Outcome &out, const RunStatistics &st) {
    out.pathsCompleted += st.pathsCompleted;
    out.pathsPartial += st.pathsPartial;
    out.instructions += st.instructions;
    out.forks += st.forks;
    ++out.items;
  }

  Outcome alone(SearchStrategy search) {
    Outcome out;
    Collector sink(out);
    Executor ex(*program, options(search), sink);
    add(out, ex.run());
    return out;
  }

  // Items are explored one after the other; each asks for splits as it finds tests, and every
  // prefix it hands back becomes an item of its own (or, `grouped`, each split's prefixes
  // become one item that starts from all of them).
  Outcome asItems(SearchStrategy search, std::vector<PathPrefix> *firstSplits = nullptr,
                  bool grouped = false, bool asynchronous = false) {
    Outcome out;
    std::deque<std::vector<PathPrefix>> queue{{}};
    bool first = true;
    while (!queue.empty()) {
      std::vector<PathPrefix> starts = std::move(queue.front());
      queue.pop_front();
      ExecutorOptions eo = options(search);
      eo.starts = starts;
      const size_t shortest = starts.empty() ? 0 : std::min_element(starts.begin(), starts.end(), [](auto &a, auto &b) {
                                                     return a.choices.size() < b.choices.size();
                                                   })->choices.size();
      eo.onSplit = [&, isFirst = first, shortest](std::vector<PathPrefix> split) {
        for (PathPrefix &p : split) {
          EXPECT_GE(p.choices.size(), shortest);
          if (isFirst && firstSplits)
            firstSplits->push_back(p);
        }
        if (grouped && !split.empty())
          queue.push_back(std::move(split));
        else
          for (PathPrefix &p : split)
            queue.push_back({std::move(p)});
      };
      first = false;
      Collector sink(out);
      sink.splitEvery = 2;
      Executor ex(*program, eo, sink);
      sink.executor = &ex;
      ex.requestSplit(3);
      // As a coordinator asks: at any moment, from another thread, wherever the run is.
      std::atomic<bool> running{asynchronous};
      std::thread asker([&] {
        while (running.load()) {
          ex.requestSplit(1);
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
      });
      RunStatistics st = ex.run();
      running = false;
      asker.join();
      add(out, st);
      uint64_t replay = 0;
      for (const PathPrefix &p : starts)
        replay += p.instructions;
      EXPECT_LE(st.replayInstructions, replay); // what start prefixes share is rebuilt once
    }
    return out;
  }

  void expectItemsFindWhatOneRunFinds(SearchStrategy search, size_t minPaths = 10) {
    Outcome one = alone(search);
    Outcome many = asItems(search);
    EXPECT_GT(many.items, 3u); // it did split
    EXPECT_GT(one.paths.size(), minPaths);
    EXPECT_EQ(many.paths, one.paths);
    EXPECT_EQ(many.errorSites, one.errorSites);
    EXPECT_EQ(many.pathsCompleted, one.pathsCompleted);
    EXPECT_EQ(many.pathsPartial, 0u);
    EXPECT_EQ(many.instructions, one.instructions);
    EXPECT_EQ(many.forks, one.forks);
    EXPECT_EQ(std::set<std::string>(many.allIds.begin(), many.allIds.end()).size(), many.allIds.size());
  }
};

TEST_F(SplitExplorationTest, ItemsFindTheSamePathsErrorsAndCountsAsOneRun) {
  for (bool grouped : {false, true})
  for (SearchStrategy search : {SearchStrategy::Dfs, SearchStrategy::Bfs, SearchStrategy::Default}) {
    Outcome one = alone(search);
    Outcome many = asItems(search, nullptr, grouped);
    SCOPED_TRACE(std::to_string(int(search)) + (grouped ? ", one item per split" : ", one item per prefix"));
    EXPECT_GT(many.items, 3u); // it did split
    EXPECT_GT(one.paths.size(), 10u);
    EXPECT_EQ(many.paths, one.paths);
    EXPECT_EQ(many.errorSites, one.errorSites);
    // out of bounds, division by zero, the report, and the sizes the concretized allocation
    // leaves out (1 to 4 but the one fixed: a model error)
    EXPECT_EQ(many.errorSites.size(), 4u);
    EXPECT_EQ(many.pathsCompleted, one.pathsCompleted);
    EXPECT_EQ(many.pathsPartial, 0u);
    EXPECT_EQ(many.instructions, one.instructions);
    EXPECT_EQ(many.forks, one.forks);
    // Every path is explored once: no path id twice.
    EXPECT_EQ(std::set<std::string>(many.allIds.begin(), many.allIds.end()).size(), many.allIds.size());
  }
}

// Under the relocatable model every object and segment lies where its own state put it, so
// prefixes replay in another Executor (whose other paths allocated differently): with object
// splitting, symbolic sizes and dynamic segments too.
TEST_F(SplitExplorationTest, RelocatableItemsFindWhatOneRunFinds) {
  auto relocatable = [](ExecutorOptions &eo) { eo.memory.kind = MemoryModelKind::Relocatable; };
  const std::vector<std::function<void(ExecutorOptions &)>> configurations = {
      relocatable,
      [&](ExecutorOptions &eo) {
        relocatable(eo);
        eo.memory.splitObjects = true;
        eo.memory.splitThreshold = 8;
        eo.memory.partitionSize = 8;
      },
      [&](ExecutorOptions &eo) {
        relocatable(eo);
        eo.sizeModel.kind = SizeModelKind::Symbolic;
        eo.sizeModel.capacity = 4;
      },
  };
  for (size_t i = 0; i < configurations.size(); ++i) {
    SCOPED_TRACE(i);
    configure = configurations[i];
    expectItemsFindWhatOneRunFinds(SearchStrategy::Dfs);
  }
}

// Each path allocates rows of its own sizes and reads them through a symbolic pointer, which
// merges them into a segment: the segments of a path lie elsewhere than those other paths of
// the same Executor made before, and a prefix records a concretized pointer into one.
const char *kSegmentsProgram =
    "void klee_make_symbolic(void *, unsigned long, const char *);\n"
    "void *malloc(unsigned long);\n"
    "int main(void) {\n"
    "  unsigned char in[8], r, c; klee_make_symbolic(in, sizeof in, \"in\");\n"
    "  klee_make_symbolic(&r, 1, \"r\"); klee_make_symbolic(&c, 1, \"c\");\n"
    "  int n = 0;\n"
    "  for (int k = 1; k < 4; ++k) if (in[k] > 40) n += k;\n"
    "  char *rows[3];\n"
    "  for (int i = 0; i < 3; ++i) rows[i] = malloc(24 + 40 * n + 8 * i);\n"
    "  for (int i = 0; i < 3; ++i) for (int j = 0; j < 16; ++j) rows[i][j] = i + j;\n"
    "  int v = rows[r % 3][c % 16];\n"
    "  for (int k = 4; k < 8; ++k) if (in[k] > 40) n += k;\n"
    "  if (n == 27 && v == 5) return 1;\n"
    "  return v;\n}\n";

TEST_F(SplitExplorationTest, SegmentsReplayWhereTheirStatePutThem) {
  load(kSegmentsProgram);
  // Breadth first, every path makes its segment in the first Executor before any is split off.
  for (auto [depth, search] : {std::pair{-1, SearchStrategy::Bfs}, std::pair{1, SearchStrategy::Default}}) {
    SCOPED_TRACE(depth);
    configure = [depth = depth](ExecutorOptions &eo) {
      eo.memory.kind = MemoryModelKind::Relocatable;
      eo.memory.mergeObjects = true;
      eo.memory.contextDepth = depth;
    };
    expectItemsFindWhatOneRunFinds(search, 8);
  }
}

// A re-issued item that had split off prefixes leaves their subtrees alone, so the job's
// counters do not count them twice.
TEST_F(SplitExplorationTest, ExcludedPrefixesAreLeftToTheirItems) {
  std::vector<PathPrefix> splits;
  Outcome firstTime;
  {
    Collector sink(firstTime);
    ExecutorOptions eo = options(SearchStrategy::Dfs);
    eo.onSplit = [&](std::vector<PathPrefix> s) { splits.insert(splits.end(), s.begin(), s.end()); };
    sink.splitEvery = 2;
    Executor ex(*program, eo, sink);
    sink.executor = &ex;
    add(firstTime, ex.run());
  }
  ASSERT_FALSE(splits.empty());
  Outcome again;
  Collector sink(again);
  ExecutorOptions eo = options(SearchStrategy::Bfs); // another order reaches them differently
  eo.excluded = splits;
  Executor ex(*program, eo, sink);
  add(again, ex.run());
  // Which path of several reaching one error location gets its test depends on the order, so
  // errors compare by location.
  EXPECT_EQ(again.paths, firstTime.paths);
  EXPECT_EQ(again.errorSites, firstTime.errorSites);
  EXPECT_EQ(again.pathsCompleted, firstTime.pathsCompleted);
  EXPECT_EQ(again.forks, firstTime.forks);
}

// An idle worker's request reaches a run that has a single state: the run answers at its first
// fork, with the state nearest the entry, rather than with nothing.
TEST_F(SplitExplorationTest, ASplitAskedOfOneStateIsAnsweredAtTheFirstFork) {
  std::vector<std::vector<PathPrefix>> answers;
  Outcome out;
  Collector sink(out);
  ExecutorOptions eo = options(SearchStrategy::Dfs);
  eo.onSplit = [&](std::vector<PathPrefix> s) { answers.push_back(std::move(s)); };
  Executor ex(*program, eo, sink);
  ex.requestSplit(1);
  add(out, ex.run());
  ASSERT_EQ(answers.size(), 1u);
  ASSERT_EQ(answers[0].size(), 1u);
  // The first fork's other side: about half of the program's paths, the rest explored here.
  Outcome other;
  Collector otherSink(other);
  ExecutorOptions item = options(SearchStrategy::Dfs);
  item.starts = {answers[0][0]};
  Executor ex2(*program, item, otherSink);
  add(other, ex2.run());
  const uint64_t all = alone(SearchStrategy::Dfs).pathsCompleted;
  EXPECT_EQ(out.pathsCompleted + other.pathsCompleted, all);
  EXPECT_GE(4 * other.pathsCompleted, all);
  EXPECT_GE(4 * out.pathsCompleted, all);
}

// Asked for one state, a run hands over about half of its work: under depth-first search the
// state nearest the entry alone (half of what is left), on a breadth-first frontier of alike
// states half of them; one item starting from all of those finds the rest of the paths.
TEST_F(SplitExplorationTest, ASplitHandsOverAboutHalfTheWork) {
  load("void klee_make_symbolic(void *, unsigned long, const char *);\n"
       "int main(void) {\n"
       "  unsigned char in[8]; klee_make_symbolic(in, sizeof in, \"in\");\n"
       "  int n = 0;\n"
       "  for (int k = 0; k < 8; ++k) if (in[k] > 100) n++;\n"
       "  return n;\n}\n");
  for (SearchStrategy search : {SearchStrategy::Dfs, SearchStrategy::Bfs}) {
    SCOPED_TRACE(int(search));
    std::vector<std::vector<PathPrefix>> answers;
    Outcome here;
    Collector sink(here); // asks for one state when the first path ends
    sink.splitEvery = 1;
    sink.splitCount = 1;
    sink.splitsLeft = 1;
    ExecutorOptions eo = options(search);
    eo.onSplit = [&](std::vector<PathPrefix> s) { answers.push_back(std::move(s)); };
    Executor run(*program, eo, sink);
    sink.executor = &run;
    add(here, run.run());
    ASSERT_EQ(answers.size(), 1u);
    if (search == SearchStrategy::Dfs)
      EXPECT_EQ(answers[0].size(), 1u); // the first fork's other side: 128 of the 256 paths
    else
      EXPECT_EQ(answers[0].size(), 128u); // half of the 255 states left after the first path
    Outcome other;
    Collector otherSink(other);
    ExecutorOptions item = options(search);
    item.starts = answers[0];
    Executor rest(*program, item, otherSink);
    const RunStatistics restStats = rest.run();
    add(other, restStats);
    uint64_t replayedApart = 0; // each start rebuilt on its own
    for (const PathPrefix &p : answers[0])
      replayedApart += p.instructions;
    if (search == SearchStrategy::Bfs) // 128 paths that share all but their last forks
      EXPECT_LT(4 * restStats.replayInstructions, replayedApart);
    else
      EXPECT_EQ(restStats.replayInstructions, replayedApart);
    EXPECT_EQ(here.forks + other.forks, 255u); // the forks of one run: none replayed twice
    EXPECT_EQ(here.pathsCompleted + other.pathsCompleted, 256u);
    EXPECT_EQ(other.pathsCompleted, 128u);
    std::multiset<std::string> ids = here.allIds;
    ids.insert(other.allIds.begin(), other.allIds.end());
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 256u);
  }
}

// Between its last recorded choice and the instruction it was handed over at, a start state
// still rebuilds (those instructions were counted by the run that split it off), for many
// slices when the path computes long between forks. A split asked for then must not hand that
// state on: its new item would count the rest of the rebuild again.
TEST_F(SplitExplorationTest, StatesStillRebuildingAreNotSplitOff) {
  load("void klee_make_symbolic(void *, unsigned long, const char *);\n"
       "int main(void) {\n"
       "  unsigned char in[6]; klee_make_symbolic(in, sizeof in, \"in\");\n"
       "  unsigned n = 0;\n"
       "  for (int k = 0; k < 6; ++k) {\n"
       "    if (in[k] > 100) n++;\n"
       "    for (volatile int i = 0; i < 200; ++i) n += i & 1;\n" // many slices between forks
       "  }\n"
       "  return n;\n}\n");
  for (bool grouped : {false, true}) {
    SCOPED_TRACE(grouped);
    Outcome one = alone(SearchStrategy::Bfs);
    Outcome many = asItems(SearchStrategy::Bfs, nullptr, grouped, true);
    EXPECT_GT(many.items, 3u);
    EXPECT_EQ(many.pathsCompleted, one.pathsCompleted);
    EXPECT_EQ(many.forks, one.forks);
    EXPECT_EQ(many.instructions, one.instructions);
  }
}

TEST(PathIdTest, StableAndDistinct) {
  EXPECT_EQ(pathId({1, 0, 1}), pathId({1, 0, 1}));
  EXPECT_NE(pathId({1, 0, 1}), pathId({1, 0, 0}));
  EXPECT_NE(pathId({}), pathId({0}));
  EXPECT_EQ(pathId({}).size(), 16u);
}

} // namespace
