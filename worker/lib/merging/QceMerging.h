// The merging strategies driven by query count estimation (Kuznetsov et al., PLDI'12): static
// state merging (SSM) and dynamic state merging (DSM), cairn/engine/Merging.h.
//
// Under either, a state stops at every block entry and goes back to the searcher
// (search/MergingSearcher.h picks the next one): the states that are not running wait at block
// entries, so that a state arriving where another waits can merge into it (the merge step of
// the paper's Algorithm 1) when the two are compatible (StateMerging.h) and QCE-similar
// (QceSimilarity.h). DSM also keeps, per state, the hashes of its last `dsmDistance` block
// entries: a state whose own hash is among another state's recent ones is a candidate to be
// fast-forwarded.
#pragma once

#include "merging/QceSimilarity.h"

#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace cairn::engine {

class Engine;
class Searcher;

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

  // For the searcher: `s` is about to run (it no longer waits where it stands).
  void resumed(const ExecutionState &s);
  // `child` was forked off `parent`: it shares the parent's history.
  void forked(const ExecutionState &parent, const ExecutionState &child);
  // `s` left the searcher.
  void forget(const ExecutionState &s);
  // DSM: `s` stands where another state stood in its last dsmDistance block entries, with the
  // same hot values (F in the paper's Algorithm 2).
  bool matchesAnotherHistory(const ExecutionState &s) const;
  // The order states catch up in: the topological order of their positions (earlier first).
  bool earlier(const ExecutionState &a, const ExecutionState &b);
  // DSM: `s` was picked to catch up (fast-forwarded) or by the driving searcher.
  void picked(const ExecutionState &s, bool fastForward);
  // DSM: the states that may match another's history (a superset of F, kept up to date as
  // states move, so that a pick does not look at every state).
  std::vector<ExecutionState *> forwardCandidates() const;

  QceSimilarity &similarity() { return *similarity_; }

private:
  struct Track {
    std::deque<uint64_t> history; // hashes of the last block entries, oldest first
    uint64_t current = 0;
    bool atEntry = false;             // `current` is the hash of where it stands
    uint64_t checkedAt = ~uint64_t(0); // its instruction count when it stopped at this entry
    bool forwarded = false;            // picked to catch up, and not by the driving searcher since
    uint32_t cooldown = 0;             // block entries to go before it may be chased again
    bool waiting = false;              // in waiting_, under waitKey
    std::vector<uint64_t> waitKey;
  };
  Track &track(const ExecutionState &s) { return tracks_[s.id]; }
  void remember(Track &t, uint64_t hash);
  void countUp(uint64_t hash);
  void countDown(uint64_t hash);
  void standAt(Track &t, ExecutionState &s, uint64_t hash);
  void leaveEntry(Track &t, const ExecutionState &s);
  bool mergeInto(ExecutionState &waiting, ExecutionState &arriving, const std::vector<uint64_t> &position);
  const std::vector<uint32_t> &topologicalIndex(uint32_t function);

  Engine &engine_;
  std::unique_ptr<QceSimilarity> similarity_;
  uint32_t distance_ = 8;
  std::unordered_map<uint64_t, Track> tracks_;          // by state id
  std::unordered_map<uint64_t, uint32_t> historyCount_; // hash -> entries in all histories
  std::unordered_map<uint64_t, std::vector<ExecutionState *>> standing_; // current hash -> states
  std::unordered_set<uint64_t> matching_; // hashes both in some history and some state's current
  std::map<std::vector<uint64_t>, std::vector<ExecutionState *>> waiting_; // by stack position
  std::unordered_map<uint32_t, std::vector<uint32_t>> topo_; // per function: block -> position in RPO
};

} // namespace cairn::engine
