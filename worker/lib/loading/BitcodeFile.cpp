#include "cairn/engine/BitcodeFile.h"

#include "cairn/engine/ProgramLoader.h"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

namespace cairn::engine {

std::string moduleBitcode(LoadedModule &module) {
  std::string bytes;
  llvm::raw_string_ostream out(bytes);
  llvm::WriteBitcodeToFile(module.module(), out);
  out.flush();
  return bytes;
}

std::string recordedProgramBitcode(const std::string &path) {
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> m = linkRecordedBitcode(path, *ctx);
  LoadedModule module(std::move(ctx), std::move(m));
  return moduleBitcode(module);
}

} // namespace cairn::engine
