#include "memory/Extents.h"

namespace cairn::engine {

ExprRef pointsIntoSomeObject(ExprContext &ctx, const AddressSpace &space, const ExprRef &p) {
  constexpr size_t kMaxObjects = 256;
  if (space.objects().size() > kMaxObjects)
    return ExprRef();
  ExprRef any = ctx.falseExpr();
  for (const auto &[base, entry] : space.objects()) {
    const MemoryObject &mo = *entry.object;
    ExprRef extent = ctx.constant(std::max<uint64_t>(mo.size, 1), 64);
    any = ctx.lor(any, ctx.ult(ctx.sub(p, baseOf(ctx, mo)), extent));
  }
  return any;
}

} // namespace cairn::engine
