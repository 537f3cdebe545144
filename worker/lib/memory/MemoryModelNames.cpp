// The names of the memory models, as the command line and the job API spell them.
#include "cairn/engine/MemoryModel.h"

namespace cairn::engine {

bool parseMemoryModelKind(const std::string &name, MemoryModelKind &out) {
  if (name == "standard")
    out = MemoryModelKind::Standard;
  else if (name == "relocatable")
    out = MemoryModelKind::Relocatable;
  else
    return false;
  return true;
}

} // namespace cairn::engine
