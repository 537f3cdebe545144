// Where a function's values come from, path-insensitively, for query count estimation: the
// variables of a frame (registers, and memory at a constant offset from an alloca, a pointer
// parameter or a global), the memory variable an address names, and the variables a value is
// computed from.
//
// Unoptimised bitcode keeps every local in an alloca and a parameter in a slot it is stored to
// once on entry: a load of such a slot is taken as the parameter itself, so that accesses
// through a pointer parameter are variables of the callee's summary.
#pragma once

#include "cairn/engine/Program.h"

#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace cairn::engine::analysis {

struct MemoryVariable {
  enum class Base : uint8_t { Local, Pointee, Global };
  Base base = Base::Local;
  uint32_t index = 0; // Local: the alloca's register; Pointee: the parameter; Global: Program::globals
  int64_t offset = 0;
  uint32_t size = 0; // bytes
  bool operator==(const MemoryVariable &) const = default;
};

// Globals by address, for constant addresses.
class GlobalIndex {
public:
  explicit GlobalIndex(const Program &program);
  // The global holding `address` and the offset into it.
  std::optional<std::pair<uint32_t, uint64_t>> find(u128 address) const;

private:
  std::vector<std::pair<uint64_t, uint32_t>> byAddress_; // (address, index), sorted
  const Program &program_;
};

class DataDependence {
public:
  DataDependence(const Program &program, const Function &fn, const GlobalIndex &globals);

  // Variable ids: the registers 0 .. numRegs-1, then the memory variables.
  uint32_t numRegs() const { return fn_.numRegs; }
  const std::vector<MemoryVariable> &memory() const { return memory_; }
  uint32_t intern(const MemoryVariable &v);
  std::optional<uint32_t> find(const MemoryVariable &v) const;
  bool isRegister(uint32_t id) const { return id < fn_.numRegs; }

  // The memory variable an access of `size` bytes at `address` touches, when the address is a
  // constant offset from a base.
  std::optional<uint32_t> slot(const Operand &address, uint32_t size);
  // The same, when that variable exists already.
  std::optional<uint32_t> existingSlot(const Operand &address, uint32_t size) const;
  // The base and offset an address is a constant offset from, without making a variable.
  std::optional<MemoryVariable> addressOf(const Operand &address) const;
  // The variables a value is computed from: the registers that hold loads, parameters, phi
  // results and call results it reaches through arithmetic (each once).
  std::span<const uint32_t> sources(const Operand &value);
  // Whether the value is computed, through the arithmetic sources() follows, by a
  // floating-point operation (a comparison, a conversion, arithmetic).
  bool computedInFloat(const Operand &value);
  // The instruction that defines a register, or ~0u (parameters, phi results).
  uint32_t definition(uint32_t reg) const { return reg < def_.size() ? def_[reg] : ~0u; }
  // The parameter an alloca's slot holds unchanged (unoptimised code's `x.addr`), or ~0u.
  uint32_t parameterInSlot(uint32_t allocaReg) const;
  // The alloca's address is used other than as the address of loads and stores.
  bool escapes(uint32_t allocaReg) const;

private:
  void findParameterSlots();
  // A load of a parameter's slot: the parameter, else the register itself.
  uint32_t leafOf(uint32_t reg) const;

  const Program &program_;
  const Function &fn_;
  const GlobalIndex &globals_;
  std::vector<uint32_t> def_;
  std::vector<uint8_t> escapes_;                      // per register: an alloca whose address escapes
  std::unordered_map<uint32_t, uint32_t> paramSlots_; // alloca register -> parameter
  std::vector<MemoryVariable> memory_;
  struct Sources {
    std::vector<uint32_t> variables;
    bool viaFloat = false;
  };
  const Sources &walk(const Operand &value); // value: a register
  std::unordered_map<uint32_t, Sources> sourceCache_;
};

} // namespace cairn::engine::analysis
