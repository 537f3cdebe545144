// An error's call stack, as the engine writes it ("function at file:line", innermost first),
// taken apart for the reports that show it as locations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cairn::engine {

struct StackFrame {
  std::string function;
  std::string file; // empty: no location known
  uint32_t line = 0;
};

std::vector<StackFrame> parseStack(const std::vector<std::string> &stack);

} // namespace cairn::engine
