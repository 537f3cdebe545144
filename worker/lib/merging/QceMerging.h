// The merging strategies driven by query count estimation (Kuznetsov et al., PLDI'12): static
// state merging (SSM) and dynamic state merging (DSM), cairn/engine/Merging.h.
//
// Under either, a state stops at every block entry and goes back to the searcher
// (search/MergingSearcher.h picks the next one): the states that are not running wait at block
// entries, so that a state arriving where another waits can merge into it (the merge step of
// the paper's Algorithm 1) when the two are compatible (StateMerging.h) and QCE-similar
// (QceSimilarity.h); a state the searcher would pick again at once runs on (SSM: no state
// waits where it stands; DSM: runsOn). Stopping at joins only would be cheaper, but under SSM a state at a loop
// header ahead of the loop's body (in the topological order) would then run into the next
// iteration before the body's states reach it. DSM also keeps, per state, the hashes of its
// last `dsmDistance` block entries: a state whose hash is among another state's recent ones is
// a candidate to be fast-forwarded; and a state that leaves a loop waits at the exit for the
// states still inside it (LoopPopulation.h).
#pragma once

#include "merging/LiveRegisters.h"
#include "merging/LoopPopulation.h"
#include "merging/QceSimilarity.h"
#include "merging/TopologicalQueue.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/container/inlined_vector.h>

#include <deque>
#include <memory>

namespace cairn::engine {

class Engine;
class MergingSearcher;
class Searcher;
namespace analysis {
class AssumeReach;
}

class QceMerging {
public:
  explicit QceMerging(Engine &engine);
  ~QceMerging();
  bool enabled() const { return similarity_ != nullptr; }
  // The searcher of the strategy over the driving one.
  std::unique_ptr<Searcher> wrap(std::unique_ptr<Searcher> driving);

  // Before an instruction of `s`: true when `s` stopped here, at a block entry: it waits for
  // the searcher's next choice, or it merged into a state waiting here and is gone.
  bool atInstruction(ExecutionState &s);

  // After a slice: the states a fork left at block entries arrive there as a running state
  // would (atInstruction), so that a state reaching the same entry later finds them waiting;
  // until they are picked they would not be. A state that merges is dropped (to be reaped).
  void settleForked();

  // For the searcher: `s` is about to run (it no longer waits where it stands).
  void resumed(const ExecutionState &s);
  // `child` was forked off `parent`: it shares the parent's history.
  void forked(const ExecutionState &parent, ExecutionState &child);
  // `s` left the searcher.
  void forget(const ExecutionState &s);
  // DSM, F of the paper's Algorithm 2 in topological order: the first state standing where
  // another state stood in its last dsmDistance block entries with the same hot values, or
  // nothing. Kept up to date as states move, so that a pick looks at one state, not all.
  ExecutionState *firstToForward();
  // The order states catch up in, the topological order of their positions: a state whose key
  // is less is earlier. Frame by frame from the outermost, the block's place in its function's
  // ControlFlow::loopsFirstOrder (a loop's blocks before its exits), then the instruction; a
  // state still inside a call made where the other stands is earlier.
  std::vector<uint64_t> topologicalKey(const ExecutionState &s);
  // DSM: `s` was picked to catch up (fast-forwarded) or by the driving searcher.
  void picked(ExecutionState &s, bool fastForward);
  // DSM: whether the driving searcher picks anew now that `s` stopped at a block entry, rather
  // than letting it run on as it would without merging: within dsmDistance block entries of a
  // fork, so that the two sides stay near each other and the one behind can catch up.
  bool picksAnewAfter(const ExecutionState &s);
  // DSM, before each pick: the states waiting at a loop's exit go back to the driving searcher
  // once no state is left inside the loop, or once they waited kHoldPicks picks.
  void releaseHeld();

