// How LLVM types become the engine's registers: bit-vectors of at most 128 bits, a vector's
// lanes side by side, and the one register pair (see Program.h).
#pragma once

#include <cstdint>

namespace llvm {
class DataLayout;
class Type;
} // namespace llvm

namespace cairn::engine {

// The register width of a value of type `t`; throws LoadError when it does not fit one.
unsigned bitsOf(const llvm::DataLayout &dl, llvm::Type *t);

// The width merging needs to build a value of the register; 0 when it is no bit-vector of
// at most 128 bits.
uint16_t registerWidth(const llvm::DataLayout &dl, llvm::Type *t);

// 1 for a scalar; throws LoadError for a scalable vector.
uint16_t lanesOf(llvm::Type *t);

// The {i128, i1} of a 128-bit *.with.overflow: two fields that do not fit one register.
bool isRegisterPair(const llvm::DataLayout &dl, llvm::Type *t);

} // namespace cairn::engine
