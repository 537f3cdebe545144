// Turning a user's program into one LLVM module: C sources are compiled with clang-15, bitcode
// and textual IR are parsed as they are, and the runtime is linked in. Every failure is a
// LoadError whose message says what was wrong with which file, never a crash.
#pragma once

#include "cairn/engine/Environment.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace cairn::engine {

struct LoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LoadOptions {
  // For .c input: the flags clang-15 gets before the user's own (`extraCFlags`).
  // __NO_CTYPE makes <ctype.h> call the runtime's functions instead of indexing glibc's
  // 384-entry tables with the (often symbolic) character: a symbolic read of such a table
  // costs the solver seconds where the function's comparisons cost nothing.
  std::vector<std::string> defaultCFlags = {"-O0", "-g", "-Xclang", "-disable-O0-optnone",
                                            "-D__NO_CTYPE"};
  std::vector<std::string> extraCFlags;
  std::string clang = "clang-15";
  std::string runtimeBitcode; // empty: the runtime this build made
  std::string runtimeInclude; // empty: the headers of this build's runtime
  bool linkRuntime = true;
  std::string entry = "main";
  // Full: compiled against musl's headers, linked with the POSIX runtime and musl's bitcode,
  // started at kPosixStart, which calls `entry`.
  LibcKind libc = LibcKind::Minimal;
  std::string posixRuntimeBitcode; // empty: the one this build made
  std::string libcBitcode;         // empty: the one this build made
  std::string libcInclude;         // empty: musl-dev's headers
};

// The function the translated program starts at: `options.entry`, or the POSIX model's start.
std::string startFunction(const LoadOptions &options);

// The linked program. Owns its LLVM context.
class LoadedModule {
public:
  LoadedModule(std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> m);
  ~LoadedModule();
  llvm::Module &module() { return *module_; }
  const std::string &sourcePath() const { return sourcePath_; }

private:
  friend std::unique_ptr<LoadedModule> loadProgram(const std::string &, const LoadOptions &);
  std::unique_ptr<llvm::LLVMContext> context_;
  std::unique_ptr<llvm::Module> module_;
  std::string sourcePath_;
};

// .c is compiled, .bc and .ll are parsed, and a native program built with `cairn cc` (an
// executable, object or archive) is the bitcode it records (RecordedBitcode.h), linked.
std::unique_ptr<LoadedModule> loadProgram(const std::string &path, const LoadOptions &options);

// The bitcode a native program built with `cairn cc` records, linked into one module.
std::unique_ptr<llvm::Module> linkRecordedBitcode(const std::string &path, llvm::LLVMContext &ctx);

// Where this build put the runtime bitcode and its headers.
std::string defaultRuntimeBitcode();
std::string defaultRuntimeInclude();
std::string defaultPosixRuntimeBitcode();
std::string defaultLibcBitcode();
std::string defaultLibcInclude();

} // namespace cairn::engine
