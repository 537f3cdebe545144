// Which values of the program may depend on its symbolic inputs: the symbolic variable analysis
// the branch transformation uses to pick the branches worth melding. Interprocedural and
// context-insensitive; a may-analysis, so "not symbolic" is a promise and "symbolic" a guess.
//
// Sources: the entry function's parameters (argv), the parameters of functions called from code
// the analysis does not see (callbacks, address-taken functions), results of calls into that code
// (the runtime, the libc, the environment model), and loads from memory the analysis cannot
// follow: anything but a local or global object whose address never escapes, so that every
// store into it is seen. Such an object becomes symbolic when klee_make_symbolic targets it or a
// symbolic value (or a store at a symbolic address) goes into it.
//
// Propagation: through operands (data dependence), into the phis of the blocks where the two
// sides of a symbolic branch join (sync dependence), into the values a loop with a symbolic exit
// leaves behind (temporal divergence), from actual to formal parameters and from returned values
// to call results, to a fixpoint over the module.
#pragma once

#include <functional>
#include <memory>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

namespace llvm {
class Function;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace cairn::engine::transform {

class SymbolicValues {
public:
  // `analysed`: the functions whose bodies the analysis follows (the user's program); `entry`
  // the function the program starts at.
  SymbolicValues(llvm::Module &m, std::function<bool(const llvm::Function &)> analysed,
                 const llvm::Function *entry);
  ~SymbolicValues();

  bool isSymbolic(const llvm::Value *v) const { return symbolic_.count(v) != 0; }
  // For values the transformation makes after the analysis ran.
  void markSymbolic(const llvm::Value *v) { symbolic_.insert(v); }

private:
  void findTrackableObjects(llvm::Module &m);
  bool trackable(const llvm::Value *object) const { return trackable_.count(object) != 0; }
  bool analyseFunction(llvm::Function &f);
  bool instructionIsSymbolic(const llvm::Instruction &i) const;
  bool addSyncDependences(llvm::Function &f);
  bool mark(const llvm::Value *v) { return symbolic_.insert(v).second; }
  // A function's dominator trees and loops, made once: the fixpoint visits it many times.
  struct Shape;
  Shape &shape(llvm::Function &f);

  std::function<bool(const llvm::Function &)> analysed_;
  llvm::DenseSet<const llvm::Value *> symbolic_;
  llvm::DenseSet<const llvm::Value *> trackable_;      // objects whose every access is seen
  llvm::DenseSet<const llvm::Value *> symbolicObjects_; // trackable objects holding symbolic data
  llvm::DenseSet<const llvm::Function *> symbolicReturn_;
  llvm::DenseMap<const llvm::Function *, std::unique_ptr<Shape>> shapes_;
};

} // namespace cairn::engine::transform
