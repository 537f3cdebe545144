// The symbolic executor: runs a Program's states, forks them on symbolic decisions, checks
// memory accesses and reports every finished path and error to a ResultSink.
#pragma once

#include "cairn/engine/BranchTransform.h"
#include "cairn/engine/Environment.h"
#include "cairn/engine/MemoryModel.h"
#include "cairn/engine/PathPrefix.h"
#include "cairn/engine/Program.h"
#include "cairn/engine/Searcher.h"
#include "cairn/engine/SizeModel.h"
#include "cairn/solver/SolverChain.h"

#include <csignal>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cairn::engine {

struct ErrorReport {
  std::string type; // KLEE's names: ptr, free, div, assert, abort, overflow, exec, model, user
  std::string kind; // out-of-bounds, null, use-after-free, double-free, ...
  std::string message;
  std::string file;
  uint32_t line = 0;
  std::vector<std::string> stack; // innermost first: "function at file:line"
};

struct TestCase {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> objects;
  std::optional<ErrorReport> error;
  bool partial = false;     // the path was cut short (limit, solver failure)
  std::string endReason;    // for partial paths
  std::vector<uint8_t> path; // branch decisions
  std::string output;       // what the program printed on this path
  // Under the full libc: stderr apart from stdout, and exit()'s status; `recordsOutput`: the
  // output directory keeps them beside the test.
  std::string errorOutput;
  std::optional<int> exitStatus;
  bool recordsOutput = false;
};

class ResultSink {
public:
  virtual ~ResultSink() = default;
  virtual void onTest(const TestCase &test) = 0;
};

// The C library's math functions the engine computed (interpreter/MathFunctions.h).
struct FloatStats {
  uint64_t libraryCalls = 0;     // floor, sqrt, frexp, ...: as floating-point terms
  uint64_t concretisedCalls = 0; // sin, exp, log, ...: calls whose symbolic arguments were made concrete
};

// What --max-memory did: states ended by its soft side, and runs the hard ceiling (the heap
// the run began with, the limit and a margin) stopped whole (0 or 1; a job's: its items).
struct MemoryLimitStats {
  uint64_t limitMB = 0, ceilingMB = 0; // 0: no limit
  uint64_t statesEnded = 0;
  uint64_t runsStopped = 0;
};

struct RunStatistics {
  uint64_t pathsCompleted = 0;
  uint64_t pathsPartial = 0;
  uint64_t tests = 0;
  uint64_t instructions = 0;
  uint64_t replayInstructions = 0; // rebuilding the start states from ExecutorOptions::starts
  double replaySeconds = 0;        // spent rebuilding them
  uint64_t forks = 0;
  uint64_t queries = 0;
  uint64_t solverQueries = 0;
  double solverSeconds = 0;
  double wallSeconds = 0;
  uint64_t linesCovered = 0;
  uint64_t linesTotal = 0;
  std::vector<uint64_t> coveredLines; // (file index << 32) | line, for merging runs' coverage
  // Per branch of the program's decisions (Program::branchTargets): 1 when some path took it.
  std::vector<uint8_t> branchesTaken;
  // Line coverage per source file of the program, in the program's order of files.
  struct FileCoverage {
    std::string file;
    uint64_t covered = 0, total = 0;
  };
  std::vector<FileCoverage> files;
  std::vector<ErrorReport> errors;
  std::vector<SolverLayerStats> solverLayers;
  MemoryModelStats memory;
  MergeStats merging;
  FloatStats floats;
  MemoryLimitStats memoryLimit;
  // Under the symbolic-size model only: the sizes it did not explore.
  std::optional<SizeBoundStats> sizeBound;
  // With --transform-branches only: what the transformation did, and the errors it filtered.
  std::optional<BranchTransformStats> transform;

  // Answers of the address-aware cache that validation (--validate-address-cache) found the
  // solver contradicting: a run with any has a wrong answer somewhere.
  uint64_t addressCacheMismatches() const;
};

struct ExecutorOptions {
  SearchStrategy search = SearchStrategy::Default;
  uint64_t seed = 1;
  double maxTimeSeconds = 0;      // 0: none
  uint64_t maxInstructions = 0;   // 0: none
  uint64_t maxForks = 0;          // 0: none
  uint32_t maxDepth = 0;          // symbolic branches per path; 0: none
  // As KLEE's default keeps a run from taking the machine: a real program's states can each
  // hold megabytes (its stdio buffers), thousands of them more than the machine has.
  uint64_t maxMemoryMB = 4000;    // 0: none
  // A path with this many frames ends as a partial path (KLEE's default); 0: none.
  uint64_t maxStackFrames = 8192;
  // The native stack: a path whose frames need more (StackUsage.h) is a stack overflow; 0: none.
  uint64_t stackSizeBytes = uint64_t(8) << 20;
  SolverChainOptions solver;
  MemoryModelOptions memory;
  SizeModelOptions sizeModel;
  MergeOptions merging;
  // Applied when the program is loaded (transformBranches); the engine filters the errors of
  // extra instructions whenever the program carries melded ones.
  BranchTransformOptions transform;
  // Floating-point operations on symbolic values make float expressions (--float symbolic);
  // off, such an operand is concretised where the path fixes it and a model error otherwise.
  bool symbolicFloats = true;
  bool checkOverflow = false;  // signed overflow of C's int arithmetic is an error
  bool checkOvershift = false; // shifting by the width or more is an error
  bool checkLeaks = false;      // heap memory unreachable at the program's end is an error
  bool checkMemcleanup = false; // heap memory not freed at the program's end is an error
  // A test only for a path that covered a new line or branch edge, and for every error (KLEE's
  // --only-output-states-covering-new).
  bool onlyNewCoverageTests = false;
  // The runtime's string and memory functions run natively when every byte they touch is
  // concrete and in bounds (their C bodies otherwise): --no-native-strings turns it off.
  bool nativeStringFunctions = true;
  // When set and true, the run stops as if a limit was reached (e.g. set from a SIGINT handler).
  const volatile std::sig_atomic_t *stopRequested = nullptr;
  // Called about twice a second with the statistics so far and the number of live states.
  std::function<void(const RunStatistics &, size_t)> onProgress;
  std::vector<std::string> programArgs; // argv[1..]
  // envp of an entry function with three parameters or more (main(argc, argv, envp)), each
  // NAME=VALUE; none: an empty environment (envp[0] is NULL).
  std::vector<std::string> environment;
  // The libc and, under the full one, the POSIX model's symbolic inputs.
  EnvironmentOptions posix;
  // Distributed exploration: the run starts at these prefixes (none: at the entry), each
  // replayed without asking the solver for any decision, and explores only below them.
  std::vector<PathPrefix> starts;
  // States whose choices begin with one of these are left alone: another item explores them.
  std::vector<PathPrefix> excluded;
  // Receives the states handed back after requestSplit (from the run's thread; possibly none):
  // at least as many as asked for while two or more are left, and more until they hold about
  // half of the work, judged by depth.
  std::function<void(std::vector<PathPrefix>)> onSplit;
};

class Executor {
public:
  Executor(const Program &program, ExecutorOptions options, ResultSink &sink);
  ~Executor();
  RunStatistics run();
  // Asks the running run() to hand up to `count` live states to onSplit as prefixes and drop
  // them; it keeps at least one, so with a single state it waits until there are two (or the
  // run ends without answering). Safe from any thread.
  void requestSplit(size_t count);
  // Live states now. Safe from any thread.
  size_t liveStates() const;

private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace cairn::engine
