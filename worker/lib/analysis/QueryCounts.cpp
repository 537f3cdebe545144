#include "analysis/QueryCounts.h"

#include "analysis/ControlFlow.h"
#include "analysis/TripCounts.h"

#include <absl/container/flat_hash_set.h>
#include <absl/container/inlined_vector.h>
#include <absl/container/node_hash_map.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>

namespace cairn::engine::analysis {

namespace {

// Where `variable` is or would go in counts sorted by variable.
template <class Pairs> auto findVariable(Pairs &added, uint32_t variable) {
  return std::lower_bound(added.begin(), added.end(), std::pair{variable, 0.0},
                          [](const auto &x, const auto &y) { return x.first < y.first; });
}

} // namespace

double QueryCounts::addedFor(uint32_t variable) const {
  auto it = findVariable(added, variable);
  return it != added.end() && it->first == variable ? it->second : 0;
}

bool QueryCounts::isAlwaysHot(uint32_t variable) const {
  return std::binary_search(alwaysHot.begin(), alwaysHot.end(), variable);
}

double QueryCounts::countFor(uint32_t variable) const { return isAlwaysHot(variable) ? HUGE_VAL : addedFor(variable); }

std::vector<std::pair<uint32_t, double>> variableCounts(const QueryCounts &at, const QueryCounts *returned,
                                                        double returnWeight) {
  std::vector<std::pair<uint32_t, double>> out = at.added;
  auto entry = [&](uint32_t v) -> double & {
    auto it = findVariable(out, v);
    if (it == out.end() || it->first != v)
      it = out.insert(it, {v, 0.0});
    return it->second;
  };
  if (returned && returnWeight > 0)
    for (const auto &[v, r] : returned->added)
      entry(v) += r * returnWeight;
  for (uint32_t v : at.alwaysHot)
    entry(v) = HUGE_VAL;
  return out;
}

std::vector<uint32_t> hotVariables(const QueryCounts &at, double total, double alpha, const QueryCounts *returned,
                                   double returnWeight) {
  std::vector<uint32_t> out;
  for (const auto &[v, count] : variableCounts(at, returned, returnWeight))
    if (count > alpha * total)
      out.push_back(v);
  return out;
}

namespace {

// What a variable's dependence is when it moves to what its value was computed from: its
// count, and whether it is hot whatever the count.
struct Taken {
  double count = 0;
  bool alwaysHot = false;
};

// Counts as the recursion moves them backwards: a sparse vector over variables, Q_t, and the
// variables hot whatever their count.
struct Counts {
  double total = 0;
  std::vector<std::pair<uint32_t, double>> added; // by variable id
  std::vector<uint32_t> alwaysHot;                // sorted

