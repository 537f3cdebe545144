// Bottom-up rewriting of expression DAGs, each shared node rewritten once.
#pragma once

#include "cairn/expr/ExprContext.h"

#include <absl/container/flat_hash_map.h>

#include <span>

namespace cairn {

// What rebuildWith has rebuilt: each node's result. Kept across calls with the same `replace`,
// it shares the work on what several expressions share.
using RebuildMemo = absl::flat_hash_map<const Expr *, ExprRef>;

// `e` rebuilt bottom-up, each node first offered to `replace(node, rebuild)`, which gives its
// replacement or null to have its kids rebuilt; a node whose kids did not change is kept.
template <class Replace> ExprRef rebuildWith(ExprContext &ctx, const Expr *e, Replace replace, RebuildMemo &done) {
  auto rebuild = [&](auto &self, const Expr *n) -> ExprRef {
    if (auto it = done.find(n); it != done.end())
      return it->second;
    ExprRef out = replace(n, [&](const Expr *kid) { return self(self, kid); });
    if (!out && isLeaf(n->kind()))
      out = ExprRef(n);
    if (!out) {
      ExprRef kids[3];
      bool changed = false;
      for (unsigned k = 0; k < n->numKids(); ++k) {
        kids[k] = self(self, n->kid(k));
        changed |= kids[k].get() != n->kid(k);
      }
      out = changed ? ctx.build(n->kind(), std::span<const ExprRef>(kids, n->numKids()), n->width(), n->aux())
                    : ExprRef(n);
    }
    done.emplace(n, out);
    return out;
  };
  return rebuild(rebuild, e);
}

template <class Replace> ExprRef rebuildWith(ExprContext &ctx, const Expr *e, Replace replace) {
  RebuildMemo done;
  return rebuildWith(ctx, e, replace, done);
}

} // namespace cairn
