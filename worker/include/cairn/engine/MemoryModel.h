// How the engine lays out memory: the options of the memory models and what they count.
//
// standard:    every object has a concrete base address, as in KLEE.
// relocatable: heap objects (and, with `relocateStack`, stack objects) have a symbolic base
//              address. The state keeps, apart from its path constraints, the concrete address
//              each base stands for; it is substituted into a query just before the query reaches
//              a solver, so relocating an object changes nothing but that binding. Relocation
//              makes two further techniques possible: dynamic segments (`mergeObjects`) and
//              object splitting (`splitObjects`).
#pragma once

#include <cstdint>
#include <string>

namespace cairn::engine {

enum class MemoryModelKind : uint8_t { Standard, Relocatable };

bool parseMemoryModelKind(const std::string &name, MemoryModelKind &out);

struct MemoryModelOptions {
  MemoryModelKind kind = MemoryModelKind::Standard;
  bool relocateStack = false; // stack objects get symbolic bases too
  // A pointer that may point into several heap objects: move exactly those objects back to back
  // into a new segment and resolve the pointer to it, instead of forking per object.
  bool mergeObjects = false;
  // With mergeObjects: first try the objects whose allocation context (the allocation site and
  // the `contextDepth` calls above it) was resolved at this access before; -1 turns it off.
  int contextDepth = -1;
  // With mergeObjects: the same access merging the same objects in another state gets the same
  // segment (address and base), so the queries of both states are the same.
  bool reuseSegments = true;
  // A heap object larger than `splitThreshold` bytes accessed at a symbolic offset is split
  // into chunks of `partitionSize` bytes and the access re-executed.
  bool splitObjects = false;
  uint64_t splitThreshold = 300;
  uint64_t partitionSize = 128;

  bool relocatable() const { return kind == MemoryModelKind::Relocatable; }
};

struct MemoryModelStats {
  uint64_t resolutionForks = 0;   // states added because a pointer could point into several objects
  uint64_t resolutionQueries = 0; // solver questions asked to resolve symbolic pointers
  uint64_t contextHits = 0;       // resolutions completed from the allocation contexts alone
  uint64_t contextFallbacks = 0;  // context-based resolutions that needed the full resolution
  uint64_t segments = 0;          // segments created
  uint64_t segmentsReused = 0;    // of those, with the address and base of an earlier one
  uint64_t segmentObjects = 0;    // objects moved into segments
  uint64_t maxSegmentSize = 0;    // bytes
  uint64_t splits = 0;            // objects split
  uint64_t chunks = 0;            // chunks made by splitting
  uint64_t maxSplitSize = 0;      // bytes of the largest object split
  // Reads and writes at a symbolic offset, each through one array: how many, and the arrays'
  // sizes (what the solver sees of memory).
  uint64_t symbolicAccesses = 0;
  uint64_t symbolicAccessBytes = 0;
  uint64_t maxSymbolicAccessBytes = 0;
};

} // namespace cairn::engine
