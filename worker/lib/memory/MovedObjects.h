// The relocatable model's moved objects as the program uses them: a segment's members are
// objects of their own (each checked, freed and sized alone), a split object's chunks are one
// object (freed whole, joined again when an access crosses them).
#pragma once

#include "cairn/engine/ExecutionState.h"

#include <optional>
#include <vector>

namespace cairn::engine {

class Engine;

// A segment or a chunk of a split object.
bool isMoved(const MemoryObject &mo);
// A concrete access within a segment's bounds must stay within one live member; false when the
// state ended with the error.
bool checkMemberAccess(Engine &engine, ExecutionState &s, const AddressSpace::Entry &e, uint64_t a, unsigned bytes);
// free(a) inside a moved object: a split object goes with all its chunks; a segment member is
// marked freed, and the segment goes with its last member.
void freeInMoved(Engine &engine, ExecutionState &s, const AddressSpace::Entry &e, uint64_t a);
// The size of the live object starting at `a` inside a moved object; nullopt when none starts there.
std::optional<uint64_t> objectSizeInMoved(const MemoryObject &mo, uint64_t a);
// Where live objects start inside a moved object: a split object's start (in its first chunk),
// a segment's members not freed.
std::vector<uint64_t> objectStartsInMoved(const MemoryObject &mo);

} // namespace cairn::engine
