// JSON string literals for the files a run writes (summary.json, SARIF).
#pragma once

#include <cstddef>
#include <string>

namespace cairn::engine {

// `s` quoted and escaped. Bytes that are not valid UTF-8 (a path's raw bytes in a message)
// become U+FFFD, so that the document stays valid JSON.
std::string jsonString(const std::string &s);

// The length of the valid UTF-8 sequence that starts at s[i], or 0 when none does there.
size_t utf8SequenceAt(const std::string &s, size_t i);

} // namespace cairn::engine
