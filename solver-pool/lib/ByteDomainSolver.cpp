// A solver layer for the queries exploration of byte inputs asks most: those whose constraints
// all read a few bytes of input (array elements at constant indices, or scalars of at most 8
// bits). Such a query has few candidate models, and the expression evaluator, the semantics
// every other layer checks models against, decides it by trying them: no backend call, and no
// backend context made for a run whose queries are all of this kind.
// A literal of few nodes that reads one byte is decided for all 256 values at once and
// remembered (ByteDomains.h): the same literals come back in query after query of a path, and
// trying each value against every constraint was most of a run's time on a tokenizer's merged
// states. The evaluator tries only the values they all allow, against the larger literals.
// Over two to kMostBytes bytes the values are tried byte by byte, each literal as soon as the
// bytes it reads have values, within a budget of evaluated nodes (about a millisecond, what a
// small query costs Z3): coreutils' sleep parses its two argument characters with strtod into
// 64-bit products and quotients, which Z3 bit-blasts, and asked it 152 queries in 22 s that
// here are decided among at most 65536 candidates. Past the budget, or over more candidates,
// the query goes to the next layer unchanged, as does anything else.
#include "ByteClasses.h"
#include "ByteDomains.h"
#include "Footprint.h"

#include "cairn/expr/Assignment.h"
#include "cairn/solver/SolverChain.h"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <bitset>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace cairn {

namespace {

class ByteDomainSolver final : public SolverLayer {
public:
  ByteDomainSolver(std::unique_ptr<Solver> next, std::shared_ptr<ByteDomains> domains)
      : SolverLayer(std::move(next)), domains_(domains ? std::move(domains) : std::make_shared<ByteDomains>()) {
    stats_.layer = "byte-domain";
  }
  std::string name() const override { return "byte-domain(" + next_->name() + ")"; }

  SolverResponse check(const Query &q, bool wantModel) override {
    ++stats_.queries;
    std::optional<SolverResponse> r = decide(q, wantModel);
    if (!r)
      return next_->check(q, wantModel);
    ++stats_.answered;
    return std::move(*r);
  }

private:
  template <class Each> static void forEachLiteral(const Query &q, Each each) {
    for (const ExprRef &c : q.constraints)
      if (c)
        each(c);
    if (q.expr)
      each(q.expr);
  }

  // What the query reads; what each literal reads is kept in literalReads_, in forEachLiteral's
  // order, for decideFew.
  Footprint footprintOf(const Query &q) {
    literalReads_.clear();
    Footprint fp;
    forEachLiteral(q, [&](const ExprRef &literal) { fp.merge(literalReads_.emplace_back(computeFootprint(literal.get()))); });
    return fp;
  }

  std::optional<SolverResponse> decide(const Query &q, bool wantModel) {
    const Footprint fp = footprintOf(q);
    if (std::optional<InputByte> byte = cairn::onlyByte(fp))
      return decideOne(q, *byte, wantModel);
    return decideFew(q, fp, wantModel);
  }

  std::optional<SolverResponse> decideOne(const Query &q, const InputByte &byte, bool wantModel) {
    std::optional<Assignment> candidate = byteCandidate(byte);
    if (!candidate)
      return std::nullopt; // too large an array to copy here
    // Every literal that reads a byte reads this one: the query reads no other.
    std::bitset<256> allowed = std::bitset<256>().set();
    residual_.clear();
    forEachLiteral(q, [&](const ExprRef &literal) {
      if (const std::bitset<256> *values = domains_->exactValuesOf(literal))
        allowed &= *values;
      else
        residual_.push_back(literal.get());
    });
    const unsigned values = 1u << byte.symbol->width;
    try {
      for (unsigned v = 0; v < values; ++v) {
        if (!allowed[v])
          continue;
        setByte(*candidate, byte, v);
        if (!satisfies(*candidate))
          continue;
        return sat(std::move(*candidate), q, wantModel);
      }
    } catch (const std::domain_error &) { // a quantifier the evaluator cannot enumerate
      return std::nullopt;
    }
    return SolverResponse{SatResult::Unsat, {}, {}};
  }

