// Objects the program places itself (klee_define_fixed_object), and what the program may ask
// of any object (klee_get_obj_size).
#include "executor/Engine.h"
#include "memory/Extents.h"
#include "memory/MemoryAccess.h"

#include <sstream>

namespace cairn::engine {

namespace {

std::string hex(uint64_t v) {
  std::ostringstream out;
  out << "0x" << std::hex << v;
  return out.str();
}

} // namespace

std::string MemoryAccess::defineFixed(ExecutionState &s, uint64_t address, uint64_t size, uint32_t loc) {
  const std::string range = "[" + hex(address) + ", " + hex(address + size) + ")";
  if (size == 0)
    return "an object of no bytes at " + hex(address);
  if (address + size < address)
    return range + " wraps around the address space";
  if (address < kNullPage)
    return range + " meets the null page [0, " + hex(kNullPage) + ")";
  const Program &program = engine_.program;
  const uint64_t functionsEnd = program.functionAddress(uint32_t(program.functions.size()));
  if (address < functionsEnd && address + size > Program::kFunctionBase)
    return range + " meets the functions' addresses [" + hex(Program::kFunctionBase) + ", " + hex(functionsEnd) + ")";
  if (std::string why = model_.reservedRange(address, size); !why.empty())
    return range + ": " + why;
  if (const AddressSpace::Entry *other = s.memory.overlapping(address, size)) {
    const MemoryObject &mo = *other->object;
    return range + " meets object " + mo.name + " [" + hex(mo.address) + ", " + hex(mo.address + mo.size) + ")";
  }
  auto mo = std::make_shared<MemoryObject>();
  mo->id = engine_.nextObjectId++;
  mo->address = address;
  mo->size = size;
  mo->kind = ObjectKind::Global; // lives as long as the program, and free() refuses it
  mo->name = "fixed object at " + hex(address);
  mo->allocLoc = loc;
  model_.place(s, *mo); // a global: its base stays its address in every model
  s.memory.bind(mo, std::make_shared<ObjectState>(size));
  ++s.fixedObjects;
  return {};
}

uint64_t MemoryAccess::pastFixedObjects(const ExecutionState &s, uint64_t address, uint64_t size) const {
  // Only fixed objects can lie ahead of the next address: the engine places the others in order.
  while (const AddressSpace::Entry *in = s.memory.overlapping(address, size)) {
    const MemoryObject &mo = *in->object;
    address = (mo.address + std::max<uint64_t>(mo.size, 1) + kAllocGap + 15) / 16 * 16;
  }
  return address;
}

Value MemoryAccess::objectSize(const AddressSpace::Entry &e, uint64_t address) {
  const MemoryObject &mo = *e.object;
  if (mo.relocation) {
    if (std::optional<MemoryModel::Whole> whole = model_.wholeOf(mo))
      return Value(u128(whole->size));
    if (model_.isMoved(mo)) { // a segment: the member the address lies in
      for (uint64_t start : model_.objectStartsIn(mo)) {
        std::optional<uint64_t> size = model_.objectSizeAt(mo, start);
        if (size && address >= start && address - start < std::max<uint64_t>(*size, 1))
          return Value(u128(*size));
      }
    }
  }
  return mo.sizeExpr ? Value(mo.sizeExpr) : Value(u128(mo.size));
}

} // namespace cairn::engine
