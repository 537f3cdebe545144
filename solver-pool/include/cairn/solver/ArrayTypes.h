// What the engine knows of the arrays it read at symbolic indices: for each array, named by its
// root (the constant array or input array under its stores), the narrowest access the path made
// to its object, in bytes (a power of two). The typed array solver prunes read axioms by it
// (solver-pool/lib/arrays); a root not listed is taken as read byte by byte.
#pragma once

#include "cairn/expr/Expr.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace cairn {

struct ArrayTypes {
  std::vector<std::pair<ExprRef, uint32_t>> elementBytes;

  uint32_t bytesOf(const Expr *root) const {
    for (const auto &[r, bytes] : elementBytes)
      if (r.get() == root)
        return bytes;
    return 1;
  }

  // `types` with `root` read `bytes` wide: the narrower of that and what it held, in a new
  // object when anything changes (paths share the old one).
  static std::shared_ptr<const ArrayTypes> with(const std::shared_ptr<const ArrayTypes> &types, const Expr *root,
                                                uint32_t bytes) {
    if (types)
      for (const auto &[r, b] : types->elementBytes)
        if (r.get() == root && b <= bytes)
          return types;
    auto next = types ? std::make_shared<ArrayTypes>(*types) : std::make_shared<ArrayTypes>();
    auto it = std::find_if(next->elementBytes.begin(), next->elementBytes.end(),
                           [&](const auto &e) { return e.first.get() == root; });
    if (it != next->elementBytes.end())
      it->second = bytes;
    else
      next->elementBytes.emplace_back(ExprRef(root), bytes);
    return next;
  }
};

} // namespace cairn