  std::vector<std::pair<uint32_t, double>>::iterator find(uint32_t v) { return findVariable(added, v); }
  void add(uint32_t v, double x) {
    if (x == 0)
      return;
    auto it = find(v);
    if (it != added.end() && it->first == v)
      it->second += x;
    else
      added.insert(it, {v, x});
  }
  void add(uint32_t v, const Taken &t) {
    add(v, t.count);
    if (t.alwaysHot)
      markAlwaysHot(v);
  }
  void markAlwaysHot(uint32_t v) {
    auto it = std::lower_bound(alwaysHot.begin(), alwaysHot.end(), v);
    if (it == alwaysHot.end() || *it != v)
      alwaysHot.insert(it, v);
  }
  Taken take(uint32_t v) {
    Taken t;
    if (auto it = find(v); it != added.end() && it->first == v) {
      t.count = it->second;
      added.erase(it);
    }
    if (auto it = std::lower_bound(alwaysHot.begin(), alwaysHot.end(), v); it != alwaysHot.end() && *it == v) {
      t.alwaysHot = true;
      alwaysHot.erase(it);
    }
    return t;
  }
  void addScaled(const Counts &o, double factor) {
    total += factor * o.total;
    if (!o.alwaysHot.empty()) {
      std::vector<uint32_t> both;
      both.reserve(alwaysHot.size() + o.alwaysHot.size());
      std::set_union(alwaysHot.begin(), alwaysHot.end(), o.alwaysHot.begin(), o.alwaysHot.end(),
                     std::back_inserter(both));
      alwaysHot = std::move(both);
    }
    // Merged into a buffer kept from the last call, which then takes the old entries' room:
    // the estimate adds counts at every edge of every unrolled copy, and a fresh vector each
    // time made allocation most of its cost.
    thread_local std::vector<std::pair<uint32_t, double>> merged;
    merged.clear();
    merged.reserve(added.size() + o.added.size());
    auto a = added.cbegin();
    auto b = o.added.cbegin();
    while (a != added.cend() || b != o.added.cend()) {
      if (b == o.added.cend() || (a != added.cend() && a->first < b->first))
        merged.push_back(*a++);
      else if (a == added.cend() || b->first < a->first)
        merged.push_back({b->first, factor * (b++)->second});
      else
        merged.push_back({a->first, (a++)->second + factor * (b++)->second});
    }
    added.swap(merged);
  }
  // Counts grow by 2 * beta per branch level: deep code goes past any double. Past kCeiling
  // they are all equally large.
  static constexpr double kCeiling = 1e280;
  QueryCounts result() const {
    QueryCounts r{std::min(total, kCeiling), added, alwaysHot};
    for (auto &[v, x] : r.added)
      x = std::min(x, kCeiling);
    return r;
  }
};

// One function's estimate: the recursion over its blocks, loops unrolled to their bounds.
class FunctionEstimator {
public:
  // `returnedValue`: count the dependence of the returned value (one at each `ret`) instead
  // of queries.
  FunctionEstimator(const Program &program, uint32_t index, const GlobalIndex &globals,
                    const std::vector<FunctionCounts> &summaries, const QceOptions &options, bool returnedValue)
      : program_(program), fn_(program.functions[index]), cfg_(fn_), deps_(program, fn_, globals),
        summaries_(summaries), options_(options), returnedValue_(returnedValue) {
    findTripCounts(program, fn_, cfg_, deps_);
  }

  // False when the unrolled copies went over the limit.
  bool run(uint32_t kappa, uint32_t staticCap, FunctionCounts &out);
  // Where the evaluation starts: the blocks outside loops in post-order (deep control flow
  // recurses deeply, and so each finds most of what it needs already evaluated), then the entry.
  template <class Each> void forEachRoot(Each each) const {
    const std::vector<uint32_t> &rpo = cfg_.reversePostOrder();
    for (auto b = rpo.rbegin(); b != rpo.rend(); ++b)
      if (cfg_.loopsOf(*b).empty())
        each(Node{*b, {}});
    each(Node{0, {}});
  }
  // Whether run() with these bounds would stay within the limit, found without evaluating a
  // copy: an unrolling that does not fit costs its traversal only.
  bool fits(uint32_t kappa, uint32_t staticCap);

private:
  // A block in an unrolled copy: the header visits left to each loop around it (outermost
  // first) that may still iterate.
  struct Node {
    uint32_t block = 0;
    // Inline: an unrolled function has up to maxCopiesPerFunction copies, each made, hashed
    // and copied at every edge into it, and loops rarely nest deeper than this.
    absl::InlinedVector<uint32_t, 4> left;
    bool operator==(const Node &o) const = default;
  };
  struct NodeHash {
    size_t operator()(const Node &n) const {
      uint64_t h = (uint64_t(n.block) + 1) * 0x9e3779b97f4a7c15ull;
      for (uint32_t l : n.left)
        h = (h ^ l) * 0xff51afd7ed558ccdull;
      return size_t(h ^ (h >> 29));
    }
  };
  uint32_t iterations(uint32_t loop) const {
    const std::optional<uint32_t> &t = cfg_.loops()[loop].tripCount;
    return t ? std::min(*t, staticCap_) : kappa_;
  }
  // Where an edge from `from` to `to` goes in the unrolled program: a node, or (past a loop's
  // last iteration) its exits, each with a share. Inline, as it is made for every edge of every
  // copy.
  using Targets = absl::InlinedVector<std::pair<Node, double>, 4>;
  void resolve(const Node &from, uint32_t to, Targets &out, unsigned depth = 0) const;
  const Counts &value(const Node &n);
  Counts evaluate(const Node &n);
  void edgeValue(uint32_t from, const Node &to, double share, Counts &into);
  void instruction(uint32_t index, Counts &q, bool record);
  void call(const Instr &in, Counts &q);
  // A query point on `condition`: a branch, a switch or a klee_assume, or (isAddress) an access
  // through a pointer. What it is computed from is hot whatever its count where it is an
  // address (QceOptions::addressesHot) or computed in floating point (floatsHot).
  void queryOn(const Operand &condition, Counts &q, bool isAddress = false);

