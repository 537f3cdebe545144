#include "memory/MovedObjects.h"

#include "executor/Engine.h"
#include "memory/Relocation.h"

namespace cairn::engine {

bool isMoved(const MemoryObject &mo) { return splitOf(mo) || isSegment(mo); }

bool checkMemberAccess(Engine &engine, ExecutionState &s, const AddressSpace::Entry &e, uint64_t a, unsigned bytes) {
  if (!isSegment(*e.object))
    return true;
  uint64_t off = a - e.object->address;
  for (const SegmentMember &m : membersOf(*e.object)) {
    if (off < m.offset || off >= m.offset + std::max<uint64_t>(m.size, 1))
      continue;
    if (m.freed) {
      engine.error(s, "ptr", "use-after-free", "memory error: use after free");
      return false;
    }
    if (off + bytes <= m.offset + m.size)
      return true;
    break;
  }
  engine.error(s, "ptr", "out-of-bounds",
               "memory error: out of bound pointer (" + std::to_string(bytes) + "-byte access at offset " +
                   std::to_string(off) + " of " + e.object->name + ", outside its objects)");
  return false;
}

void freeInMoved(Engine &engine, ExecutionState &s, const AddressSpace::Entry &e, uint64_t a) {
  const MemoryObject &mo = *e.object;
  if (splitOf(mo)) {
    std::shared_ptr<const SplitOrigin> origin = mo.relocation->split;
    if (origin->address != a)
      return engine.error(s, "free", "invalid-free", "memory error: invalid free");
    for (uint64_t off = 0; off < origin->size; off += origin->chunkSize)
      s.memory.unbind(origin->address + off);
    s.freed.emplace_back(origin->address, origin->size);
    return;
  }
  auto updated = std::make_shared<MemoryObject>(mo);
  bool anyLive = false, found = false;
  for (SegmentMember &m : editRelocation(*updated).members) {
    if (mo.address + m.offset == a) {
      if (m.freed)
        return engine.error(s, "free", "double-free", "memory error: double free");
      m.freed = found = true;
      s.freed.emplace_back(a, m.size);
    }
    anyLive |= !m.freed;
  }
  if (!found)
    return engine.error(s, "free", "invalid-free", "memory error: invalid free");
  if (anyLive)
    s.memory.bind(std::move(updated), e.state);
  else
    s.memory.unbind(mo.address);
}

std::optional<uint64_t> objectSizeInMoved(const MemoryObject &mo, uint64_t a) {
  if (const SplitOrigin *origin = splitOf(mo))
    return origin->address == a ? std::optional<uint64_t>(origin->size) : std::nullopt;
  for (const SegmentMember &m : membersOf(mo))
    if (mo.address + m.offset == a && !m.freed)
      return m.size;
  return std::nullopt;
}

std::vector<uint64_t> objectStartsInMoved(const MemoryObject &mo) {
  if (const SplitOrigin *origin = splitOf(mo))
    return origin->address == mo.address ? std::vector<uint64_t>{mo.address} : std::vector<uint64_t>{};
  std::vector<uint64_t> starts;
  for (const SegmentMember &m : membersOf(mo))
    if (!m.freed)
      starts.push_back(mo.address + m.offset);
  return starts;
}

} // namespace cairn::engine
