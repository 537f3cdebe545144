// The names of the size models and size modes, as the command line and the job API spell them.
#include "cairn/engine/SizeModel.h"

namespace cairn::engine {

bool parseSizeModelKind(const std::string &name, SizeModelKind &out) {
  if (name == "concrete")
    out = SizeModelKind::Concrete;
  else if (name == "symbolic")
    out = SizeModelKind::Symbolic;
  else
    return false;
  return true;
}

bool parseSizeMode(const std::string &name, SizeMode &out) {
  if (name == "eager")
    out = SizeMode::Eager;
  else if (name == "lazy")
    out = SizeMode::Lazy;
  else if (name == "merge")
    out = SizeMode::Merge;
  else if (name == "merge-opt")
    out = SizeMode::MergeOpt;
  else
    return false;
  return true;
}

} // namespace cairn::engine
