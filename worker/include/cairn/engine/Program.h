// The engine's internal form of a program, made once from the LLVM module so that the
// interpreter never walks LLVM's data structures: instructions are flat records whose operands
// are register slots of the current frame or entries of the program's constant pool.
//
// Values are bit-vectors of at most 128 bits; pointers are 64-bit integers. Aggregates that
// live in registers (the results of *.with.overflow, small structs) are flattened into one
// bit-vector by their data layout. The one aggregate that does not fit, the {i128, i1} of a
// 128-bit *.with.overflow, is a register pair: the instruction's `dst` holds the value and
// `dst + 1` the flag, and its extractvalues read one register each.
#pragma once

#include "cairn/engine/BranchTransform.h"
#include "cairn/expr/Expr.h"

#include <optional>
#include <string>
#include <vector>

namespace cairn::engine {

struct Operand {
  uint32_t index = 0;
  bool constant = false; // index into Program::constants, else a register of the frame
};

enum class Opcode : uint8_t {
  Binary,      // kind: the expression kind (Add .. AShr); a, b
  Compare,     // kind: Eq, Ult, Ule, Slt, Sle; a, b (swapped for ugt...); negate: ne; imm: width
  ZExt,        // a; imm: source width
  SExt,        // a; imm: source width
  Trunc,       // a; imm: source width
  Move,        // a (bitcast, ptrtoint/inttoptr of equal width, freeze)
  Select,      // a ? b : c
  ExtractBits, // a; imm: bit offset (extractvalue on a flattened aggregate)
  InsertBits,  // a with b (count bits wide) written at bit offset imm (insertvalue)
  Alloca,      // a: element count; imm: element size in bytes; width: 64; offset: alignment
  Load,        // a: address; width: bits loaded
  Store,       // a: value, b: address; width: bits stored
  Gep,         // a: base; imm: first GepTerm; count: number of terms; offset: constant part
  Br,          // target: block
  CondBr,      // a: condition; target, target2
  Switch,      // a: value; imm: first SwitchCase; count; target: default block
  IndirectBr,  // a: address; imm: first SwitchCase (label address -> block); count; no default
  Ret,         // a (when hasValue)
  Unreachable,
  Call,        // imm: CallSite index
  Float,       // imm: FloatOp; a, b, c (MulAdd's addend); count: operand width (32, 64 or 80);
               // runs concretely
  ExtractElement, // a: vector, b: index; width: element bits; count: lanes of a
  InsertElement,  // a: vector, b: element, c: index; count: element bits
  Shuffle,        // a, b: vectors of `count` lanes each; imm: first mask entry; lanes: result
  AtomicRmw,      // a: address, b: operand; imm: RmwOp; count: value bits; result: the old value
  CmpXchg,        // a: address, b: expected, c: new; count: value bits; result {old, success}
  Unsupported,    // an instruction the engine cannot run (a 256-bit vector store, ...): imm
                  // indexes Function::unsupported; the path that reaches it ends there
};

// atomicrmw operations (single-threaded programs: an atomic is a load, an operation, a store).
enum class RmwOp : uint8_t { Xchg, Add, Sub, And, Nand, Or, Xor, Max, Min, UMax, UMin };

enum class FloatOp : uint8_t {
  Add, Sub, Mul, Div, Rem, Neg,
  ToSigned, ToUnsigned, FromSigned, FromUnsigned, Extend, Truncate,
  MulAdd, FusedMulAdd, // a * b + c, rounded twice or once
  Abs,                 // llvm.fabs: the sign bit cleared
  MinNum, MaxNum,      // llvm.minnum/maxnum: a NaN operand gives the other operand
  CopySign,            // llvm.copysign: the first operand with the second one's sign bit
  // llvm.floor/ceil/trunc/round and rint/nearbyint/roundeven: to an integral value; a NaN
  // passes unchanged, as musl's functions (x86-64's lowering of the intrinsics) return it.
  Floor, Ceil, Trunc, Round, RoundEven,
  Sqrt,                // llvm.sqrt: sqrtsd's, NaNs made quiet
  LRint, LRound,       // llvm.lrint/llrint, llvm.lround/llround: rounded, then converted as cvtsd2si
  // fcmp predicates, in LLVM's order from 0 (false) to 15 (true)
  CmpFirst,
};

// How many operands `op` takes (1 to 3).
unsigned floatOperandCount(FloatOp op);

struct Instr {
  Opcode op;
  Kind kind = Kind::Constant; // for Binary and Compare
  bool negate = false;        // for Compare
  bool hasValue = false;      // for Ret
  bool noSignedWrap = false;  // for Binary: signed overflow is undefined behaviour (C's int)
  uint16_t width = 0;         // result width in bits (access width for Load/Store)
  uint16_t lanes = 1;         // > 1: a fixed-width vector operation, element by element
  uint32_t dst = ~0u;         // result register, ~0u when none
  Operand a, b, c;
  uint32_t imm = 0;
  uint32_t count = 0;
  uint32_t target = 0, target2 = 0;
  int64_t offset = 0;
  uint32_t loc = 0; // index into Program::locations
};

struct GepTerm {
  Operand index;
  uint16_t indexWidth; // the index is sign-extended from this width to 64 bits
  int64_t scale;
};

struct SwitchCase {
  u128 value;
  uint32_t target;
};

// Copies made when control enters a block from one predecessor: the block's phi nodes.
struct PhiMove {
  uint32_t dst;
  Operand src;
};

struct BasicBlock {
  uint32_t firstInstr = 0;
  // For each predecessor block: the moves, as a range of Function::phiMoves.
  struct Edge {
    uint32_t from;
    uint32_t first, count;
  };
  std::vector<Edge> edges;
  // A decision of the user's program ends this block (loading/BranchSites.h): its edges are
  // the branches firstBranch .. firstBranch + branchCount - 1 of Program::branchTargets.
  uint32_t firstBranch = ~0u;
  uint32_t branchCount = 0;
};

// Functions the engine implements itself.
enum class Special : uint16_t {
  MakeSymbolic, Assume, Abort, SilentExit, ReportError, IsSymbolic, GetValue,
  OpenMerge, CloseMerge,
  Malloc, Calloc, Realloc, Free,
  Printf, Puts, Putchar, Exit,
  Fprintf, Sprintf, Snprintf, Fputs, Fputc, Fflush,
  Memcpy, Memmove, Memset,
  Ignored,   // llvm.dbg.*, llvm.lifetime.*, stacksave/restore, klee_prefer_cex ...
  Identity,  // llvm.expect.*: returns its first argument
  Ctpop, Ctlz, Cttz, Bswap, Fshl, Fshr, Abs, Smin, Smax, Umin, Umax,
  SAddO, UAddO, SSubO, USubO, SMulO, UMulO,
  UAddSat, USubSat, SAddSat, SSubSat,
  VaStart, VaEnd, VaCopy,
  Warning, WarningOnce, PrintExpr, IsReplay, // klee_warning, klee_warning_once, ...
  InlineAsm, // the engine cannot run it: the path ends with a model error
  SetForking, AliasFunction, StackTrace, CheckMemoryAccess, DefineFixedObject, GetObjSize,
  PrintRange, // klee_set_forking, klee_alias_function, ... (KleeStateFunctions.cpp)
  AlignedMalloc, // cairn_aligned_malloc(alignment, size): the runtime's memalign & co. build on it
  PrintfChk, FprintfChk, SprintfChk, SnprintfChk, // glibc's fortified printf family
  EnvironmentOptions, WriteOutput, MappedFile, // the POSIX environment model's (EnvironmentFunctions.cpp)
  LoadRelative, // llvm.load.relative: a relative lookup table's entry (MemoryFunctions.cpp)
  Last = LoadRelative, // the engine's handler table has one entry per function up to here
};

enum class CallKind : uint8_t {
  Direct,   // callee: a function of the program
  Indirect, // callee operand: a function address
  Special,  // handled by the engine (intrinsics, malloc, klee_*, ...): `special` names it
};

struct CallSite {
  CallKind kind = CallKind::Direct;
  uint32_t callee = 0;  // function index for Direct; the special function id for Special
  Operand target;       // for Indirect
  uint32_t firstArg = 0, numArgs = 0; // range of Function::callArgs
  std::vector<uint16_t> argWidths;
  std::vector<uint32_t> byValSizes; // per argument: bytes to copy for a byval argument, or 0
  std::vector<uint64_t> byValAligns; // per argument: the byval copy's alignment, or 0
  std::string calleeName; // for messages
};

// Where a melded instruction (BranchTransform.h) is the original program's: under any of its
// terms, each the conjunction of its literals (i1 registers or constants, negated unless
// positive), as the instruction at the term's location. An error elsewhere is an extra
// instruction's, which the original program does not have.
struct GuardLiteral {
  Operand cond;
  bool positive = true;
};
struct GuardTerm {
  uint32_t loc = 0;
  uint32_t firstLiteral = 0, literalCount = 0; // range of Function::guardLiterals
};
struct InstrGuard {
  uint32_t firstTerm = 0, termCount = 0; // range of Function::guardTerms; none: extra everywhere
};

// A natural loop at the top of a function's loop nest: the unit of loop merging.
struct Loop {
  uint32_t header = 0;
  bool callsFunctions = false; // calls a function of the program, or through a pointer
  bool hasInnerLoops = false;
};

// The runtime's string and memory functions the engine may run natively, when every byte the
// call touches is concrete and in bounds (interpreter/NativeStrings.cpp); their C body runs
// otherwise, forking on symbolic bytes and reporting errors as the program's own code would.
enum class NativeString : uint8_t {
  None, Memcpy, Memmove, Memset, Memcmp, Bcmp, Memchr, Strlen, Strnlen, Strcmp, Strncmp, Strchr, Strchrnul,
  Strrchr, Strcpy, Stpcpy,
};

// The C library's math functions the engine computes itself (interpreter/MathFunctions.cpp)
// wherever a call reaches them: a declaration, or the libc's definition (never a program's own).
// The format is the first parameter's width.
enum class MathFunction : uint8_t {
  None,
  // As the intrinsics of the same name (FloatOp): floor, ceil, trunc, round, rint and nearbyint,
  // sqrt, fabs, copysign, fmod, fma, lrint and llrint, lround and llround.
  Floor, Ceil, Trunc, Round, Rint, Sqrt, Fabs, Copysign, Fmod, Fma, LRint, LRound,
  // musl's own special cases: fmin, fmax (signed zeros ordered), fdim, frexp, ldexp and scalbn
  // (an int exponent), scalbln (a long one), modf.
  Fmin, Fmax, Fdim, Frexp, Ldexp, Modf,
  // No SMT meaning (sin, exp, log, pow, ...): the arguments are made concrete, then the libc's
  // code runs, or the host's function for a declaration.
  Concretised,
};

struct Function {
  std::string name;
  uint32_t numRegs = 0;
  uint32_t numParams = 0; // parameters are registers 0 .. numParams-1
  bool variadic = false;
  bool isRuntime = false; // defined by Cairn's runtime rather than the user's program
  NativeString native = NativeString::None; // runtime functions only
  MathFunction math = MathFunction::None;    // declarations and runtime functions only
  std::vector<uint16_t> paramWidths;
  uint16_t returnWidth = 0; // 0: void
  std::vector<Instr> instrs;
  std::vector<BasicBlock> blocks;
  std::vector<PhiMove> phiMoves;
  std::vector<GepTerm> gepTerms;
  std::vector<SwitchCase> switchCases;
  std::vector<Operand> callArgs;
  std::vector<CallSite> callSites;
  std::vector<int32_t> shuffleMasks; // -1: an undefined lane
  std::vector<Loop> loops;
  std::vector<uint32_t> blockLoop;  // per block: 1 + the index of its loop in `loops`, 0: none
  std::vector<uint16_t> regWidths;  // per register: its width in bits, 0 when over 128
  bool declarationOnly = false; // an external function with no body
  std::vector<std::string> unsupported; // what each Unsupported instruction is, and why
  // The source names of the locals, from the debug information: (alloca register, name),
  // by register. For messages about a frame's variables.
  std::vector<std::pair<uint32_t, std::string>> localNames;
  // Per instruction, 1 + its index in `guards` when it is a melded one, else 0; empty when the
  // function has none.
  std::vector<uint32_t> guardOf;
  std::vector<InstrGuard> guards;
  std::vector<GuardTerm> guardTerms;
  std::vector<GuardLiteral> guardLiterals;