  const Program &program_;
  const Function &fn_;
  ControlFlow cfg_;
  DataDependence deps_;
  const std::vector<FunctionCounts> &summaries_;
  const QceOptions &options_;
  const bool returnedValue_;
  uint32_t kappa_ = 0, staticCap_ = 0;
  // Hashed: tens of thousands of copies in an unrolled function, each looked up at every edge
  // into it. Nodes, since value() hands out references while the memo grows.
  absl::node_hash_map<Node, Counts, NodeHash> memo_;
  absl::flat_hash_set<Node, NodeHash> active_; // being evaluated: met again, a cycle no loop bounds
  FunctionCounts *out_ = nullptr;
  std::vector<absl::InlinedVector<uint32_t, 4>> recordedLeft_; // per block: the copy recorded in out_
  bool overflow_ = false;
};

void FunctionEstimator::resolve(const Node &from, uint32_t to, Targets &out,
                                unsigned depth) const {
  const std::vector<uint32_t> &fromLoops = cfg_.loopsOf(from.block), &toLoops = cfg_.loopsOf(to);
  Node n{to, {}};
  for (uint32_t l : toLoops) {
    auto at = std::find(fromLoops.begin(), fromLoops.end(), l);
    uint32_t left = at == fromLoops.end() ? iterations(l) : from.left[size_t(at - fromLoops.begin())];
    if (at != fromLoops.end() && cfg_.loops()[l].header == to && left > 0)
      --left; // a back edge: one iteration done
    n.left.push_back(left);
  }
  const uint32_t headed = cfg_.loopHeaded(to);
  if (headed == ~0u || n.left.back() > 0 || depth > 16) {
    out.push_back({std::move(n), 1.0});
    return;
  }
  // Past the last iteration: on to the loop's exits without the header's query.
  const LoopInfo &loop = cfg_.loops()[headed];
  std::vector<uint32_t> exits;
  for (uint32_t s : cfg_.successors(to))
    if (!cfg_.inLoop(headed, s))
      exits.push_back(s);
  if (exits.empty())
    exits = loop.exits;
  Targets each;
  for (uint32_t e : exits) {
    each.clear();
    resolve(n, e, each, depth + 1);
    for (auto &[node, share] : each)
      out.push_back({std::move(node), share / double(exits.size())});
  }
}

// Iterative, depth first: an unrolled loop of a large function is a chain of many thousand
// copies, past any stack as recursion. A node is evaluated once the nodes its edges lead to
// are, so that evaluate() finds each in memo_; one still being expanded (an ancestor: a
// cycle no loop bounds, irreducible flow) counts as zero, where the chain is cut.
const Counts &FunctionEstimator::value(const Node &root) {
  static const Counts zero;
  if (auto it = memo_.find(root); it != memo_.end()) // every edge into a copy asks for it
    return it->second;
  struct Pending {
    Node node;
    bool expanded = false;
  };
  std::vector<Pending> stack{{root}};
  Targets targets;
  while (!stack.empty() && !overflow_) {
    if (memo_.count(stack.back().node)) {
      stack.pop_back();
      continue;
    }
    if (stack.back().expanded) {
      Node n = std::move(stack.back().node);
      stack.pop_back();
      Counts c = evaluate(n);
      active_.erase(n);
      memo_.emplace(std::move(n), std::move(c));
      continue;
    }
    if (active_.count(stack.back().node)) {
      stack.pop_back();
      continue;
    }
    if (memo_.size() >= options_.maxCopiesPerFunction) {
      overflow_ = true;
      break;
    }
    stack.back().expanded = true;
    const Node n = stack.back().node;
    active_.insert(n);
    for (uint32_t s : cfg_.successors(n.block)) {
      targets.clear();
      resolve(n, s, targets);
      for (auto &[node, share] : targets)
        if (!memo_.count(node) && !active_.count(node))
          stack.push_back({std::move(node)});
    }
  }
  if (overflow_)
    for (const Pending &p : stack)
      active_.erase(p.node);
  auto it = memo_.find(root);
  return it == memo_.end() ? zero : it->second;
}

// The value an edge brings into `from`'s end: the target's counts, after the phi copies made
// on the edge.
void FunctionEstimator::edgeValue(uint32_t from, const Node &to, double share, Counts &into) {
  const Counts &v = value(to);
  const BasicBlock &b = fn_.blocks[to.block];
  auto edge = std::find_if(b.edges.begin(), b.edges.end(), [&](const BasicBlock::Edge &e) { return e.from == from; });
  if (edge == b.edges.end() || edge->count == 0) {
    into.addScaled(v, share);
    return;
  }
  Counts moved = v;
  absl::InlinedVector<Taken, 4> taken(edge->count);
  for (uint32_t k = 0; k < edge->count; ++k)
    taken[k] = moved.take(fn_.phiMoves[edge->first + k].dst);
  for (uint32_t k = 0; k < edge->count; ++k)
    for (uint32_t s : deps_.sources(fn_.phiMoves[edge->first + k].src))
      moved.add(s, taken[k]);
  into.addScaled(moved, share);
}

Counts FunctionEstimator::evaluate(const Node &n) {
  Counts q;
  const Instr &t = cfg_.terminator(n.block);
  const std::vector<uint32_t> &succ = cfg_.successors(n.block);
  const bool branches = succ.size() > 1;
  Targets targets;
  for (uint32_t s : succ) {
    targets.clear();
    resolve(n, s, targets);
    for (const auto &[node, share] : targets)
      edgeValue(n.block, node, share * (branches ? options_.beta : 1.0), q);
  }
  if (returnedValue_) {
    if (t.op == Opcode::Ret && t.hasValue)
      for (uint32_t s : deps_.sources(t.a))
        q.add(s, 1);
  } else if (branches || t.op == Opcode::Switch || t.op == Opcode::IndirectBr) {
    // Only these terminators have more than one successor.
    queryOn(t.a, q);
  }
  // The copy with the most iterations left is the one a state entering the block stands for.
  const bool record = recordedLeft_[n.block].empty() || n.left > recordedLeft_[n.block];
  if (record)
    recordedLeft_[n.block] = n.left.empty() ? decltype(n.left){0} : n.left;
  const uint32_t first = fn_.blocks[n.block].firstInstr;
  for (uint32_t i = uint32_t(&t - fn_.instrs.data()); i-- > first;)
    instruction(i, q, record);
  if (record)
    out_->atBlock[n.block] = q.result();
  return q;
}

void FunctionEstimator::queryOn(const Operand &condition, Counts &q, bool isAddress) {
  q.total += 1;
  const bool alwaysHot =
      isAddress ? options_.addressesHot : options_.floatsHot && deps_.computedInFloat(condition);
  for (uint32_t s : deps_.sources(condition)) {
    q.add(s, 1);
    if (alwaysHot)
      q.markAlwaysHot(s);
  }
}

void FunctionEstimator::instruction(uint32_t index, Counts &q, bool record) {
  const Instr &in = fn_.instrs[index];
  const bool hasDst = in.dst < fn_.numRegs;
  // An access through a pointer (not at a constant offset from a frame's base or a global)
  // asks where it points as soon as the pointer or an index is symbolic: a query point whose
  // condition is the address.
  auto memoryQuery = [&](const Operand &address) {
    if (returnedValue_ || !options_.countMemoryAccesses || deps_.addressOf(address))
      return;
    queryOn(address, q, true);
  };
  switch (in.op) {
  case Opcode::Load: {
    if (hasDst)
      if (Taken x = q.take(in.dst); x.count != 0 || x.alwaysHot) {
        if (std::optional<uint32_t> slot = deps_.slot(in.a, (in.width + 7) / 8))
          q.add(*slot, x);
        else
          for (uint32_t s : deps_.sources(in.a))
            q.add(s, x);
      }
    memoryQuery(in.a);
    return;
  }
  case Opcode::Store: {
    if (std::optional<uint32_t> slot = deps_.existingSlot(in.b, (in.width + 7) / 8))
      if (Taken x = q.take(*slot); x.count != 0 || x.alwaysHot)
        for (uint32_t s : deps_.sources(in.a))
          q.add(s, x);
    memoryQuery(in.b);
    return;
  }
  case Opcode::Call:
    if (record)
      out_->afterCall[index] = q.result();
    call(in, q);
    return;
  default:
    if (hasDst)
      q.take(in.dst);
  }
}

void FunctionEstimator::call(const Instr &in, Counts &q) {
  const CallSite &cs = fn_.callSites[in.imm];
  auto arg = [&](uint32_t k) { return fn_.callArgs[cs.firstArg + k]; };
  if (in.dst < fn_.numRegs)
    if (Taken x = q.take(in.dst); x.count != 0 || x.alwaysHot)
      for (uint32_t k = 0; k < cs.numArgs; ++k)
        for (uint32_t s : deps_.sources(arg(k)))
          q.add(s, x);
  if (returnedValue_)
    return; // the callee's queries are not the value this function returns
  if (cs.kind == CallKind::Special && Special(cs.callee) == Special::Assume && cs.numArgs) {
    queryOn(arg(0), q);
    return;
  }
  if (cs.kind != CallKind::Direct || cs.callee >= summaries_.size() || !summaries_[cs.callee].analysed)
    return;
  const FunctionCounts &callee = summaries_[cs.callee];
  if (callee.atBlock.empty())
    return;
  const QueryCounts &entry = callee.atBlock[0];
  const uint32_t params = program_.functions[cs.callee].numParams;
  if (!program_.functions[cs.callee].isRuntime)
    q.total += entry.total;
  for (const auto &[v, count] : entry.added) {
    const Taken x{count, entry.isAlwaysHot(v)};
    if (v < callee.numRegs) {
      if (v < params && v < cs.numArgs)
        for (uint32_t s : deps_.sources(arg(v)))
          q.add(s, x);
      continue;
    }
    const MemoryVariable &m = callee.memory[v - callee.numRegs];
    if (m.base == MemoryVariable::Base::Global) {
      q.add(deps_.intern(m), x);
    } else if (m.base == MemoryVariable::Base::Pointee && m.index < cs.numArgs) {
      if (std::optional<MemoryVariable> at = deps_.addressOf(arg(m.index))) {
        MemoryVariable mine = *at;
        mine.offset += m.offset;
        mine.size = m.size;
        q.add(deps_.intern(mine), x);
      } else {
        for (uint32_t s : deps_.sources(arg(m.index)))
          q.add(s, x);
      }
    }
  }
}

bool FunctionEstimator::fits(uint32_t kappa, uint32_t staticCap) {
  kappa_ = std::max(kappa, 1u);
  staticCap_ = staticCap;
  const uint64_t limit = options_.maxCopiesPerFunction;
  // A block has at most one copy per combination of visits left to its loops: where that
  // bound fits, so do the copies.
  double bound = 0;
  for (uint32_t b = 0; b < fn_.blocks.size(); ++b) {
    double copies = 1;
    for (uint32_t l : cfg_.loopsOf(b))
      copies *= double(iterations(l)) + 1;
    bound += copies;
  }
  if (bound <= double(limit))
    return true;
  // run() evaluates the copies reachable from the same roots, and overflows exactly when
  // there are more than the limit.
  absl::flat_hash_set<Node, NodeHash> seen;
  std::vector<Node> stack;
  auto reach = [&](Node n) {
    if (!seen.insert(n).second)
      return true;
    stack.push_back(std::move(n));
    return seen.size() <= limit;
  };
  forEachRoot([&](Node n) { reach(std::move(n)); });
  Targets targets;
  while (!stack.empty()) {
    const Node n = std::move(stack.back());
    stack.pop_back();
    for (uint32_t s : cfg_.successors(n.block)) {
      targets.clear();
      resolve(n, s, targets);
      for (auto &[node, share] : targets)
        if (!reach(std::move(node)))
          return false;
    }
  }
  return true;
}

bool FunctionEstimator::run(uint32_t kappa, uint32_t staticCap, FunctionCounts &out) {
  kappa_ = std::max(kappa, 1u);
  staticCap_ = staticCap;
  memo_.clear();
  active_.clear();
  overflow_ = false;
  out = FunctionCounts{};
  out.numRegs = fn_.numRegs;
  out.atBlock.assign(fn_.blocks.size(), QueryCounts{});
  out.kappa = kappa_;
  recordedLeft_.assign(fn_.blocks.size(), {});
  out_ = &out;
  if (!fn_.blocks.empty()) {
    forEachRoot([&](const Node &n) {
      if (!overflow_)
        value(n);
    });
  }
  out.copies = memo_.size();
  out.memory = deps_.memory();
  out.analysed = true;
  memo_.clear();
  return !overflow_;
}

// The functions whose address the program holds, in an instruction's constant or a global's
// initial word: the callees its indirect calls may have (coreutils' sleep parses its interval
// through xstrtod's `convert` pointer, strtod and all under it). A word of data that happens
// to equal a function's address adds that function, which costs only its estimate.
std::vector<uint32_t> addressTaken(const Program &program) {
  const uint64_t n = program.functions.size();
  std::vector<uint8_t> taken(n, 0);
  auto note = [&](u128 value) {
    if (value < Program::kFunctionBase)
      return;
    const u128 offset = value - Program::kFunctionBase;
    if (offset % Program::kFunctionStride == 0 && offset / Program::kFunctionStride < n)
      taken[size_t(offset / Program::kFunctionStride)] = 1;
  };
  for (u128 c : program.constants)
    note(c);
  const size_t word = program.pointerBits / 8;
  for (const GlobalObject &g : program.globals)
    for (size_t at = 0; at + word <= g.bytes.size(); at += word) {
      u128 value = 0;
      for (size_t b = word; b-- > 0;)
        value = (value << 8) | g.bytes[at + b];
      note(value);
    }
  std::vector<uint32_t> out;
  for (uint32_t f = 0; f < n; ++f)
    if (taken[f])
      out.push_back(f);
  return out;
}

// The functions reachable through direct calls from the entry, the constructors and the
// functions whose address is taken, callees before callers (Tarjan's strongly connected
// components, each a group).
std::vector<std::vector<uint32_t>> bottomUpGroups(const Program &program) {
  const uint32_t n = uint32_t(program.functions.size());
  std::vector<std::vector<uint32_t>> callees(n);
  for (uint32_t f = 0; f < n; ++f) {
    for (const CallSite &cs : program.functions[f].callSites)
      if (cs.kind == CallKind::Direct && cs.callee < n)
        callees[f].push_back(cs.callee);
    std::sort(callees[f].begin(), callees[f].end());
    callees[f].erase(std::unique(callees[f].begin(), callees[f].end()), callees[f].end());
  }
  std::vector<uint32_t> index(n, ~0u), low(n, 0), stack;
  std::vector<uint8_t> onStack(n, 0);
  std::vector<std::vector<uint32_t>> groups;
  uint32_t next = 0;
  std::vector<uint32_t> roots = program.constructors;
  roots.push_back(program.entry);
  for (uint32_t f : addressTaken(program))
    roots.push_back(f);
  for (uint32_t root : roots) {
    if (root >= n || index[root] != ~0u)
      continue;
    std::vector<std::pair<uint32_t, size_t>> dfs{{root, 0}};
    index[root] = low[root] = next++;
    stack.push_back(root);
    onStack[root] = 1;
    while (!dfs.empty()) {
      auto &[f, k] = dfs.back();
      if (k < callees[f].size()) {
        uint32_t g = callees[f][k++];
        if (index[g] == ~0u) {
          index[g] = low[g] = next++;
          stack.push_back(g);
          onStack[g] = 1;
          dfs.push_back({g, 0});
        } else if (onStack[g]) {
          low[f] = std::min(low[f], index[g]);
        }
        continue;
      }
      if (low[f] == index[f]) {
        std::vector<uint32_t> &group = groups.emplace_back();
        uint32_t g;
        do {
          g = stack.back();
          stack.pop_back();
          onStack[g] = 0;
          group.push_back(g);
        } while (g != f);
      }
      const uint32_t done = f;
      dfs.pop_back();
      if (!dfs.empty())
        low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
    }
  }
  return groups;
}

// Renumbers the memory variables of `from` (estimated apart, so numbered apart) as those of
// `into`, adding to `into` the ones it does not have: one numbering per function.
void renumberAs(FunctionCounts &from, FunctionCounts &into) {
  std::vector<uint32_t> id(from.memory.size());
  for (size_t k = 0; k < from.memory.size(); ++k) {
    auto at = std::find(into.memory.begin(), into.memory.end(), from.memory[k]);
    if (at == into.memory.end())
      at = into.memory.insert(into.memory.end(), from.memory[k]);
    id[k] = into.numRegs + uint32_t(at - into.memory.begin());
  }
  auto renumber = [&](QueryCounts &q) {
    for (auto &[v, x] : q.added)
      if (v >= from.numRegs)
        v = id[v - from.numRegs];
    for (uint32_t &v : q.alwaysHot)
      if (v >= from.numRegs)
        v = id[v - from.numRegs];
    std::sort(q.added.begin(), q.added.end());
    std::sort(q.alwaysHot.begin(), q.alwaysHot.end());
  };
  for (QueryCounts &q : from.atBlock)
    renumber(q);
  for (auto &[index, q] : from.afterCall)
    renumber(q);
  from.memory = into.memory;
}

} // namespace

QueryCountEstimate estimateQueryCounts(const Program &program, const QceOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  QueryCountEstimate est;
  est.options = options;
  est.functions.resize(program.functions.size());
  est.returned.resize(program.functions.size());
  const GlobalIndex globals(program);
  for (const std::vector<uint32_t> &group : bottomUpGroups(program)) {
    const bool recursive = group.size() > 1 || std::any_of(program.functions[group[0]].callSites.begin(),
                                                          program.functions[group[0]].callSites.end(),
                                                          [&](const CallSite &cs) {
                                                            return cs.kind == CallKind::Direct && cs.callee == group[0];
                                                          });
    // A recursive group's second round unrolls each function as far as its first did.
    std::vector<std::pair<uint32_t, uint32_t>> unrolled(group.size(), {options.kappa, std::max<uint32_t>(options.kappa, 256)});
    for (int round = 0; round < (recursive ? 2 : 1); ++round)
      for (size_t g = 0; g < group.size(); ++g) {
        const uint32_t f = group[g];
        if (program.functions[f].blocks.empty())
          continue;
        FunctionEstimator estimator(program, f, globals, est.functions, options, false);
        FunctionCounts counts;
        // Halved until the unrolling fits; the last try is run whatever its size (its counts,
        // cut at the limit, are the estimate then).
        auto &[kappa, cap] = unrolled[g];
        for (;;) {
          const bool last = kappa == 1 && cap == 1;
          if ((last || estimator.fits(kappa, cap)) && estimator.run(kappa, cap, counts))
            break;
          if (last)
            break;
          kappa = std::max(1u, kappa / 2);
          cap = kappa;
        }
        est.functions[f] = std::move(counts);
        // The same unrolling, which fit: the returned value's dependence.
        const Function &fn = program.functions[f];
        if (std::any_of(fn.instrs.begin(), fn.instrs.end(), [](const Instr &in) { return in.op == Opcode::Ret && in.hasValue; })) {
          if (FunctionEstimator(program, f, globals, est.functions, options, true).run(kappa, cap, est.returned[f]))
            renumberAs(est.returned[f], est.functions[f]);
          else
            est.returned[f] = FunctionCounts{};
        }
        if (round == 0)
          ++est.functionsAnalysed;
      }
  }
  est.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return est;
}

} // namespace cairn::engine::analysis
