// Lines that keep an instruction: promoting locals to registers removes their loads and stores,
// and melding removes the sides' jumps and the branch, so a line whose only instructions those
// were would no longer be a line of the program (coverage would lose it, from what is covered
// and from what could be). A carrier, `freeze i1 false` at the line, stands in: it runs as a
// move, and melded it carries its side's line as any original instruction does (MeldGuards).
#pragma once

#include <functional>

namespace llvm {
class Instruction;
} // namespace llvm

namespace cairn::engine::transform {

// Puts a carrier of `i`'s line before `i` unless another instruction of its block that stays
// (`goes` false) has that line.
void keepLine(llvm::Instruction &i, const std::function<bool(const llvm::Instruction &)> &goes);

} // namespace cairn::engine::transform
