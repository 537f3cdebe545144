// The relocatable model (thesis ch. 3): heap objects (and, with relocateStack, stack objects)
// get symbolic bases. A state keeps, apart from its path constraints, where each base lies; the
// addresses are substituted into a query just before it reaches the solver, so moving an object
// changes nothing but that binding. Moving makes dynamic segments (objects a pointer may point
// into, moved back to back into one segment) and object splitting possible.
#include "memory/AddressSubstitution.h"
#include "memory/Relocation.h"
#include "cairn/expr/ExprUtil.h"
#include "executor/Engine.h"
#include "memory/Extents.h"
#include "memory/MemoryModel.h"
#include "memory/MovedObjects.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace cairn::engine {

namespace {

// Segments get addresses of their own, far above any path's heap, so a segment reused by
// another state cannot overlap that state's objects. Each state places its segments one after
// the other from here, as it does its objects, so that a path prefix replayed in another engine
// finds them at the same addresses.
constexpr uint64_t kSegmentBase = 0x10'0000'0000;
// Objects one symbolic pointer may resolve to before the rest of its values end the path.
constexpr unsigned kMaxTargets = 1024;

// The bases that no longer stand for the address they were allocated at (moved into a segment),
// each with its address now. `version` tells bindings apart, so a substitution made for one
// set of bindings can be kept for it.
struct BaseBindings {
  std::map<const SymbolDecl *, uint64_t> moved;
  uint64_t version = 0;
};

struct RelocationState final : MemoryModelState {
  // Shared by forked states until one of them moves an object.
  std::shared_ptr<const BaseBindings> relocated;
  // The path constraints as the solver gets them (every base replaced by its address), for the
  // first `substituted` constraints; rebuilt when an object moves.
  ConstraintList solverConstraints;
  size_t substituted = 0;
  // solverConstraints as they were before substitution (for the address-aware cache), and
  // whether the path took a branch that depends on the layout (a pointer leaving its object),
  // after which that cache answers none of its questions.
  std::vector<ExprRef> symbolicConstraints;
  bool layoutDependent = false;
  uint64_t nextSegmentAddress = kSegmentBase;

  std::unique_ptr<MemoryModelState> clone() const override { return std::make_unique<RelocationState>(*this); }
  const char *incompatibility(const MemoryModelState &other) const override {
    return relocated != static_cast<const RelocationState &>(other).relocated ? "different object placements"
                                                                              : nullptr;
  }
  void merged(const MemoryModelState &other) override {
    // The solver's forms of the constraints are rebuilt on demand.
    solverConstraints.clear();
    symbolicConstraints.clear();
    substituted = 0;
    layoutDependent |= static_cast<const RelocationState &>(other).layoutDependent;
  }
};

RelocationState &of(ExecutionState &s) { return static_cast<RelocationState &>(*s.model.get()); }
const RelocationState &of(const ExecutionState &s) { return static_cast<const RelocationState &>(*s.model.get()); }

class RelocatableMemoryModel final : public MemoryModel {
public:
  explicit RelocatableMemoryModel(Engine &engine)
      : engine_(engine), ctx_(engine.ctx), options_(engine.options.memory),
        homeSubstitution_(ctx_, [this](const SymbolDecl *b) { return homeAddress(b); }) {}

  void initialize(ExecutionState &s) override { s.model.reset(std::make_unique<RelocationState>()); }

  void place(const ExecutionState &s, MemoryObject &mo) override {
    if (mo.kind == ObjectKind::Heap || (mo.kind == ObjectKind::Stack && options_.relocateStack))
      mo.base = baseAt(mo.address, mo.size);
    if (options_.contextDepth >= 0)
      editRelocation(mo).allocContext = allocationContext(s);
  }

  std::optional<u128> layoutValue(const ExecutionState &s, const ExprRef &e) override {
    if (e->isConstant())
      return e->value();
    if (!e->mentionsAddress())
      return std::nullopt;
    return substitutionFor(s).valueOf(e);
  }

  ExprRef substitute(const ExecutionState &s, const ExprRef &e) override {
    if (!e || !e->mentionsAddress())
      return e;
    return substitutionFor(s).apply(e);
  }

  const ConstraintList &solverConstraints(ExecutionState &s) override {
    RelocationState &r = of(s);
    for (; r.substituted < s.constraints.size(); ++r.substituted) {
      const ExprRef &symbolic = s.constraints[r.substituted];
      if (layoutValue(s, symbolic) == u128(1))
        continue;
      ExprRef c = substitute(s, symbolic);
      if (!c->isTrue()) {
        r.solverConstraints.push_back(std::move(c));
        r.symbolicConstraints.push_back(s.constraints[r.substituted]);
      }
    }
    return r.solverConstraints;
  }

