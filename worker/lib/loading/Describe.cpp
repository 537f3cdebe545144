#include "loading/Describe.h"

#include <llvm/IR/Type.h>
#include <llvm/IR/Value.h>
#include <llvm/Support/raw_ostream.h>

namespace cairn::engine {

std::string describe(const llvm::Value *v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  v->print(os);
  return os.str();
}

std::string typeName(const llvm::Type *t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t->print(os);
  return os.str();
}

} // namespace cairn::engine