  static SolverResponse sat(Assignment model, const Query &q, bool wantModel) {
    SolverResponse r;
    r.result = SatResult::Sat;
    if (wantModel) {
      r.model = std::move(model);
      completeModel(r.model, q);
    }
    return r;
  }

  // The query's bytes, when it reads at most kMostBytes, each a byte: nothing otherwise (an
  // array read at a symbolic index among them: the backends take an element past its end as
  // free, where the evaluator reads 0).
  static std::optional<std::vector<InputByte>> fewBytes(const Footprint &fp) {
    std::vector<InputByte> bytes;
    bool more = false;
    fp.forEach([&](const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices) {
      if (whole || s->width > 8 || s->cls == SymbolClass::Bound)
        more = true;
      else if (!s->isArray())
        bytes.push_back({s, 0});
      else
        for (uint64_t i : indices)
          bytes.push_back({s, i});
    });
    if (more || bytes.size() < 2 || bytes.size() > kMostBytes)
      return std::nullopt;
    // By name, not by the footprint's order of symbol addresses: the first model found is the
    // same under every configuration (the relocatable model's tests are the standard one's).
    std::sort(bytes.begin(), bytes.end(), [](const InputByte &x, const InputByte &y) {
      return std::tie(x.symbol->name, x.symbol->id, x.index) < std::tie(y.symbol->name, y.symbol->id, y.index);
    });
    return bytes;
  }

  std::optional<SolverResponse> decideFew(const Query &q, const Footprint &fp, bool wantModel) {
    std::optional<std::vector<InputByte>> bytes = fewBytes(fp);
    if (!bytes)
      return std::nullopt;
    auto indexOf = [&](const SymbolDecl *s, uint64_t index) {
      for (size_t k = 0; k < bytes->size(); ++k)
        if ((*bytes)[k].symbol == s && (*bytes)[k].index == index)
          return k;
      return bytes->size();
    };
    Assignment candidate;
    for (const InputByte &b : *bytes) {
      if (!b.symbol->isArray() || candidate.has(b.symbol))
        continue;
      std::optional<Assignment> one = byteCandidate(b);
      if (!one)
        return std::nullopt;
      candidate.merge(*one);
    }
    std::vector<std::bitset<256>> allowed(bytes->size());
    for (size_t k = 0; k < bytes->size(); ++k)
      for (unsigned v = 0; v < (1u << (*bytes)[k].symbol->width); ++v)
        allowed[k].set(v);
    // Each literal is checked at the first byte by which all it reads have values: the last of
    // them in `bytes`' order. The cheaper first, so that most candidates fail on few nodes.
    struct Check {
      size_t at;
      uint64_t nodes;
      const Expr *literal;
    };
    std::vector<Check> checks;
    size_t n = 0;
    forEachLiteral(q, [&](const ExprRef &literal) {
      const Footprint &reads = literalReads_[n++];
      const InputByte *one = domains_->byteOf(literal);
      if (const std::bitset<256> *values = one ? domains_->exactValuesOf(literal) : nullptr) {
        allowed[indexOf(one->symbol, one->index)] &= *values;
        return;
      }
      size_t at = 0;
      reads.forEach([&](const SymbolDecl *s, bool, const std::vector<uint64_t> &indices) {
        if (!s->isArray())
          at = std::max(at, indexOf(s, 0));
        for (uint64_t i : indices)
          at = std::max(at, indexOf(s, i));
      });
      checks.push_back({at, nodeCount(literal.get()), literal.get()});
    });
    for (const std::bitset<256> &a : allowed)
      if (a.none())
        return SolverResponse{SatResult::Unsat, {}, {}};
    // One value of each class is as good as any other: the smallest, so the first model found
    // is the one the enumeration of every value finds first. Worked out only where trying every
    // candidate could go past the budget or the bound on candidates: elsewhere it is work that
    // changes no answer.
    uint64_t candidates = candidateCount(allowed), nodes = 0;
    for (const Check &c : checks)
      nodes += c.nodes;
    if (candidates > kMostCandidates || candidates * nodes > kNodeBudget) {
      std::vector<const Expr *> literals(checks.size());
      std::transform(checks.begin(), checks.end(), literals.begin(), [](const Check &c) { return c.literal; });
      if (keepOneValuePerClass(literals, *bytes, allowed, *domains_))
        candidates = candidateCount(allowed);
    }
    if (candidates > kMostCandidates)
      return std::nullopt;
    std::sort(checks.begin(), checks.end(),
              [](const Check &x, const Check &y) { return x.at != y.at ? x.at < y.at : x.nodes < y.nodes; });
    uint64_t budget = kNodeBudget;
    // Depth-first over the bytes in order; `from[k]` is the first check at byte k.
    std::vector<size_t> from(bytes->size() + 1, checks.size());
    for (size_t c = checks.size(); c-- > 0;)
      from[checks[c].at] = c;
    for (size_t k = bytes->size(); k-- > 0;)
      from[k] = std::min(from[k], from[k + 1]);
    std::vector<unsigned> value(bytes->size(), 0);
    size_t k = 0;
    bool descend = true;
    try {
      for (;;) {
        // Find byte k's next allowed value (its first when descending).
        unsigned v = descend ? 0 : value[k] + 1;
        while (v < 256 && !allowed[k][v])
          ++v;
        if (v == 256) {
          if (k == 0)
            return SolverResponse{SatResult::Unsat, {}, {}};
          --k;
          descend = false;
          continue;
        }
        value[k] = v;
        setByte(candidate, (*bytes)[k], v);
        bool holds = true;
        for (size_t c = from[k]; c < from[k + 1] && holds; ++c) {
          if (budget < checks[c].nodes)
            return std::nullopt; // the next layer's, after all
          budget -= checks[c].nodes;
          holds = evaluatesTrue(checks[c].literal, candidate);
        }
        if (!holds) {
          descend = false;
          continue;
        }
        if (k + 1 == bytes->size())
          return sat(std::move(candidate), q, wantModel);
        ++k;
        descend = true;
      }
    } catch (const std::domain_error &) { // a quantifier the evaluator cannot enumerate
      return std::nullopt;
    }
  }

