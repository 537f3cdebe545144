// The targeted control-flow transformation, a load-time pass (worker/lib/transform/): branches
// on symbolic values whose two sides are straight-line code are melded into one block with
// selects, so that exploration does not fork there: a loop with such a branch in its body runs
// as one path instead of 2^n.
//
// It preserves the program's failures but not its semantics: an extra instruction (a load the
// removed branch guarded) may fail where the original program does not. Every melded
// instruction carries, as metadata, the branch decisions under which it is original; the engine
// reports an error there only on paths where it is, and drops it (and goes on) on the others
// (executor/SpuriousErrors.h). Reported errors are therefore always the original program's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cairn::engine {

class LoadedModule;

enum class TransformMode : uint8_t {
  Off,
  Symbolic, // branches whose condition may depend on symbolic input (SymbolicValues.h)
  All,      // every branch whose sides can be melded
};

struct BranchTransformOptions {
  TransformMode mode = TransformMode::Off;
  bool loopsOnly = false; // only branches inside loops
  // Also the branches whose melded values would become pointers stored to memory
  // (transform/MeldCost.h), which are otherwise left: the paper's pass has no cost model.
  bool meldStoredPointers = false;
  // FILE:LINE entries: a branch with an instruction of either side on such a line stays. FILE
  // matches the debug information's file name, or a path ending in it.
  std::vector<std::string> excluded;
};

struct BranchTransformStats {
  uint64_t branchesMelded = 0;
  uint64_t oneSided = 0;             // of those, if-then (an empty side added)
  uint64_t selectsAdded = 0;
  uint64_t extraInstructions = 0;
  uint64_t skippedSymbolicAddress = 0; // branches left: a side accesses memory at a symbolic index
  uint64_t skippedExcluded = 0;        // branches left: on an excluded line
  uint64_t skippedStoredPointer = 0;   // branches left: melded, a stored pointer would be symbolic
  uint64_t functionsTransformed = 0;
  double seconds = 0;
  // Filled by the engine: errors at melded instructions on paths where they were extra ones,
  // dropped, and their locations (FILE:LINE, the format of --no-transform's file).
  uint64_t spuriousErrorsFiltered = 0;
  std::vector<std::string> spuriousLocations;
};

// Transforms the program's own functions (not the runtime's or the libc's), after promoting
// their locals to registers (the pass works on SSA values). `entry`: where the program starts,
// whose parameters are symbolic. Throws LoadError if the result would not be valid IR.
BranchTransformStats transformBranches(LoadedModule &module, const std::string &entry,
                                       const BranchTransformOptions &options);

// --no-transform FILE: one FILE:LINE per line; blank lines and lines starting with # are skipped.
// Throws std::runtime_error naming the file and line when it cannot be read or parsed.
std::vector<std::string> readLocationList(const std::string &path);
// Whether `text` is a location of that list: FILE:LINE, the line a number of at most 9 digits.
bool isLocation(const std::string &text);

} // namespace cairn::engine
