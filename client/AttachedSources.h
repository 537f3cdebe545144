// The sources `cairn submit` attaches to a job it compiled, for the dashboard's snippets and
// coverage per file: the program's own files, those of its debug info under the program's
// directory, named relative to it (the coordinator refuses absolute and `..` names, and shows
// nothing of its own disk).
#pragma once

#include "cairn/engine/Program.h"
#include "cairn/v1/jobs.pb.h"

#include <filesystem>

namespace cairn::client {

// Adds the program file first, then each other file of `program`'s coverable lines that lies
// under its directory; files over 1 MiB, or past 8 MiB in all, are left out (the dashboard then
// says it has no source for them).
void attachSources(v1::SubmitJobRequest &request, const std::filesystem::path &programFile,
                   const engine::Program &program);

} // namespace cairn::client
