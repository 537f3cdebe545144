#include "executor/PrefixReplay.h"

#include "executor/Engine.h"

#include <algorithm>

namespace cairn::engine {

void PrefixReplay::begin(ExecutionState &initial, std::vector<PathPrefix> starts,
                         const std::vector<PathPrefix> &excluded) {
  for (const PathPrefix &p : excluded)
    excluded_.insert(p.choices);
  starts_ = std::move(starts);
  std::sort(starts_.begin(), starts_.end(),
            [](const PathPrefix &a, const PathPrefix &b) { return a.choices < b.choices; });
  if (starts_.size() > 1)
    entry_ = std::make_unique<ExecutionState>(initial);
  if (!starts_.empty()) {
    initial.choices = starts_[0].choices;
    initial.replayInstructions = starts_[0].instructions;
    initial.startsEnd = uint32_t(starts_.size());
  }
}

uint64_t PrefixReplay::next(ExecutionState &s) {
  keepAgreeingStarts(s);
  return s.choices[s.replayed++];
}

u128 PrefixReplay::nextValue(ExecutionState &s, unsigned width) {
  u128 v = next(s);
  if (width > 64)
    v |= u128(next(s)) << 64;
  return v;
}

void PrefixReplay::record(ExecutionState &s, uint64_t choice) {
  s.choices.push_back(choice);
  s.replayed = s.choices.size();
  if (!excluded_.empty() && excluded_.count(s.choices))
    s.excluded = true; // its subtree is another item's; it ends at the next pick, silently
}

void PrefixReplay::recordValue(ExecutionState &s, u128 v, unsigned width) {
  record(s, uint64_t(v));
  if (width > 64)
    record(s, uint64_t(v >> 64));
}

// Of the start prefixes `s` rebuilds, from `from` on: where the run of those that take the
// same value as `from` at the state's next choice ends (sorted, they agree on all before).
size_t PrefixReplay::agreeingStarts(const ExecutionState &s, size_t from) const {
  const size_t p = s.replayed;
  const uint64_t value = starts_[from].choices[p];
  auto agrees = [&](size_t i) { return starts_[i].choices.size() > p && starts_[i].choices[p] == value; };
  if (agrees(s.startsEnd - 1)) // sorted: the last agreeing means all do
    return s.startsEnd;
  size_t i = from + 1;
  while (i < s.startsEnd && agrees(i))
    ++i;
  return i;
}

// Start prefixes part only at forks; any that part from `s` elsewhere are rebuilt on their own.
void PrefixReplay::keepAgreeingStarts(ExecutionState &s) {
  if (s.startsEnd - s.startsBegin < 2)
    return;
  const size_t agreeing = agreeingStarts(s, s.startsBegin);
  replayAlone(agreeing, s.startsEnd);
  s.startsEnd = uint32_t(agreeing);
}

// Start prefixes [begin, end), each rebuilt by a state of its own from the entry.
void PrefixReplay::replayAlone(size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) {
    auto st = std::make_unique<ExecutionState>(*entry_);
    st->choices = starts_[i].choices;
    st->replayInstructions = starts_[i].instructions;
    st->startsBegin = uint32_t(i);
    st->startsEnd = uint32_t(i + 1);
    engine_.adopt(std::move(st));
  }
}

ExecutionState *PrefixReplay::startsOnTheOtherSide(ExecutionState &s) {
  if (s.startsEnd - s.startsBegin < 2)
    return nullptr;
  const size_t other = agreeingStarts(s, s.startsBegin);
  if (other == s.startsEnd)
    return nullptr;
  if (starts_[other].choices.size() <= s.replayed) { // ends here: cannot happen
    replayAlone(other, s.startsEnd);
    s.startsEnd = uint32_t(other);
    return nullptr;
  }
  const size_t end = agreeingStarts(s, other);
  replayAlone(end, s.startsEnd); // a third value at a two-sided fork: cannot happen
  const uint64_t side = s.choices[s.replayed], otherSide = starts_[other].choices[s.replayed];
  if (!s.merges.empty() || side > 1 || otherSide > 1) { // not a fork of two sides
    replayAlone(other, end);
    s.startsEnd = uint32_t(other);
    return nullptr;
  }
  ExecutionState &copy = engine_.copyState(s);
  copy.choices = starts_[other].choices;
  copy.replayInstructions = starts_[other].instructions;
  copy.startsBegin = uint32_t(other);
  copy.startsEnd = uint32_t(end);
  s.startsEnd = uint32_t(other);
  return &copy;
}

void PrefixReplay::checkParted(ExecutionState &s) {
  if (!engine_.isTerminated(&s) && !replaying(s) && s.startsEnd - s.startsBegin > 1) {
    replayAlone(s.startsBegin + 1, s.startsEnd);
    s.startsEnd = s.startsBegin + 1;
  }
}

} // namespace cairn::engine