  QceSimilarity &similarity() { return *similarity_; }

private:
  // What the strategy keeps of a state, in the slot the state names (ExecutionState::
  // mergeTrack): a block entry looks it up at every step, and a hash map of tens of thousands
  // of states made that lookup a cache miss.
  struct Track {
    uint64_t owner = 0; // the state's id: a copy names its original's slot until it has its own
    bool live = false;
    std::vector<uint64_t> history; // hashes of the last block entries, oldest first (DSM)
    uint64_t current = 0;
    bool atEntry = false;             // `current` is the hash of where it stands
    uint64_t checkedAt = ~uint64_t(0); // its instruction count when it stopped at this entry
    bool forwarded = false;            // picked to catch up, and not by the driving searcher since
    uint32_t cooldown = 0;             // block entries to go before it may be chased again
    uint32_t nearFork = 0;             // block entries to go in which it is picked anew at each
    bool waiting = false;              // in waiting_, under waitingAt and `current`
    bool symbolicHot = false;          // a hot value is symbolic where it stands
    bool inForward = false;            // in forward_
    PositionId waitingAt = 0;
    LoopPopulation::Place place; // DSM: where it is counted inside loops
    uint64_t heldAt = 0;         // DSM: the loop instance it waits at the exit of
  };
  Track *findTrack(const ExecutionState &s);
  Track &track(ExecutionState &s); // found, or made
  void enterForward(Track &t, ExecutionState &s);
  void leaveForward(Track &t, const ExecutionState &s);
  void remember(Track &t, uint64_t hash);
  void hold(uint64_t hash);
  // Two histories hold the hash: a state standing at it stands where another stood lately.
  bool heldByTwo(uint64_t hash) const;
  void release(uint64_t hash);
  void standAt(Track &t, ExecutionState &s, uint64_t hash);
  void leaveEntry(Track &t, const ExecutionState &s);
  bool mergeInto(ExecutionState &waiting, ExecutionState &arriving, PositionId position);
  // The merge of mergeInto where more than the end lies ahead: path conditions and values
  // joined. Why not, or empty when merged.
  std::string mergeWhole(ExecutionState &waiting, ExecutionState &arriving, PositionId position);
  void wait(Track &t, ExecutionState &s);
  void stopWaiting(Track &t, const ExecutionState &s);
  // The check at a block entry of a state that stands there: false when it is not at one, or
  // was checked here already.
  bool arrive(ExecutionState &s);
  bool runsOn(const Track &t, uint64_t hash);
  // DSM: `s`, stopped at `position`, waits at the program's end for the states still running.
  bool gathers(const ExecutionState &s, PositionId position) const;
  // DSM: `s`, stopped at the exit of loop instance `loop` with states still inside it, waits
  // there out of the driving searcher's reach (LoopPopulation.h).
  void holdAtExit(Track &t, ExecutionState &s, uint64_t loop);
  // A state held at a loop's exit, found again by its slot.
  struct Held {
    ExecutionState *state;
    uint32_t slot;
    uint64_t id;
    uint64_t loop;
  };
  void releaseHold(const Held &h);
  void releaseAllAt(uint64_t loop);
  void stopHolding(uint64_t loop, const ExecutionState &s);
  // Where `s` stands, for the log: file and line, block and function.
  std::string where(const ExecutionState &s) const;
  bool waitsForLoop(uint64_t loop) const;
  // Per function, each block's place in ControlFlow::loopsFirstOrder.
  const std::vector<uint32_t> &topologicalIndex(uint32_t function);
  // A user klee_assume may run before `s` returns from its outermost frame.
  bool mayAssume(const ExecutionState &s);

  Engine &engine_;
  std::unique_ptr<QceSimilarity> similarity_;
  MergingSearcher *searcher_ = nullptr; // the one wrap made, which the engine owns
  uint32_t distance_ = 8;
  std::deque<Track> tracks_;            // by slot; a deque keeps references while it grows
  std::vector<uint32_t> freeTracks_;    // slots of states that left
  std::vector<uint64_t> forkedSinceSettled_; // ids of both sides of each fork
  struct HashEntry {
    uint32_t holders = 0;                              // states whose history has the hash
    absl::InlinedVector<ExecutionState *, 1> standing; // states standing at it now (DSM)
  };
  absl::flat_hash_map<uint64_t, HashEntry> entries_;
  // DSM: the states standing at a hash two histories hold, by topological key then id.
  TopologicalQueue forward_;
  // The states waiting at one stack position: by hash where every hot value is concrete (only
  // states of the same hash, or with a symbolic hot value, can be similar to them), and the
  // others, which may be similar to any. An arrival so checks few states, not all.
  struct WaitingAt {
    absl::flat_hash_map<uint64_t, absl::InlinedVector<ExecutionState *, 1>> concrete; // mostly one each
    std::vector<ExecutionState *> partlySymbolic;
  };
  absl::flat_hash_map<PositionId, WaitingAt> waiting_;
  std::vector<std::vector<uint32_t>> topo_; // by function, made when first needed
  LiveRegisters live_;
  std::unique_ptr<analysis::AssumeReach> assumes_;
  LoopPopulation population_;
  absl::flat_hash_map<uint64_t, std::vector<Held>> held_; // loop instance -> the states waiting at its exit
  std::deque<std::pair<uint64_t, Held>> holdsEnding_;      // (pick it ends at, state), in order
  absl::flat_hash_set<uint64_t> noHolds_; // loop instances where a leaving state merged with none waiting
  uint64_t picks_ = 0;
};

} // namespace cairn::engine
