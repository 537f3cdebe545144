// Expressions on the wire: conversion between expression DAGs and cairn.v1.ExprDag messages.
//
// A dag lists every node once, operands before users, and the symbols the nodes mention; nodes
// name their kind by kindName(). Reading a message validates it completely before building
// anything, so malformed input (from another process, another version, or an attacker) raises
// std::invalid_argument and never reaches the builders' assertions. Both directions are
// iterative: store chains hundreds of thousands of nodes deep are fine.
#pragma once

#include "cairn/expr/Expr.h"

#include <cstdint>
#include <span>
#include <vector>

namespace cairn {
namespace v1 {
class ExprDag;
class U128;
} // namespace v1

// Replaces the contents of `out` with the nodes below `roots` and `rootIndices` with the index
// of each root's node (one entry per root, in order; equal roots share an index). Roots must be
// non-null.
void serializeExprs(std::span<const ExprRef> roots, v1::ExprDag &out,
                    std::vector<uint32_t> &rootIndices);

// Rebuilds the nodes at `indices` of `dag` in `ctx`, returning one expression per index. The
// dag's symbols are looked up by name in `ctx` and declared when absent (with the message's
// class, tag and size); a name that `ctx` already declares with another width, element width,
// domain width or class is an error. Nodes go through the simplifying builders, so the results
// are the canonical forms of what was sent (identical to it when the sender's context
// simplified too). Throws std::invalid_argument on malformed input, before touching `ctx`.
std::vector<ExprRef> deserializeExprs(const v1::ExprDag &dag, std::span<const uint32_t> indices,
                                      ExprContext &ctx);

// 128-bit values in messages.
void toProto(u128 v, v1::U128 &out);
u128 fromProto(const v1::U128 &v);

} // namespace cairn
