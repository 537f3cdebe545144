// The names of the libcs, as the command line and the job API spell them.
#include "cairn/engine/Environment.h"

namespace cairn::engine {

bool parseLibcKind(const std::string &name, LibcKind &out) {
  if (name == "minimal")
    out = LibcKind::Minimal;
  else if (name == "full")
    out = LibcKind::Full;
  else
    return false;
  return true;
}

} // namespace cairn::engine
