// Text for the XML reports (JUnit, Test-Comp): what XML 1.0 can hold, markup escaped.
#pragma once

#include <string>

namespace cairn::engine {

// `s` for an XML attribute or element: markup escaped, and what XML 1.0 cannot hold (control
// characters, bytes that are not UTF-8) as U+FFFD.
std::string xmlText(const std::string &s);

} // namespace cairn::engine
