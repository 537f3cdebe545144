// A walk over the users of values, transitively through the users it is told to follow: the
// question "does this value reach a use of that kind" the transformation's analyses ask.
#pragma once

#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/User.h>

#include <vector>

namespace cairn::engine::transform {

enum class UseStep {
  Follow, // look at this user's users too
  Ignore, // a use that says nothing
  Stop,   // the use the walk looks for
};

// Whether `step` stops at some user reached from `roots`.
template <class Step> bool reachesUse(std::vector<const llvm::Value *> roots, Step &&step) {
  llvm::DenseSet<const llvm::Value *> seen;
  while (!roots.empty()) {
    const llvm::Value *v = roots.back();
    roots.pop_back();
    if (!seen.insert(v).second)
      continue;
    for (const llvm::User *u : v->users())
      switch (step(v, u)) {
      case UseStep::Follow: roots.push_back(u); break;
      case UseStep::Ignore: break;
      case UseStep::Stop: return true;
      }
  }
  return false;
}

} // namespace cairn::engine::transform
