#include "reports/StackFrames.h"

namespace cairn::engine {

std::vector<StackFrame> parseStack(const std::vector<std::string> &stack) {
  std::vector<StackFrame> frames;
  for (const std::string &entry : stack) {
    StackFrame f;
    const size_t at = entry.rfind(" at ");
    f.function = entry.substr(0, at);
    if (at != std::string::npos) {
      const std::string where = entry.substr(at + 4);
      const size_t colon = where.rfind(':');
      if (colon != std::string::npos && colon + 1 < where.size() &&
          where.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
        f.file = where.substr(0, colon);
        f.line = uint32_t(std::stoul(where.substr(colon + 1)));
      }
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

} // namespace cairn::engine
