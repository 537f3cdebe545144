#include "AbstractionCache.h"

namespace cairn::arrays {

void AbstractionCache::startQuery(const std::shared_ptr<const ArrayTypes> &types, uint64_t generation) {
  if (generation != generation_) {
    clear();
    generation_ = generation;
  }
  if (types == types_)
    return;
  for (const auto &[root, bytes] : elementBytes_)
    if (elementBytes(types.get(), root) != bytes) {
      clear();
      break;
    }
  types_ = types;
}

const AbstractionCache::Entry *AbstractionCache::find(const Expr *constraint) const {
  auto it = entries_.find(constraint);
  return it == entries_.end() ? nullptr : &it->second;
}

void AbstractionCache::add(Entry entry, const std::vector<const AbstractRead *> &reads) {
  if (entries_.size() >= capacity_)
    clear();
  for (const AbstractRead *r : reads) {
    const Expr *root = rootOf(r->array);
    elementBytes_.try_emplace(root, elementBytes(types_.get(), root));
    reads_.try_emplace(r->variable.get(), *r);
  }
  const Expr *key = entry.constraint.get();
  entries_.try_emplace(key, std::move(entry));
}

void AbstractionCache::clear() {
  entries_.clear();
  reads_.clear();
  elementBytes_.clear();
}

} // namespace cairn::arrays