  // One past the last instruction of `block` (blocks are contiguous in `instrs`).
  uint32_t blockEnd(uint32_t block) const {
    return block + 1 < blocks.size() ? blocks[block + 1].firstInstr : uint32_t(instrs.size());
  }
};

// A conditional branch or switch of the user's program, for lcov's branch records: where it is
// and its edges, the branches first .. first + count - 1 of Program::branchTargets.
struct BranchSite {
  uint32_t function = 0, block = 0;
  uint32_t loc = 0; // its terminator's location
  uint32_t first = 0, count = 0;
};

struct SourceLocation {
  uint32_t file = 0; // index into Program::files
  uint32_t line = 0;
  uint32_t column = 0;
};

// A global variable's initial memory: address, size and initial bytes.
struct GlobalObject {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
  bool readOnly = false;
  std::vector<uint8_t> bytes; // `size` bytes
  // Why its initial contents could not be computed (a constant the engine does not support),
  // or empty. Such a global is left out of memory: only a path that touches it ends, with this.
  std::string unsupported;
};

struct Program {
  std::vector<Function> functions;
  uint32_t entry = 0;
  std::vector<uint32_t> constructors; // run before the entry, in this order (llvm.global_ctors)
  std::vector<u128> constants;
  std::vector<GlobalObject> globals;
  std::vector<SourceLocation> locations; // 0: unknown
  std::vector<std::string> files;
  // Function pointers are these fake addresses: functionBase + index * functionStride.
  static constexpr uint64_t kFunctionBase = 0x0800'0000;
  static constexpr uint64_t kFunctionStride = 16;
  uint64_t functionAddress(uint32_t index) const { return kFunctionBase + index * kFunctionStride; }
  // Labels taken as values (blockaddress) are fake addresses too, numbered from kLabelBase in
  // the order the translator meets them; only an indirectbr's cases give them meaning.
  static constexpr uint64_t kLabelBase = 0x0c00'0000;
  static constexpr uint64_t kLabelStride = 16;
  // The lines of the user's program that hold instructions: the coverage denominator.
  uint64_t coverableLines = 0;
  // The same lines, each as (file index << 32) | line, sorted: coverage per file.
  std::vector<uint64_t> coverableLineKeys;
  // The decisions of the user's program in function and block order, and per branch (an edge
  // out of one) the block it enters.
  std::vector<BranchSite> branchSites;
  std::vector<uint32_t> branchTargets;
  // The target's pointer width: the architecture of a Test-Comp suite.
  uint32_t pointerBits = 64;
  // What the branch transformation did, when the module was transformed.
  std::optional<BranchTransformStats> transform;
};

} // namespace cairn::engine
