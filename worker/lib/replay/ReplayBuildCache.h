// Native replay builds kept between `cairn replay` runs (--build-cache DIR): a program replayed
// again with the same build options reuses its binary instead of compiling and linking it anew
// (half a second or more per program, most of a small replay).
#pragma once

#include "replay/ReplayBuild.h"

#include <string>

namespace cairn::engine {

// The build of `program` under `options` from `cacheDir` (created if missing), built and kept
// there first when it is not. A C program is known by what the preprocessor makes of it, so an
// edited header is a new build; a bitcode program by its bytes. Safe for concurrent replays
// sharing the directory. A program that cannot be read or preprocessed is built in `scratchDir`,
// uncached, for the build to report what is wrong. Throws std::runtime_error as
// buildReplayBinary does.
ReplayBuild cachedReplayBuild(const std::string &program, const ReplayOptions &options,
                              const std::string &cacheDir, const std::string &scratchDir);

} // namespace cairn::engine
