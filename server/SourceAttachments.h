// The program's sources a submission attaches (SubmitJobRequest.sources), for the dashboard's
// snippets and coverage per file: the checks a name and a size must pass, and which attached
// file a path of the program's debug info is. The coordinator shows what the client sent and
// never reads a source from its own disk, so a name is only ever a key, never a path to open.
#pragma once

#include "cairn/v1/jobs.pb.h"

#include <string>

namespace cairn::server {

struct SourceLimits {
  size_t maxFiles = 256;
  size_t maxFileBytes = 1 << 20;
  size_t maxTotalBytes = 8 << 20;
};

// "" when every attached source is acceptable, else why not (for INVALID_ARGUMENT): a name that
// is empty, absolute, has a `..` or `.` component, a backslash or a control character, a name
// given twice, or a size over the limits.
std::string checkSources(const google::protobuf::RepeatedPtrField<v1::SourceFile> &sources,
                         const SourceLimits &limits = {});

// The attached source that `debugPath` (a path of the program's debug info, usually absolute)
// is: the one whose name is the path's longest tail at a '/' boundary; -1 when none is.
int matchSource(const std::string &debugPath,
                const google::protobuf::RepeatedPtrField<v1::SourceFile> &sources);

} // namespace cairn::server
