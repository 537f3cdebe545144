// How the engine merges states: regions (klee_open_merge), size-dependent loops (the
// symbolic-size model's merge modes), and whole states under a merging strategy.
#pragma once

#include <cstdint>
#include <string>

namespace cairn::engine {

// The merging strategies driven by query count estimation (Kuznetsov et al., PLDI'12):
//   none  no merging of whole states (regions and size-dependent loops still merge)
//   ssm   static state merging: states run in topological order of their positions, and
//         states that meet at a block entry merge when the QCE similarity allows it
//   dsm   dynamic state merging: the driving searcher chooses, except that a state whose
//         position and hot values match one of the last dsmDistance block entries of another
//         state runs first (fast-forwarded) to catch up with it, and merges where it does
enum class MergeStrategy : uint8_t { None, Static, Dynamic };
bool parseMergeStrategy(const std::string &name, MergeStrategy &out);
const char *mergeStrategyName(MergeStrategy s);

struct MergeOptions {
  // A group of more states than this leaving one merge point continues unmerged.
  uint64_t maxStates = 10000;
  // Loops that call functions of the program (not intrinsics or external declarations) are
  // not merged: the chapter's default, since their states rarely stay compatible.
  bool loopsWithCalls = false;
  // Region merges (klee_open_merge) build their formulas from the execution tree; false:
  // from each state's path condition. Loop merges follow the size mode (merge-opt: the tree).
  bool treeEncoding = true;
  // Region merges first split each group into its regular partitions and merge each with a
  // quantifier where its patterns synthesize (state merging with quantifiers); a partition
  // whose patterns do not is merged as above.
  bool quantifiedEncoding = false;
  // Inside merge contexts, a fork's side merges at once with a state waiting unrun at the same
  // place with the same live store (incremental merging, merging/IncrementalMerging.h).
  bool incremental = false;
  // Each quantified merge checked against its paths with the solver (Theorem 6.2.7), and each
  // answer of the quantified solver layer against the core's.
  bool validate = false;

  MergeStrategy strategy = MergeStrategy::None;
  // QCE (the paper's defaults): hot variables are those with Q_add > alpha * Q_t; each side of
  // a branch is feasible with probability beta; loops without a static trip count run kappa
  // iterations.
  double qceAlpha = 1e-12;
  double qceBeta = 0.8;
  uint32_t qceKappa = 10;
  // A query with an `ite` a merge made costs zeta times one without (the paper's §3.3, Eq. 7):
  // above 1, a variable symbolic in either state and different in the two also keeps them apart
  // when (zeta - 1) times its count, plus the largest count of a concretely different one,
  // exceeds alpha * Q_t. 1: the paper's prototype (Eq. 1), where only concrete differences count.
  double qceZeta = 1;
  // A variable whose value reaches an address ahead is hot whatever its count
  // (analysis::QceOptions::addressesHot); false: the paper's Eq. 2 alone.
  bool qceAddressesHot = true;
  // A variable whose value reaches a floating-point query is hot whatever its count
  // (analysis::QceOptions::floatsHot); false: the paper's Eq. 2 alone.
  bool qceFloatsHot = true;
  uint32_t dsmDistance = 8; // basic blocks of history per state (delta)
  // DSM: a state leaving a loop waits at the exit for the states still inside (exhaustive
  // runs: they merge there as under SSM; partial runs lose coverage by it).
  bool holdLoopExits = false;
};

struct MergeStats {
  uint64_t contexts = 0;        // merge regions and size-dependent loops opened
  uint64_t merges = 0;          // groups merged into one state
  uint64_t statesMerged = 0;    // states that went into those merges
  uint64_t refused = 0;         // groups left unmerged (incompatible states, too many states)
  uint64_t earlyTerminated = 0; // states of a context that ended before its merge point
  uint64_t constraintNodes = 0; // size of the merged path conditions (distinct nodes, summed)
  uint64_t valueNodes = 0;      // size of the merged register and memory values
  uint64_t sizeForks = 0;       // eager mode: states forked per feasible allocation size
  uint64_t symbolicSizeObjects = 0;
  // The QCE strategies (MergeStrategy):
  uint64_t multiplicity = 0;      // paths ended, each counted with its multiplicity
  uint64_t fastForwarded = 0;     // DSM: states picked ahead of the driving searcher
  uint64_t fastForwardedMerged = 0; // ... that merged before the driving searcher took over
  uint64_t stops = 0;               // block entries where a state stopped for the searcher
  uint64_t exitHolds = 0;           // DSM: states that waited at a loop's exit for the loop's others
  // Merging with quantifiers (--merge-encoding quantified):
  uint64_t patterns = 0;            // regular partitions found (ω1 ω2^k ω3, more than one path)
  uint64_t quantifiedMerges = 0;    // ... merged with a quantifier
  uint64_t quantifiedFallbacks = 0; // ... whose patterns did not synthesize: merged the standard way
  uint64_t incrementalMerges = 0; // --incremental-merging: pairs merged at a fork's target
  uint64_t snapshotMerges = 0;    // of them, with a state that had run on since (a snapshot)
  uint64_t statesDiscarded = 0;   // the states those had become, discarded
  // --validate-merges:
  uint64_t mergesValidated = 0; // quantified merges checked against their paths
  uint64_t mismatches = 0;      // merges the check refuted, and quantified-layer answers the core contradicted
  uint64_t qceFunctions = 0;      // functions the query count estimate covers
  double qceSeconds = 0;          // time in the estimate
};

} // namespace cairn::engine
