// JSON string literals for the files a run writes (summary.json, SARIF).
#pragma once

#include <string>

namespace cairn::engine {

// `s` quoted and escaped. Bytes that are not valid UTF-8 (a path's raw bytes in a message)
// become U+FFFD, so that the document stays valid JSON.
std::string jsonString(const std::string &s);

} // namespace cairn::engine
