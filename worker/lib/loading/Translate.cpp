// From LLVM IR to the engine's internal form (Program.h), in an order that matters: functions
// are numbered first because a function's address and a direct call need its number, and the
// globals are laid out before any body because a constant may be a global's address. Constants,
// labels and source locations are numbered as the function bodies meet them, in module order.
#include "cairn/engine/Translate.h"

#include "loading/BranchSites.h"
#include "loading/ConstantTranslation.h"
#include "loading/FunctionTranslation.h"
#include "loading/RegisterTypes.h"
#include "loading/RuntimeLinking.h"
#include "loading/SourceLocations.h"
#include "loading/SpecialCallees.h"
#include "transform/GuardMetadata.h"
#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace cairn::engine {

namespace {

FunctionNumbers numberFunctions(llvm::Module &m, Program &p) {
  const llvm::DataLayout &dl = m.getDataLayout();
  FunctionNumbers functions;
  for (llvm::Function &f : m) {
    if (f.isIntrinsic())
      continue;
    functions[&f] = uint32_t(p.functions.size());
    Function &out = p.functions.emplace_back();
    out.name = f.getName().str();
    out.declarationOnly = f.isDeclaration();
    out.variadic = f.isVarArg();
    out.numParams = uint32_t(f.arg_size());
    for (llvm::Argument &a : f.args())
      out.paramWidths.push_back(uint16_t(bitsOf(dl, a.getType())));
    out.returnWidth =
        f.getReturnType()->isVoidTy() ? 0 : uint16_t(bitsOf(dl, f.getReturnType()));
    out.isRuntime = isRuntimeFunction(f);
    if (!out.declarationOnly)
      out.native = nativeString(out.name, out.isRuntime);
    out.math = mathFunction(f, out.isRuntime);
  }
  return functions;
}

// llvm.global_ctors: {priority, function, data} entries, run by priority (stable).
void collectConstructors(llvm::Module &m, const FunctionNumbers &functions, Program &p) {
  llvm::GlobalVariable *g = m.getGlobalVariable("llvm.global_ctors");
  if (!g || !g->hasInitializer())
    return;
  auto *list = llvm::dyn_cast<llvm::ConstantArray>(g->getInitializer());
  if (!list)
    return;
  std::vector<std::pair<uint64_t, uint32_t>> ctors;
  for (const llvm::Use &u : list->operands()) {
    auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(u.get());
    if (!entry || entry->getNumOperands() < 2)
      continue;
    auto *priority = llvm::dyn_cast<llvm::ConstantInt>(entry->getOperand(0));
    auto *fn = llvm::dyn_cast<llvm::Function>(entry->getOperand(1)->stripPointerCasts());
    if (priority && fn && functions.count(fn))
      ctors.push_back({priority->getZExtValue(), functions.at(fn)});
  }
  std::stable_sort(ctors.begin(), ctors.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &c : ctors)
    p.constructors.push_back(c.second);
}

} // namespace

std::unique_ptr<Program> translateProgram(LoadedModule &module, const std::string &entry) {
  llvm::Module &m = module.module();
  auto program = std::make_unique<Program>();
  Program &p = *program;
  SourceLocations locations(p);
  const FunctionNumbers functions = numberFunctions(m, p);
  ConstantTranslator constants(m.getDataLayout(), p, functions);
  constants.layoutGlobals(m);
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      translateFunction(f, p.functions[functions.at(&f)], constants, functions, locations);
  p.entry = functions.at(m.getFunction(entry));
  collectConstructors(m, functions, p);
  p.coverableLines = locations.userLineCount();
  p.coverableLineKeys = locations.userLineKeys();
  numberBranchSites(p);
  p.pointerBits = m.getDataLayout().getPointerSizeInBits();
  p.transform = transform::readTransformStats(m);
  return program;
}

} // namespace cairn::engine
