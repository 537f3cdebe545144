// DSM: how many states stand inside each loop instance, a natural loop of a function in the
// calling context of the frame running it. Every frame of a state counts: a state inside a call
// made from a loop's body is inside that loop (echo's printing loop calls putchar).
//
// Dynamic merging lets the driving searcher pick freely where no state can catch up with
// another; a state that leaves a loop first then runs on into what follows (the next
// argument's loop) before the states still in the loop reach the exit, and they meet it
// later pair by pair, inside that next loop, each partial merge forking there again: sleep-sum
// N=5 ran 3330 instructions and 111 merges against static merging's 774 and 30. So, with
// --dsm-hold-exits, a state that leaves a loop waits at the exit while the loop instance still
// holds states (QceMerging::arrive), for a bounded number of picks: a loop that never empties
// must not keep what lies after it from the driving searcher. Not the default: in a partial
// run the held states are the driving searcher's to choose (tr, head and cat covered 0.85-0.91x
// the lines in a minute).
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace cairn::engine {

namespace analysis {
class ControlFlow;
}

class LoopPopulation {
public:
  // Where a state was last counted: its frames' functions and blocks.
  struct Place {
    struct At {
      uint32_t function, block;
      uint64_t context; // the frames below, hashed
    };
    std::vector<At> frames;
  };

  explicit LoopPopulation(const Program &program);
  ~LoopPopulation();

  // `s` entered a block: it is counted where it stands now, no longer where `place` says.
  // Returns the outermost loop instance its frame left by this step (the block it came from
  // is in the loop, the one it entered is not), or 0.
  uint64_t move(Place &place, const ExecutionState &s);
  // A copy of a state (a fork's child) is counted where the original was.
  void copy(const Place &place);
  // A state is gone: no longer counted.
  void remove(Place &place);
  // States counted inside a loop instance.
  uint32_t inside(uint64_t loop) const;
  // The loop instances whose last state left since the last call (some may hold states again).
  std::vector<uint64_t> takeEmptied() { return std::exchange(emptied_, {}); }

private:
  const std::vector<uint32_t> &loopsOf(uint32_t function, uint32_t block);
  void add(uint64_t loop, int delta);
  // Adds `delta` to the count of every loop instance a frame at `at` stands inside.
  void count(const Place::At &at, int delta);

  const Program &program_;
  std::vector<std::unique_ptr<analysis::ControlFlow>> flow_; // by function, made when first needed
  absl::flat_hash_map<uint64_t, uint32_t> inside_;
  std::vector<uint64_t> emptied_;
};

} // namespace cairn::engine
