#include "cairn/engine/BitcodeFile.h"

#include "cairn/engine/ProgramLoader.h"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Support/raw_ostream.h>

namespace cairn::engine {

std::string moduleBitcode(LoadedModule &module) {
  std::string bytes;
  llvm::raw_string_ostream out(bytes);
  llvm::WriteBitcodeToFile(module.module(), out);
  out.flush();
  return bytes;
}

} // namespace cairn::engine
