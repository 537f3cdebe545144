// A function body in the engine's form: registers numbered (the arguments, then every
// instruction with a value, in order), blocks and loops described, instructions translated,
// and phi nodes turned into the moves made on each edge into their block.
#pragma once

#include "loading/ConstantTranslation.h"
#include "loading/SourceLocations.h"
#include "cairn/engine/Program.h"

namespace llvm {
class Function;
} // namespace llvm

namespace cairn::engine {

// `out` is the function's entry as numbering the module's functions made it: its isRuntime
// decides whether the body's lines count towards coverage.
void translateFunction(llvm::Function &f, Function &out, ConstantTranslator &constants,
                       const FunctionNumbers &functions, SourceLocations &locations);

} // namespace cairn::engine
