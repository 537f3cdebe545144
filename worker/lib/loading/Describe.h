// How the translator names what it refuses in a LoadError: as LLVM prints it, so the message
// can be matched against the program's IR.
#pragma once

#include <string>

namespace llvm {
class Type;
class Value;
} // namespace llvm

namespace cairn::engine {

std::string describe(const llvm::Value *v);
std::string typeName(const llvm::Type *t);

} // namespace cairn::engine
