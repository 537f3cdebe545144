#include "memory/Reachability.h"

#include <algorithm>

namespace cairn::engine {

namespace {
constexpr uint64_t kWord = 8; // a pointer's size and alignment
} // namespace

std::vector<HeapBlock> liveHeapBlocks(const AddressSpace &space, MemoryModel &model) {
  std::vector<HeapBlock> blocks;
  for (const auto &[address, entry] : space.objects()) {
    const MemoryObject &mo = *entry.object;
    if (mo.kind != ObjectKind::Heap)
      continue;
    if (mo.relocation && model.isMoved(mo)) {
      // A segment's members are blocks of their own; a split object is one block, whose start
      // lies in its first chunk (the other chunks start none).
      for (uint64_t start : model.objectStartsIn(mo))
        if (std::optional<uint64_t> size = model.objectSizeAt(mo, start))
          blocks.push_back({start, *size, &mo});
      continue;
    }
    blocks.push_back({mo.address, mo.size, &mo});
  }
  std::sort(blocks.begin(), blocks.end(), [](const HeapBlock &a, const HeapBlock &b) { return a.address < b.address; });
  return blocks;
}

Reachability::Reachability(ExprContext &ctx, const AddressSpace &space, MemoryModel &model,
                           PointerQuestions &questions)
    : ctx_(ctx), space_(space), questions_(questions), blocks_(liveHeapBlocks(space, model)),
      reached_(blocks_.size(), false) {}

void Reachability::addRootObjects(ObjectKind kind) {
  for (const auto &[address, entry] : space_.objects())
    if (entry.object->kind == kind)
      scan(address, entry.state->size());
}

std::vector<HeapBlock> Reachability::unreachable() {
  while (!toScan_.empty()) {
    const HeapBlock &b = blocks_[toScan_.back()];
    toScan_.pop_back();
    scan(b.address, b.size);
  }
  std::vector<HeapBlock> lost;
  for (size_t i = 0; i < blocks_.size(); ++i)
    if (!reached_[i])
      lost.push_back(blocks_[i]);
  return lost;
}

// The aligned words of [address, address + size), each read from the object that holds it (a
// split block's words lie in its chunks).
void Reachability::scan(uint64_t address, uint64_t size) {
  const uint64_t end = address + size;
  for (uint64_t a = (address + kWord - 1) / kWord * kWord; a + kWord <= end && a >= address; a += kWord) {
    const AddressSpace::Entry *e = space_.find(a);
    if (!e)
      continue;
    const uint64_t offset = a - e->object->address;
    if (offset + kWord > e->state->size())
      continue;
    follow(e->state->read(ctx_, offset, kWord));
  }
}

void Reachability::follow(const Value &word) {
  if (word.concrete())
    return reach(uint64_t(word.bits));
  if (word.sym->isConstant())
    return reach(uint64_t(word.sym->value()));
  followSymbolic(word.sym);
}

void Reachability::followSymbolic(const ExprRef &word) {
  if (std::optional<uint64_t> at = questions_.layoutValue(word))
    return reach(*at);
  // The word depends on inputs: any block it may point into on this path is reached. One
  // question for all the blocks not reached yet first, as a word of input data usually points
  // nowhere.
  std::vector<size_t> open;
  std::vector<HeapBlock> candidates;
  for (size_t i = 0; i < blocks_.size(); ++i)
    if (!reached_[i]) {
      open.push_back(i);
      candidates.push_back(blocks_[i]);
    }
  if (candidates.empty() || !questions_.mayPointInto(word, candidates))
    return;
  if (open.size() == 1)
    return reachBlock(open[0]);
  for (size_t i : open)
    if (questions_.mayPointInto(word, {blocks_[i]}))
      reachBlock(i);
}

// The block whose bytes hold `address` (a block of no bytes owns its address), if any.
void Reachability::reach(uint64_t address) {
  auto after = std::upper_bound(blocks_.begin(), blocks_.end(), address,
                                [](uint64_t a, const HeapBlock &b) { return a < b.address; });
  if (after == blocks_.begin())
    return;
  const HeapBlock &b = *(after - 1);
  if (address - b.address < std::max<uint64_t>(b.size, 1))
    reachBlock(size_t(after - 1 - blocks_.begin()));
}

void Reachability::reachBlock(size_t index) {
  if (reached_[index])
    return;
  reached_[index] = true;
  toScan_.push_back(index);
}

} // namespace cairn::engine