  // The product of the bytes' numbers of values, or kMostCandidates + 1 where it is larger.
  static uint64_t candidateCount(const std::vector<std::bitset<256>> &allowed) {
    uint64_t candidates = 1;
    for (const std::bitset<256> &a : allowed)
      if ((candidates *= a.count()) > kMostCandidates) // at most 2^16 * 256 here: no overflow
        return kMostCandidates + 1;
    return candidates;
  }

  // Nodes of the expression's graph, each once (up to a bound).
  static uint64_t nodeCount(const Expr *root) {
    absl::flat_hash_set<const Expr *> seen;
    std::vector<const Expr *> work{root};
    while (!work.empty() && seen.size() < kNodeBudget) {
      const Expr *e = work.back();
      work.pop_back();
      if (!seen.insert(e).second)
        continue;
      for (unsigned i = 0; i < e->numKids(); ++i)
        work.push_back(e->kid(i));
    }
    return seen.size();
  }

  // At most this many bytes, this many candidate models, this many evaluated nodes.
  static constexpr size_t kMostBytes = 8;
  static constexpr uint64_t kMostCandidates = uint64_t(1) << 16;
  static constexpr uint64_t kNodeBudget = uint64_t(1) << 15;

  bool satisfies(const Assignment &a) const {
    return std::all_of(residual_.begin(), residual_.end(), [&](const Expr *l) { return evaluatesTrue(l, a); });
  }

  std::shared_ptr<ByteDomains> domains_;
  std::vector<Footprint> literalReads_; // footprintOf's, per literal
  std::vector<const Expr *> residual_; // the query's literals no memo decides, in its order
};

} // namespace

std::unique_ptr<Solver> createByteDomainSolver(std::unique_ptr<Solver> next, std::shared_ptr<ByteDomains> domains) {
  return std::make_unique<ByteDomainSolver>(std::move(next), std::move(domains));
}

} // namespace cairn
