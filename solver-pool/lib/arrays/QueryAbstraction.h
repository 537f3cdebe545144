// A query as the CEGAR loop of the typed array layer starts from it (private to
// solver-pool/lib/arrays): its reads abstracted (ReadAbstraction.h), the reads tied from the
// start inlined (ReadInlining.h), and where every index ranges over its whole width the
// constraints a cache already holds (AbstractionCache.h) taken from it instead.
//
// Tied from the start: a read tied whole in an earlier query (the same read is the same
// variable: FreshReads), since a path's queries share most of their reads and one a model got
// wrong before would cost the same round again; and a read with few positions in its interval
// (unless reads are refined by axioms only, the paper's way), whose tie is an `ite` over those
// few and cheaper than a round to find that a model got it wrong. Such a read is inlined with
// no index facts (WholeRead): the query's own constraints, in the abstraction as they are, are
// what the interval came from, and a model that broke them anyway is checked against the query.
// Asserted, they cost the core more than they spared it (fsm-table: 8.83 G -> 8.41 G
// instructions to the end at LEN=4, plain 7.77 G).
#pragma once

#include "AbstractionCache.h"
#include "ReadAbstraction.h"
#include "ReadInlining.h"

#include "cairn/solver/Solver.h"

namespace cairn::arrays {

struct AbstractQuery {
  Query query;                     // the abstraction, the reads tied from the start inlined
  std::vector<AbstractRead> reads; // each once
  std::vector<bool> whole;         // per read: tied from the start
  ReadInlining inlined;
  bool allTied = false; // every read tied from the start
  // And every index over its whole width: each tie is the read itself, so the abstraction is
  // the query and its models are the query's.
  bool exact = false;
  uint32_t untypedReads = 0;      // pruned by position only
  uint32_t readsLeftToCore = 0;   // more element axioms than the limit, or the core's lookup as narrow
  uint32_t constraintsReused = 0; // taken from the cache
};

struct AbstractionOptions {
  uint64_t maxElementAxioms = ~uint64_t(0);
  bool tieFewPositions = true;
};

AbstractQuery abstractQuery(const Query &q, const PrecheckResult &intervals, FreshReads &fresh,
                            AbstractionCache &cache, const AbstractionOptions &options);

} // namespace cairn::arrays
