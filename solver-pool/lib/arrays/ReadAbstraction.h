// The abstraction of the CEGAR array layer: a query with its array reads replaced by fresh
// bit-vectors, a formula of the plain bit-vector core (no array theory and no lookup trees).
// Stores at symbolic indices are eliminated first by read-over-write
// (select(store(a, j, v), i) = ite(i = j, v, select(a, i))); each remaining byte read at a
// symbolic index of an array whose contents are known position by position (a constant array
// under stores at constant indices) becomes a fresh variable. Reads of input arrays at symbolic
// indices stay as they are: the backend's array theory answers for them.
#pragma once

#include "ArrayAxioms.h"
#include "ArrayPrecheck.h"

#include <unordered_map>
#include <unordered_set>

namespace cairn::arrays {

// The fresh variables, one per read select, kept across queries so that the same read is the
// same variable every time (its symbol is declared in the read's context once), and the reads
// a query tied to their arrays whole, which later queries tie from the start. Each read holds
// its select, and with it the select's array and store chain: past `capacity` reads, the next
// query starts with none, so that a long run keeps what its recent queries read, not every
// read it ever saw.
class FreshReads {
public:
  explicit FreshReads(size_t capacity = size_t(1) << 16) : capacity_(capacity) {}
  ExprRef variableFor(const Expr *select);
  bool isFresh(const SymbolDecl *s) const { return symbols_.contains(s); }
  size_t size() const { return variables_.size(); }
  void tieWhole(const Expr *variable) { tiedWhole_.insert(variable); }
  bool tiedWhole(const Expr *variable) const { return tiedWhole_.contains(variable); }
  // wholeRead(r) and wholeReadExpr of it, made once for a read as long as its index, array,
  // interval and element width stay those of the query that made them: a path's queries tie
  // the same reads again.
  const WholeRead &wholeOf(const AbstractRead &r) { return tied(r).whole; }
  ExprRef tieOf(const AbstractRead &r) { return tied(r).tie; }
  // Between queries: forgets every read once more than `capacity` are kept.
  void startQuery();
  uint64_t timesForgotten() const { return forgotten_; }

private:
  std::unordered_map<const Expr *, std::pair<ExprRef, ExprRef>> variables_; // select -> (select, variable)
  std::unordered_set<const SymbolDecl *> symbols_;
  std::unordered_set<const Expr *> tiedWhole_; // variables of reads tied whole
  struct Tie {
    ExprRef index, array; // held, so that an address in the cache is never another term's
    Interval interval;
    u128 modulus = 0, offset = 0;
    WholeRead whole;
    ExprRef tie;
  };
  const Tie &tied(const AbstractRead &r);
  std::unordered_map<const Expr *, Tie> ties_; // by the read's variable
  size_t capacity_;
  uint64_t forgotten_ = 0;
};

// How many element axioms a read has in the pool: the positions of its interval, inside the
// array, at its offset within an element.
uint64_t elementAxioms(const AbstractRead &r);

class ReadAbstraction {
public:
  ReadAbstraction(FreshReads &fresh, const PrecheckResult &intervals, const ArrayTypes *types,
                  uint64_t maxElementAxioms = ~uint64_t(0))
      : fresh_(fresh), intervals_(intervals), types_(types), maxElementAxioms_(maxElementAxioms) {}

  ExprRef rewrite(const Expr *e);
  // The reads abstracted so far, each once.
  const std::vector<AbstractRead> &reads() const { return reads_; }
  // Reads left to the core's encoding (more element axioms than the limit): how many, and
  // whether `select` (as rewritten) is one.
  uint32_t concreteReads() const { return concrete_; }
  bool leftToCore(const Expr *select) const;

private:
  ExprRef rebuild(const Expr *e);
  ExprRef read(const Expr *select);
  // select(array, index) for an array under the stores at symbolic indices already peeled.
  ExprRef readKnown(const Expr *array, const ExprRef &index, const Expr *originalIndex);

  FreshReads &fresh_;
  const PrecheckResult &intervals_;
  const ArrayTypes *types_;
  KnownBitsAnalysis knownBits_;
  std::unordered_map<const Expr *, ExprRef> memo_;
  std::unordered_map<const Expr *, std::shared_ptr<const ArrayContents>> contents_;
  uint64_t maxElementAxioms_;
  std::unordered_map<const Expr *, ExprRef> abstracted_; // read select -> what replaces it
  std::vector<AbstractRead> reads_;
  uint32_t concrete_ = 0;
};

} // namespace cairn::arrays
