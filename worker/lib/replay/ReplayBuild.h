// Building a program natively for `cairn replay`: the compiler and linker flags, and the C
// sources generated next to it (see ReplayBuild.cpp).
#pragma once

#include "cairn/engine/Replay.h"

#include <string>
#include <vector>

namespace cairn::engine {

struct ReplayBuild {
  std::string binary;
  std::vector<std::string> externals; // functions the program calls that nothing defines
};

// Builds `program` into `dir` (which exists). Throws std::runtime_error when it cannot.
ReplayBuild buildReplayBinary(const std::string &program, const ReplayOptions &options,
                              const std::string &dir);

// Whether the program is given as bitcode (.bc, .ll) rather than C.
bool isBitcodeInput(const std::string &program);
// The runtime's headers and the replay library a build uses: the options', or this build's.
std::string replayIncludeOf(const ReplayOptions &options);
std::string replayLibraryOf(const ReplayOptions &options);

// The names a failed link reports as undefined references, in order, each once.
std::vector<std::string> undefinedReferences(const std::string &linkerOutput);

} // namespace cairn::engine
