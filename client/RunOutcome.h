// What a finished run or job tells the shell beyond its results.
#pragma once

#include <string>

namespace cairn::engine {
struct RunStatistics;
struct SizeBoundStats;
struct MergeStats;
struct MemoryLimitStats;
}

namespace cairn::client {

// Exit status of a run or job whose validation found the address-aware cache answering wrongly
// (--validate-address-cache) or a quantified merge or answer wrong (--validate-merges): its
// results stand, but the technique does not.
constexpr int kValidationMismatchExit = 3;
// The same for `cairn wait` and `cairn results` of a completed job (3 is wait's timeout).
constexpr int kJobValidationMismatchExit = 4;

// True, after saying so on stderr, when validation found the address-aware cache contradicting
// the solver or a quantified merge not exactly its paths.
bool failsValidation(const engine::RunStatistics &stats);

// The symbolic-size model's bound in words: which sizes were not explored and how many paths
// it cut, so that a run without errors is not read as covering every size.
std::string sizeBoundNote(const engine::SizeBoundStats &bound);

// What a merging strategy did, in words: merges, the paths the ended states stand for, and
// under dsm the fast-forwarded states that merged. Empty when no strategy ran.
std::string mergingNote(const engine::MergeStats &merging);

// What --max-memory did, in words: the states it ended and the runs (a job's items) its ceiling
// stopped, so that partial paths are not read as the program's. Empty when it did nothing.
std::string memoryLimitNote(const engine::MemoryLimitStats &limit);

// Writes a report file (--lcov, --sarif, --junit); says on stderr when it cannot.
void writeReport(const std::string &path, const std::string &what, const std::string &text);

} // namespace cairn::client
