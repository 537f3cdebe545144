// Linking Cairn's runtime and the libc into a program: the functions that came from them are
// marked as runtime code (no coverage, errors reported at the program's calling line), and under
// the full libc the POSIX model's start calls the program's entry through a wrapper of one
// signature.
#pragma once

#include <string>
#include <unordered_set>

#include <memory>

namespace llvm {
class Function;
class LLVMContext;
class Module;
} // namespace llvm

namespace cairn::engine {

// The attribute a function linked in from the runtime or the libc carries.
inline constexpr const char *kRuntimeAttribute = "cairn-runtime";

// The bitcode or textual IR at `path`, named `shownAs` in the LoadError it throws otherwise.
std::unique_ptr<llvm::Module> parseModule(const std::string &path, llvm::LLVMContext &ctx,
                                          const std::string &shownAs);

// Links the bitcode at `path` into `m`, only what `m` refers to (`onlyNeeded`, a library) or
// all of it; a definition `m` has already stays. Throws LoadError.
// `what` names it in messages, `hint` says how to get it when it is missing.
void linkBitcode(llvm::Module &m, const std::string &path, const std::string &what, const std::string &hint,
                 bool onlyNeeded);

// The names of the functions `m` defines: what the program brought, before linking.
std::unordered_set<std::string> definedFunctions(const llvm::Module &m);
// Every function defined now and not among `own` becomes runtime code.
void markRuntime(llvm::Module &m, const std::unordered_set<std::string> &own);
// Whether `f` is runtime code: marked so, or bitcode of the runtime linked before the mark.
bool isRuntimeFunction(const llvm::Function &f);

// Defines kPosixUserMain(i32 argc, ptr argv, ptr envp), calling `entry` with as many of these
// as it takes (main(), main(argc, argv), main(argc, argv, envp); others get zeros) and
// returning its int result (0 for void). Throws LoadError when `entry` is not defined.
void defineUserMain(llvm::Module &m, const std::string &entry, const std::string &shownAs);

} // namespace cairn::engine
