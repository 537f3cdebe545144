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
    initial.prefix.choices = starts_[0].choices;
    initial.prefix.replayInstructions = starts_[0].instructions;
    initial.prefix.startsEnd = uint32_t(starts_.size());
  }
}

uint64_t PrefixReplay::next(ExecutionState &s) {
  keepAgreeingStarts(s);
  return s.prefix.choices[s.prefix.replayed++];
}

u128 PrefixReplay::nextValue(ExecutionState &s, unsigned width) {
  u128 v = next(s);
  if (width > 64)
    v |= u128(next(s)) << 64;
  return v;
}

void PrefixReplay::record(ExecutionState &s, uint64_t choice) {
  s.prefix.choices.push_back(choice);
  s.prefix.replayed = s.prefix.choices.size();
  if (!excluded_.empty() && excluded_.count(s.prefix.choices))
    s.prefix.excluded = true; // its subtree is another item's; it ends at the next pick, silently
}

void PrefixReplay::recordValue(ExecutionState &s, u128 v, unsigned width) {
  record(s, uint64_t(v));
  if (width > 64)
    record(s, uint64_t(v >> 64));
}

// Of the start prefixes `s` rebuilds, from `from` on: where the run of those that take the
// same value as `from` at the state's next choice ends (sorted, they agree on all before).
size_t PrefixReplay::agreeingStarts(const ExecutionState &s, size_t from) const {
  const size_t p = s.prefix.replayed;
  const uint64_t value = starts_[from].choices[p];
  auto agrees = [&](size_t i) { return starts_[i].choices.size() > p && starts_[i].choices[p] == value; };
  if (agrees(s.prefix.startsEnd - 1)) // sorted: the last agreeing means all do
    return s.prefix.startsEnd;
  size_t i = from + 1;
  while (i < s.prefix.startsEnd && agrees(i))
    ++i;
  return i;
}

// Start prefixes part only at forks; any that part from `s` elsewhere are rebuilt on their own.
void PrefixReplay::keepAgreeingStarts(ExecutionState &s) {
  if (s.prefix.startsEnd - s.prefix.startsBegin < 2)
    return;
  const size_t agreeing = agreeingStarts(s, s.prefix.startsBegin);
  replayAlone(agreeing, s.prefix.startsEnd);
  s.prefix.startsEnd = uint32_t(agreeing);
}

// Start prefixes [begin, end), each rebuilt by a state of its own from the entry.
void PrefixReplay::replayAlone(size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) {
    auto st = std::make_unique<ExecutionState>(*entry_);
    st->prefix.choices = starts_[i].choices;
    st->prefix.replayInstructions = starts_[i].instructions;
    st->prefix.startsBegin = uint32_t(i);
    st->prefix.startsEnd = uint32_t(i + 1);
    engine_.adopt(std::move(st));
  }
}

ExecutionState *PrefixReplay::startsOnTheOtherSide(ExecutionState &s) {
  if (s.prefix.startsEnd - s.prefix.startsBegin < 2)
    return nullptr;
  const size_t other = agreeingStarts(s, s.prefix.startsBegin);
  if (other == s.prefix.startsEnd)
    return nullptr;
  if (starts_[other].choices.size() <= s.prefix.replayed) { // ends here: cannot happen
    replayAlone(other, s.prefix.startsEnd);
    s.prefix.startsEnd = uint32_t(other);
    return nullptr;
  }
  const size_t end = agreeingStarts(s, other);
  replayAlone(end, s.prefix.startsEnd); // a third value at a two-sided fork: cannot happen
  const uint64_t side = s.prefix.choices[s.prefix.replayed], otherSide = starts_[other].choices[s.prefix.replayed];
  if (!s.merges.empty() || side > 1 || otherSide > 1) { // not a fork of two sides
    replayAlone(other, end);
    s.prefix.startsEnd = uint32_t(other);
    return nullptr;
  }
  ExecutionState &copy = engine_.copyState(s);
  copy.prefix.choices = starts_[other].choices;
  copy.prefix.replayInstructions = starts_[other].instructions;
  copy.prefix.startsBegin = uint32_t(other);
  copy.prefix.startsEnd = uint32_t(end);
  s.prefix.startsEnd = uint32_t(other);
  return &copy;
}

void PrefixReplay::checkParted(ExecutionState &s) {
  if (!engine_.isTerminated(&s) && !replaying(s) && s.prefix.startsEnd - s.prefix.startsBegin > 1) {
    replayAlone(s.prefix.startsBegin + 1, s.prefix.startsEnd);
    s.prefix.startsEnd = s.prefix.startsBegin + 1;
  }
}

} // namespace cairn::engine