  PathConstraints solverPath(ExecutionState &s, bool aboutLayout) override {
    const ConstraintList &solved = solverConstraints(s);
    if (!engine_.options.solver.addressCache)
      return solved;
    const RelocationState &r = of(s);
    return PathConstraints(solved, r.symbolicConstraints, aboutLayout || r.layoutDependent);
  }

  void tookLayoutBranch(ExecutionState &s) override { of(s).layoutDependent = true; }

  // Resolving `p` to `mo` relates p to another object's place when p is not derived from mo's
  // base; the address-aware cache must not answer such questions.
  bool crossesObjects(const ExprRef &p, const MemoryObject &mo) override {
    if (!engine_.options.solver.addressCache)
      return false;
    if (!mo.base)
      return p->mentionsAddress();
    SymbolCollector symbols;
    symbols.add(p.get());
    const auto &found = symbols.symbols();
    return std::find(found.begin(), found.end(), mo.base->symbol()) == found.end();
  }

  void beforeResolution(ExecutionState &s, const ExprRef &p) override {
    if (options_.mergeObjects)
      mergeTargets(s, p);
  }

  bool splitForAccess(ExecutionState &s, const MemoryObject &mo, const ExprRef &offset) override {
    if (!shouldSplit(mo, offset))
      return false;
    splitObject(s, mo);
    return true;
  }

  bool isMoved(const MemoryObject &mo) override { return engine::isMoved(mo); }
  std::optional<Whole> wholeOf(const MemoryObject &mo) override {
    const SplitOrigin *origin = splitOf(mo);
    return origin ? std::optional<Whole>(Whole{origin->base, origin->address, origin->size}) : std::nullopt;
  }
  void rejoin(ExecutionState &s, const MemoryObject &mo) override {
    std::shared_ptr<const SplitOrigin> origin = mo.relocation->split; // joining drops the chunks
    joinChunks(ctx_, s.memory, *origin);
  }
  bool checkAccess(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a, unsigned bytes) override {
    return checkMemberAccess(engine_, s, e, a, bytes);
  }
  void free(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a) override { freeInMoved(engine_, s, e, a); }
  std::optional<uint64_t> objectSizeAt(const MemoryObject &mo, uint64_t a) override {
    return objectSizeInMoved(mo, a);
  }
  std::vector<uint64_t> objectStartsIn(const MemoryObject &mo) override { return objectStartsInMoved(mo); }
  // Segments are placed from kSegmentBase up, in no state's address space until they are made:
  // an object of the program's there could meet one later.
  std::string reservedRange(uint64_t address, uint64_t size) override {
    if (address + size <= kSegmentBase)
      return {};
    std::ostringstream why;
    why << "the relocatable model keeps the addresses from 0x" << std::hex << kSegmentBase << " up for its segments";
    return why.str();
  }

private:
  uint64_t homeAddress(const SymbolDecl *base) const { return homeAddressById_.at(base->id); }

  // A fresh base symbol, standing for `address` in every state where it has not moved.
  ExprRef newBase(uint64_t address, uint64_t size) {
    const SymbolDecl *d = ctx_.declareSymbol("base" + std::to_string(++nextBaseId_), 64, SymbolClass::Address, size);
    if (homeAddressById_.size() <= d->id)
      homeAddressById_.resize(d->id + 1);
    homeAddressById_[d->id] = address;
    return ctx_.symbol(d);
  }

  // The base of an object allocated at `address` with `size` bytes. Paths that allocate the
  // same object share its base: the allocator never reuses an address within a path, so a base
  // still names one object per state, and sibling paths then build the same pointer
  // expressions, found in the hash-consing table instead of made and freed again path after path.
  ExprRef baseAt(uint64_t address, uint64_t size) {
    std::vector<std::pair<uint64_t, ExprRef>> &here = basesByAddress_[address];
    for (const auto &[sz, base] : here)
      if (sz == size)
        return base;
    return here.emplace_back(size, newBase(address, size)).second;
  }

  // The allocation site and the call sites of the `contextDepth` frames above it.
  uint64_t allocationContext(const ExecutionState &s) const {
    uint64_t h = engine_.currentInstr * 0x9e3779b97f4a7c15ull;
    int depth = options_.contextDepth;
    for (size_t i = s.stack.size() - 1; i-- > 0 && depth-- > 0;)
      h = (h ^ ((uint64_t(s.stack[i].function) << 32) | s.stack[i].pc)) * 0x100000001b3ull;
    return h;
  }

