#include "memory/Relocation.h"

#include <algorithm>
#include <cassert>

namespace cairn::engine {

namespace {

constexpr uint64_t kMemberAlignment = 16;

// Copies `n` bytes from one object's contents to another's, symbolic bytes as expressions.
void copyBytes(ExprContext &ctx, const ObjectState &from, uint64_t fromOffset, ObjectState &to,
               uint64_t toOffset, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    to.write(ctx, toOffset + i, from.read(ctx, fromOffset + i, 1), 1);
}

} // namespace

RelocationInfo &editRelocation(MemoryObject &mo) {
  auto edited = std::make_shared<RelocationInfo>(mo.relocation ? *mo.relocation : RelocationInfo{});
  RelocationInfo &ref = *edited;
  mo.relocation = std::move(edited);
  return ref;
}

std::vector<uint64_t> segmentLayout(const std::vector<const MemoryObject *> &objects, SegmentShape &shape) {
  std::vector<uint64_t> offsets;
  shape = {0, kMemberAlignment};
  for (const MemoryObject *mo : objects) {
    uint64_t alignment = std::max<uint64_t>(mo->alignment, kMemberAlignment);
    shape.total = (shape.total + alignment - 1) / alignment * alignment;
    shape.alignment = std::max(shape.alignment, alignment);
    offsets.push_back(shape.total);
    shape.total += mo->size;
  }
  return offsets;
}

std::vector<BaseMove> mergeIntoSegment(ExprContext &ctx, AddressSpace &space, MemoryObject segment,
                                       const std::vector<uint64_t> &targets) {
  std::vector<const MemoryObject *> objects;
  std::vector<AddressSpace::Entry> entries;
  for (uint64_t a : targets) {
    const AddressSpace::Entry *e = space.findBase(a);
    assert(e && "a segment target is not an object");
    entries.push_back(*e);
    objects.push_back(e->object.get());
  }
  SegmentShape shape;
  std::vector<uint64_t> offsets = segmentLayout(objects, shape);
  assert(shape.total == segment.size && segment.address % shape.alignment == 0);
  segment.alignment = uint32_t(shape.alignment);
  auto contents = std::make_shared<ObjectState>(shape.total);
  std::vector<BaseMove> moves;
  std::vector<SegmentMember> &members = editRelocation(segment).members;
  members.clear();
  for (size_t i = 0; i < entries.size(); ++i) {
    const MemoryObject &mo = *entries[i].object;
    copyBytes(ctx, *entries[i].state, 0, *contents, offsets[i], mo.size);
    uint64_t at = segment.address + offsets[i];
    moves.push_back({mo.base->symbol(), at});
    if (!isSegment(mo)) {
      members.push_back({mo.base, offsets[i], mo.size, false, mo.name});
    } else {
      for (const SegmentMember &m : membersOf(mo)) {
        members.push_back({m.base, offsets[i] + m.offset, m.size, m.freed, m.name});
        moves.push_back({m.base->symbol(), at + m.offset});
      }
    }
    space.unbind(mo.address);
  }
  space.bind(std::make_shared<MemoryObject>(std::move(segment)), std::move(contents));
  return moves;
}

size_t chunkCount(uint64_t size, uint64_t chunkSize) { return size_t((size + chunkSize - 1) / chunkSize); }

void splitIntoChunks(ExprContext &ctx, AddressSpace &space, uint64_t address, uint64_t chunkSize,
                     const std::vector<ExprRef> &chunkBases, uint64_t firstId) {
  AddressSpace::Entry whole = *space.findBase(address);
  const MemoryObject &mo = *whole.object;
  auto origin = std::make_shared<SplitOrigin>(SplitOrigin{mo.base, mo.address, mo.size, chunkSize});
  size_t n = chunkCount(mo.size, chunkSize);
  assert(chunkBases.size() + 1 == n);
  space.unbind(address);
  for (size_t i = 0; i < n; ++i) {
    uint64_t offset = i * chunkSize, size = std::min(chunkSize, mo.size - offset);
    auto chunk = std::make_shared<MemoryObject>(mo);
    chunk->id = i ? firstId + i : mo.id;
    chunk->address = mo.address + offset;
    chunk->size = size;
    chunk->base = i ? chunkBases[i - 1] : mo.base;
    chunk->name = mo.name + " (chunk " + std::to_string(i + 1) + " of " + std::to_string(n) + ")";
    editRelocation(*chunk).split = origin;
    auto contents = std::make_shared<ObjectState>(size);
    copyBytes(ctx, *whole.state, offset, *contents, 0, size);
    space.bind(std::move(chunk), std::move(contents));
  }
}

void joinChunks(ExprContext &ctx, AddressSpace &space, const SplitOrigin &origin) {
  auto whole = std::make_shared<MemoryObject>(*space.findBase(origin.address)->object);
  whole->size = origin.size;
  RelocationInfo &relocation = editRelocation(*whole);
  relocation.split.reset();
  relocation.splittable = false;
  std::string name = whole->name;
  whole->name = name.substr(0, name.rfind(" (chunk "));
  auto contents = std::make_shared<ObjectState>(origin.size);
  for (uint64_t offset = 0; offset < origin.size; offset += origin.chunkSize) {
    const AddressSpace::Entry *chunk = space.findBase(origin.address + offset);
    assert(chunk && "a chunk of a split object is missing");
    copyBytes(ctx, *chunk->state, 0, *contents, offset, chunk->object->size);
    space.unbind(origin.address + offset);
  }
  space.bind(std::move(whole), std::move(contents));
}

} // namespace cairn::engine
