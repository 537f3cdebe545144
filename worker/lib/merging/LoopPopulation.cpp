#include "merging/LoopPopulation.h"

#include "analysis/ControlFlow.h"

#include <absl/hash/hash.h>

#include <tuple>

namespace cairn::engine {

namespace {

// Never 0, which move() returns for "no loop left".
uint64_t instanceKey(uint64_t context, uint32_t function, uint32_t loop) {
  return absl::Hash<std::tuple<uint64_t, uint32_t, uint32_t>>{}({context, function, loop}) | 1;
}

uint64_t innerContext(const LoopPopulation::Place::At &at) {
  return absl::Hash<std::tuple<uint64_t, uint32_t, uint32_t>>{}({at.context, at.function, at.block});
}

} // namespace

LoopPopulation::LoopPopulation(const Program &program) : program_(program) {}
LoopPopulation::~LoopPopulation() = default;

const std::vector<uint32_t> &LoopPopulation::loopsOf(uint32_t function, uint32_t block) {
  if (flow_.size() <= function)
    flow_.resize(program_.functions.size());
  std::unique_ptr<analysis::ControlFlow> &flow = flow_[function];
  if (!flow)
    flow = std::make_unique<analysis::ControlFlow>(program_.functions[function]);
  return flow->loopsOf(block);
}

void LoopPopulation::add(uint64_t key, int delta) {
  if (delta > 0) {
    ++inside_[key];
  } else if (auto it = inside_.find(key); it != inside_.end() && --it->second == 0) {
    inside_.erase(it);
    emptied_.push_back(key);
  }
}

void LoopPopulation::count(const Place::At &at, int delta) {
  for (uint32_t loop : loopsOf(at.function, at.block))
    add(instanceKey(at.context, at.function, loop), delta);
}

uint64_t LoopPopulation::move(Place &place, const ExecutionState &s) {
  // The frames below the top stand where they stood unless a call or a return came between.
  size_t same = 0;
  while (same < place.frames.size() && same < s.stack.size() && place.frames[same].function == s.stack[same].function &&
         place.frames[same].block == s.stack[same].block)
    ++same;
  if (same == place.frames.size() && same == s.stack.size())
    return 0; // the same block again (picked where it stopped)
  const size_t top = s.stack.size() - 1;
  if (same == top && place.frames.size() == s.stack.size() && place.frames[top].function == s.stack[top].function) {
    // One step within the top frame's function, the common case: only the loops of one block
    // and not the other change, and the outermost the step left is returned (nests list the
    // outermost first).
    Place::At &at = place.frames[top];
    const std::vector<uint32_t> &before = loopsOf(at.function, at.block);
    const std::vector<uint32_t> &now = loopsOf(at.function, s.stack[top].block);
    size_t shared = 0;
    while (shared < before.size() && shared < now.size() && before[shared] == now[shared])
      ++shared;
    for (size_t i = shared; i < before.size(); ++i)
      add(instanceKey(at.context, at.function, before[i]), -1);
    for (size_t i = shared; i < now.size(); ++i)
      add(instanceKey(at.context, at.function, now[i]), +1);
    at.block = s.stack[top].block;
    return shared < before.size() ? instanceKey(at.context, at.function, before[shared]) : 0;
  }
  for (size_t k = same; k < place.frames.size(); ++k)
    count(place.frames[k], -1);
  place.frames.resize(same);
  for (size_t k = same; k < s.stack.size(); ++k) {
    const uint64_t context = k ? innerContext(place.frames[k - 1]) : 0;
    place.frames.push_back({s.stack[k].function, s.stack[k].block, context});
    count(place.frames.back(), +1);
  }
  return 0;
}

void LoopPopulation::copy(const Place &place) {
  for (const Place::At &at : place.frames)
    count(at, +1);
}

void LoopPopulation::remove(Place &place) {
  for (const Place::At &at : place.frames)
    count(at, -1);
  place.frames.clear();
}

uint32_t LoopPopulation::inside(uint64_t loop) const {
  auto it = inside_.find(loop);
  return it == inside_.end() ? 0 : it->second;
}

} // namespace cairn::engine