  // States whose objects never moved share one substitution (and what it remembers); the few
  // sets of bindings in use after moves get one each.
  AddressSubstitution &substitutionFor(const ExecutionState &s) {
    const RelocationState &r = of(s);
    if (!r.relocated) {
      if (homeSubstitution_.remembered() > (size_t(1) << 21))
        homeSubstitution_.clear();
      return homeSubstitution_;
    }
    for (auto &[version, subst] : movedSubstitutions_)
      if (version == r.relocated->version)
        return *subst;
    if (movedSubstitutions_.size() >= 8)
      movedSubstitutions_.erase(movedSubstitutions_.begin());
    std::shared_ptr<const BaseBindings> bindings = r.relocated;
    movedSubstitutions_.emplace_back(
        bindings->version, std::make_unique<AddressSubstitution>(ctx_, [this, bindings](const SymbolDecl *b) {
          auto it = bindings->moved.find(b);
          return it != bindings->moved.end() ? it->second : homeAddress(b);
        }));
    return *movedSubstitutions_.back().second;
  }

  void moveBases(ExecutionState &s, const std::vector<BaseMove> &moves) {
    RelocationState &r = of(s);
    auto b = std::make_shared<BaseBindings>(r.relocated ? *r.relocated : BaseBindings{});
    for (const BaseMove &m : moves)
      b->moved[m.base] = m.address;
    b->version = ++nextBindingsVersion_;
    r.relocated = std::move(b);
    r.solverConstraints.clear();
    r.symbolicConstraints.clear();
    r.substituted = 0;
  }

  // The objects `p` may point into on `s`, found without forking: nullopt when the solver
  // could not say. With context-based resolution, the objects allocated in the contexts seen
  // at this access before are tried first, and kept when p must point into one of them.
  std::optional<std::vector<uint64_t>> resolutionTargets(ExecutionState &s, const ExprRef &p) {
    std::vector<uint64_t> found;
    RunStatistics &stats = engine_.stats;
    Solver &solver = *engine_.solver;
    const ConstraintList &constraints = solverConstraints(s);
    const bool byContext = options_.contextDepth >= 0;
    if (byContext) {
      if (auto seen = contextsAt_.find(engine_.currentInstr); seen != contextsAt_.end()) {
        ExprRef inSome = ctx_.falseExpr();
        for (const auto &[address, entry] : s.memory.objects()) {
          const MemoryObject &mo = *entry.object;
          if (!isSegment(mo) && !seen->second.count(allocContextOf(mo)))
            continue;
          ExprRef in = inObject(ctx_, p, mo);
          ++stats.queries;
          Answer<bool> may = solver.mayBeTrue(constraints, substitute(s, in));
          if (!may.known())
            return std::nullopt;
          if (*may) {
            found.push_back(address);
            inSome = ctx_.lor(inSome, in);
          }
        }
        if (!found.empty()) {
          ++stats.queries;
          Answer<bool> complete = solver.mustBeTrue(constraints, substitute(s, inSome));
          if (!complete.known())
            return std::nullopt;
          if (*complete) {
            ++stats.memory.contextHits;
            return found;
          }
        }
        ++stats.memory.contextFallbacks;
        found.clear();
      }
    }
    // One object per model of p, excluding the objects found so far.
    ExprRef target = substitute(s, p);
    std::vector<ExprRef> query = constraints.exprs();
    if (ExprRef hitsSome = pointsIntoSomeObject(ctx_, s.memory, p))
      query.push_back(substitute(s, hitsSome));
    for (unsigned round = 0; round < kMaxTargets; ++round) {
      ++stats.queries;
      SolverResponse r = solver.check(Query(query, ctx_.trueExpr(), {target}), true);
      if (r.result == SatResult::Unknown)
        return std::nullopt;
      if (r.result == SatResult::Unsat)
        break;
      uint64_t value = uint64_t(cairn::evaluate(target.get(), r.model));
      const AddressSpace::Entry *e = s.memory.find(value);
      if (!e) { // p may miss every object: the resolution proper reports that
        query.push_back(ctx_.ne(target, ctx_.constant(value, 64)));
        continue;
      }
      found.push_back(e->object->address);
      query.push_back(ctx_.lnot(substitute(s, inObject(ctx_, p, *e->object))));
      if (byContext && !isSegment(*e->object))
        contextsAt_[engine_.currentInstr].insert(allocContextOf(*e->object));
    }
    return found;
  }

