#include "ArrayPrecheck.h"

#include "Linearize.h"

#include <algorithm>

namespace cairn::arrays {

Interval intervalOf(const PrecheckResult &r, const Expr *index) {
  if (auto it = r.indexIntervals.find(index); it != r.indexIntervals.end())
    return it->second;
  return {0, (Int(1) << std::min(index->width(), 126u)) - 1};
}

namespace {

// Enumerating more positions than this, a read's value bound is taken over the whole array.
constexpr Int kMostPositions = 4096;

// The bounds of the values a read of `bytes` bytes at `index` can see, given the index's
// interval: the little-endian words at the positions in it (at the read's offset within an
// element), a symbolic element bounded by its linearised range. Nullopt when the array's
// contents are not known position by position (a symbolic root): any value.
class ReadBounds {
public:
  ReadBounds(const PrecheckResult &result, const ArrayTypes *types, Linearizer &lin)
      : result_(result), types_(types), lin_(lin) {}

  std::optional<Interval> of(const Expr *array, const Expr *index, unsigned bytes) {
    std::optional<ArrayContents> contents = ArrayContents::of(array);
    if (!contents)
      return std::nullopt;
    const Expr *root = rootOf(array);
    const Interval interval = intervalOf(result_, index);
    u128 m = elementBytes(types_, root);
    std::optional<u128> k = residue(index, m);
    if (!k) { // the index's offset within an element is not fixed: every position counts
      m = 1;
      k = 0;
    }
    const Int size = Int(contents->size());
    Interval all{0, 0};
    bool any = false;
    auto include = [&](const Interval &v) {
      all = any ? Interval{std::min(all.lo, v.lo), std::max(all.hi, v.hi)} : v;
      any = true;
    };
    if (interval.hi - interval.lo >= kMostPositions) {
      for (Int j = 0; j < size; ++j) // any position: any element's value
        include(wordAt(*contents, j, bytes));
      include(wordAt(*contents, size, bytes)); // and the default beyond
      return all;
    }
    for (Int j = interval.lo; j <= interval.hi; ++j)
      if (u128(j) % m == *k)
        include(wordAt(*contents, j, bytes));
    if (!any) // no position of the interval is at the read's offset: the read cannot happen
      return Interval{1, 0};
    return all;
  }

private:
  Interval wordAt(const ArrayContents &contents, Int position, unsigned bytes) {
    Interval word{0, 0};
    for (unsigned i = bytes; i-- > 0;) {
      u128 value = 0;
      Interval b;
      if (const Expr *e = contents.at(u128(position + i), value)) {
        std::optional<Linear> l = e->width() == 8 ? lin_.term(e) : std::nullopt;
        b = l ? l->range : Interval{0, 255};
      } else {
        b = {Int(value), Int(value)};
      }
      word = {word.lo * 256 + b.lo, word.hi * 256 + b.hi};
    }
    return word;
  }

  const PrecheckResult &result_;
  const ArrayTypes *types_;
  Linearizer &lin_;
};

} // namespace

PrecheckResult precheck(const std::vector<const Expr *> &conjuncts, const QueryReads &reads,
                        const ArrayTypes *types, IntegerProgramSolver &ilp) {
  PrecheckResult result;
  if (reads.empty() || reads.symbolicWrite)
    return result; // Skipped: the paper's rule for symbolic writes; nothing to bound otherwise
  IntegerProgram program;
  Linearizer lin(program);
  // C_V: the conjuncts without reads. Reads nested in index terms stay abstract here.
  std::vector<const Expr *> plain, withReads;
  for (size_t i = 0; i < conjuncts.size(); ++i)
    (reads.readsArray[i] ? withReads : plain).push_back(conjuncts[i]);
  lin.assumeAll(plain);
  // Every read's index, minimised and maximised.
  std::vector<const Expr *> indices;
  std::vector<LinearExpr> objectives;
  for (const ArrayRead &r : reads.reads) {
    if (std::find(indices.begin(), indices.end(), r.index) != indices.end())
      continue;
    if (std::optional<Linear> t = lin.term(r.index)) {
      indices.push_back(r.index);
      objectives.push_back(t->expr);
    }
  }
  IntegerProgramSolver::Ranges ranges = ilp.ranges(program, nullptr, objectives);
  result.variables = uint32_t(program.numVariables());
  result.constraints = uint32_t(program.constraints().size());
  if (ranges.status == IntegerProgramSolver::Status::Infeasible) {
    result.outcome = PrecheckResult::Outcome::Unsat; // C_V alone is infeasible
    return result;
  }
  if (ranges.status != IntegerProgramSolver::Status::Feasible)
    return result; // Skipped: the ILP gave no answer in time
  for (size_t i = 0; i < indices.size(); ++i)
    result.indexIntervals.emplace(indices[i], ranges.ranges[i]);

  // C_arr: reads (whole words where bytes are read together) become variables bounded by the
  // values the array holds in their index's interval.
  ReadBounds bounds(result, types, lin);
  bool emptyRead = false;
  lin.setHook([&](const Expr *e) -> std::optional<Linear> {
    std::optional<Interval> range;
    if (std::optional<WordRead> w = asWordRead(e))
      range = bounds.of(w->array, w->index, w->bytes);
    else if (isRead(e) && e->width() == 8)
      range = bounds.of(e->kid(0), e->kid(1), 1);
    else
      return std::nullopt;
    if (!range)
      range = Interval{0, (Int(1) << e->width()) - 1};
    if (range->lo > range->hi) {
      emptyRead = true;
      range = Interval{0, 0};
    }
    return Linear{LinearExpr::variable(program.addVariable(range->lo, range->hi)), *range};
  });
  lin.assumeAll(withReads);
  result.variables = uint32_t(program.numVariables());
  result.constraints = uint32_t(program.constraints().size());
  // A read whose index interval holds no position at its offset within an element cannot take
  // place: its index, always at that offset, has no value the constraints allow.
  result.outcome = emptyRead || ilp.feasible(program) == IntegerProgramSolver::Status::Infeasible
                       ? PrecheckResult::Outcome::Unsat
                       : PrecheckResult::Outcome::Unknown;
  return result;
}

} // namespace cairn::arrays
