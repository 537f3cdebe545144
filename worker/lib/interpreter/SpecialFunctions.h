// The functions the engine implements itself (klee_*, the heap, output, memory intrinsics, bit
// intrinsics): a table of small handlers indexed by the call's Special kind, which the
// translator put on the call site. Each group of handlers lives in a file of its own and adds
// itself to the table.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"

#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cairn::engine {

class Engine;

// One call of a special function, as its handler sees it.
struct SpecialCall {
  Engine &engine;
  ExecutionState &state;
  const Instr &instr;
  const CallSite &site;
  std::vector<Value> &args;

  const Value &arg(size_t i) const { return args.at(i); }
  unsigned argWidth(size_t i) const { return site.argWidths[i]; }
  // A size_t argument as 64 bits: code written for a 32-bit size_t (SV-COMP's ILP32 tasks
  // declare malloc so) passes narrower sizes.
  Value sizeArg(size_t i) const;
  Special kind() const { return Special(site.callee); }
  // Sets the call's result register, if it has one.
  void result(Value v) const;
};

using SpecialHandler = void (*)(const SpecialCall &);
using SpecialHandlers = std::array<SpecialHandler, size_t(Special::Last) + 1>;

// The table, filled once: every kind has its handler, or unsupportedSpecial.
const SpecialHandlers &specialHandlers();
// Ends the path with an "unsupported call" error.
void unsupportedSpecial(const SpecialCall &c);

void addKleeHandlers(SpecialHandlers &table);   // KleeFunctions.cpp
void addHeapHandlers(SpecialHandlers &table);   // HeapFunctions.cpp
void addOutputHandlers(SpecialHandlers &table); // OutputFunctions.cpp
void addMemoryHandlers(SpecialHandlers &table); // MemoryFunctions.cpp
void addBitHandlers(SpecialHandlers &table);    // BitIntrinsics.cpp
void addKleeStateHandlers(SpecialHandlers &table); // KleeStateFunctions.cpp
void addEnvironmentHandlers(SpecialHandlers &table); // EnvironmentFunctions.cpp

class SpecialFunctions {
public:
  explicit SpecialFunctions(Engine &engine);
  void call(ExecutionState &s, const Instr &in, const CallSite &site, std::vector<Value> &args);

  // The array of an input made symbolic under `name`. As in KLEE, input names are unique per
  // path, not per run: the same input made symbolic on two paths is one array, so their
  // queries can be equal (and cached) across the fork.
  const SymbolDecl *inputArray(const ExecutionState &s, const std::string &name, uint64_t size);
  // True the first time it is asked for the location `loc` in the run (klee_warning_once).
  bool firstAt(uint32_t loc) { return warnedAt_.insert(loc).second; }

private:
  Engine &engine_;
  const SpecialHandlers &handlers_;
  std::map<std::pair<std::string, uint64_t>, const SymbolDecl *> inputArrays_; // by name and size
  std::set<uint32_t> warnedAt_;
};

} // namespace cairn::engine