  // Dynamic segments: when `p` may point into several heap objects, they move back to back
  // into one new segment, so resolving p finds one object and does not fork.
  void mergeTargets(ExecutionState &s, const ExprRef &p) {
    std::optional<std::vector<uint64_t>> targets = resolutionTargets(s, p);
    if (!targets || targets->size() < 2)
      return;
    std::sort(targets->begin(), targets->end());
    std::vector<const MemoryObject *> objects;
    RelocationState &r = of(s);
    // The state's next segment address is part of the key, so a reused segment lies where this
    // state would have put a fresh one.
    std::string key = std::to_string(engine_.currentInstr) + "@" + std::to_string(r.nextSegmentAddress);
    for (uint64_t a : *targets) {
      const MemoryObject &mo = *s.memory.findBase(a)->object;
      if (!mo.base || mo.kind != ObjectKind::Heap || splitOf(mo) || mo.readOnly)
        return; // only whole heap objects with symbolic bases move
      objects.push_back(&mo);
      key += ":" + mo.base->symbol()->name + "/" + std::to_string(mo.size) + "/" + std::to_string(mo.alignment);
    }
    SegmentShape shape;
    segmentLayout(objects, shape);
    const uint64_t total = shape.total;
    MemoryObject segment;
    segment.id = engine_.nextObjectId++;
    segment.size = total;
    segment.kind = ObjectKind::Heap;
    segment.name = "segment of " + std::to_string(targets->size()) + " objects";
    segment.allocLoc = engine_.currentLoc;
    auto reused = options_.reuseSegments ? segmentsByKey_.find(key) : segmentsByKey_.end();
    MemoryModelStats &stats = engine_.stats.memory;
    if (reused != segmentsByKey_.end()) {
      segment.base = reused->second;
      segment.address = homeAddress(segment.base->symbol());
      ++stats.segmentsReused;
    } else {
      segment.address = alignUp(r.nextSegmentAddress, shape.alignment);
      segment.base = newBase(segment.address, total);
      if (options_.reuseSegments)
        segmentsByKey_.emplace(key, segment.base);
    }
    r.nextSegmentAddress = segment.address + paddedSize(total);
    moveBases(s, mergeIntoSegment(ctx_, s.memory, std::move(segment), *targets));
    ++stats.segments;
    stats.segmentObjects += targets->size();
    stats.maxSegmentSize = std::max(stats.maxSegmentSize, total);
  }

  bool shouldSplit(const MemoryObject &mo, const ExprRef &offset) const {
    return options_.splitObjects && !offset->isConstant() && mo.base && mo.kind == ObjectKind::Heap &&
           (!mo.relocation || mo.relocation->splittable) && !splitOf(mo) && !isSegment(mo) &&
           mo.size > options_.splitThreshold &&
           options_.partitionSize < mo.size;
  }

  // Splits the object into chunks in place; every state splitting it gets the same chunk bases.
  void splitObject(ExecutionState &s, const MemoryObject &mo) {
    const uint64_t chunk = options_.partitionSize;
    std::vector<ExprRef> &bases = chunkBases_[mo.base->symbol()];
    for (size_t i = bases.size() + 1; i < chunkCount(mo.size, chunk); ++i)
      bases.push_back(newBase(mo.address + i * chunk, std::min(chunk, mo.size - i * chunk)));
    splitIntoChunks(ctx_, s.memory, mo.address, chunk, bases, engine_.nextObjectId);
    engine_.nextObjectId += bases.size() + 1;
    MemoryModelStats &stats = engine_.stats.memory;
    ++stats.splits;
    stats.chunks += bases.size() + 1;
    stats.maxSplitSize = std::max(stats.maxSplitSize, mo.size);
  }

  Engine &engine_;
  ExprContext &ctx_;
  const MemoryModelOptions &options_;
  // Where each base was allocated, by its symbol's id: looked up for every pointer a query or
  // a resolution substitutes.
  std::vector<uint64_t> homeAddressById_;
  AddressSubstitution homeSubstitution_; // for states with nothing moved
  std::vector<std::pair<uint64_t, std::unique_ptr<AddressSubstitution>>> movedSubstitutions_;
  uint64_t nextBaseId_ = 0;
  std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, ExprRef>>> basesByAddress_; // by size
  uint64_t nextBindingsVersion_ = 0;
  std::map<std::string, ExprRef> segmentsByKey_; // access and objects -> the segment's base
  std::unordered_map<const SymbolDecl *, std::vector<ExprRef>> chunkBases_; // by the split object's base
  std::unordered_map<uint64_t, std::set<uint64_t>> contextsAt_; // access -> allocation contexts resolved there
};

} // namespace

std::unique_ptr<MemoryModel> createRelocatableModel(Engine &engine) {
  return std::make_unique<RelocatableMemoryModel>(engine);
}

} // namespace cairn::engine
