// The pruned pool of read axioms of type- and interval-aware array solving (Algorithm 4 of the
// ISSTA '21 paper). Each abstracted read (a byte select at a symbolic index, become a fresh
// variable) is tied to the array by:
//   element:    index = j        ->  read = the array's element j
//   beyond:     index >= size    ->  read = the array's default value
//   congruence: index1 = index2  ->  read1 = read2   (two reads of one array)
// The pool keeps an element axiom only for positions j inside the index's interval and at the
// index's offset within an element (j = k mod M for an index always k mod M), and a congruence
// only for two indices at the same offset whose intervals meet: the others can never fire.
#pragma once

#include "ArrayReads.h"
#include "IntegerProgram.h"
#include "KnownBits.h"

#include "cairn/expr/Assignment.h"

#include <memory>
#include <vector>

namespace cairn::arrays {

struct AbstractRead {
  const Expr *array = nullptr; // stores at constant indices over a constant array
  std::shared_ptr<const ArrayContents> contents; // the array's, shared by its reads
  ExprRef index;
  ExprRef variable; // the fresh 8-bit symbol standing for the read
  Interval interval;
  u128 modulus = 1; // the element width it is pruned by, and its offset within an element
  u128 offset = 0;
  bool untyped = false; // pruned by position only: its index is at no fixed offset within an element
  KnownBits indexBits; // of the query's own index term (before its reads were abstracted)
  uint64_t positions = 0; // the element axioms it has (elementAxioms), counted once
};

struct Axiom {
  enum class Kind : uint8_t { Element, Beyond, Congruence };
  Kind kind;
  uint32_t read;
  uint32_t other = 0;   // Congruence: the second read
  uint64_t position = 0; // Element
};

struct AxiomPool {
  std::vector<Axiom> axioms; // empty when only counted
  uint64_t size = 0;         // the axioms of the pool, built or not
  // Element and congruence axioms with no pruning at all (the paper's baseline count): every
  // position of each read's array, every pair of reads of one array.
  uint64_t unpruned = 0;
};

// The pool of the reads' axioms, or only its counts (a query whose reads are all tied from the
// start needs no axiom unless a model gets one wrong).
enum class PoolContents : uint8_t { Axioms, CountOnly };
AxiomPool buildAxiomPool(const std::vector<AbstractRead> &reads, PoolContents contents = PoolContents::Axioms);

// Each read's index and variable under a model, evaluated once for a whole pool.
struct ReadValues {
  std::vector<u128> index, value;
};
ReadValues valuesUnder(const std::vector<AbstractRead> &reads, const Assignment &model);

// Whether the model the values come from violates `axiom`.
bool violates(const Axiom &axiom, const std::vector<AbstractRead> &reads, const ReadValues &values,
              const Assignment &model);
// The axiom as a width-1 expression in the reads' context.
ExprRef axiomExpr(const Axiom &axiom, const std::vector<AbstractRead> &reads);
// The read tied to its array whole, equivalent to all of its element and beyond axioms where
// the query holds: its variable equals `value`, the array's element at its index, and the index
// has the bits `indexFacts` says (true in every model of the query; true when there are none).
// Constant contents are read by a lookup over the positions the index can take (ReadLookup.h)
// or else as such (the core's lookup over the table); contents with symbolic elements as an
// if-then-else over the positions of the read's pool, which spares the core a chain of stores.
struct WholeRead {
  ExprRef value;
  ExprRef indexFacts;
};
WholeRead wholeRead(const AbstractRead &read);
// wholeRead as one width-1 expression: the variable equal to the value, and the index facts.
ExprRef wholeReadExpr(const AbstractRead &read, const WholeRead &whole);

} // namespace cairn::arrays
