// The merging strategies' names, as the command line and the job API spell them.
#include "cairn/engine/Merging.h"

namespace cairn::engine {

bool parseMergeStrategy(const std::string &name, MergeStrategy &out) {
  if (name == "none")
    out = MergeStrategy::None;
  else if (name == "ssm")
    out = MergeStrategy::Static;
  else if (name == "dsm")
    out = MergeStrategy::Dynamic;
  else
    return false;
  return true;
}

const char *mergeStrategyName(MergeStrategy s) {
  switch (s) {
  case MergeStrategy::Static: return "ssm";
  case MergeStrategy::Dynamic: return "dsm";
  default: return "none";
  }
}

} // namespace cairn::engine
