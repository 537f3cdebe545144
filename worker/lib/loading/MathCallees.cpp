// Which functions are the C library's math functions: the name (with C's f and l suffixes for
// float and long double) and the signature C gives it, so that a program's own `floor` or a
// declaration with another type is left alone.
#include "interpreter/HostMath.h"
#include "loading/SpecialCallees.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>

#include <string>
#include <unordered_map>

namespace cairn::engine {

namespace {

// The parameters after the first (always the float) and the result.
enum class Shape : uint8_t {
  Unary,        // F -> F
  Binary,       // F, F -> F
  Ternary,      // F, F, F -> F
  WithPointer,  // F, T* -> F
  WithInt,      // F, int -> F
  WithLong,     // F, long -> F
  ToLong,       // F -> long
};

struct MathEntry {
  MathFunction function;
  Shape shape;
};

const std::unordered_map<std::string, MathEntry> &mathByBaseName() {
  using M = MathFunction;
  static const std::unordered_map<std::string, MathEntry> table = [] {
    std::unordered_map<std::string, MathEntry> t = {
        {"floor", {M::Floor, Shape::Unary}},        {"ceil", {M::Ceil, Shape::Unary}},
        {"trunc", {M::Trunc, Shape::Unary}},        {"round", {M::Round, Shape::Unary}},
        {"rint", {M::Rint, Shape::Unary}},          {"nearbyint", {M::Rint, Shape::Unary}},
        {"sqrt", {M::Sqrt, Shape::Unary}},          {"fabs", {M::Fabs, Shape::Unary}},
        {"copysign", {M::Copysign, Shape::Binary}}, {"fmod", {M::Fmod, Shape::Binary}},
        {"fma", {M::Fma, Shape::Ternary}},          {"lrint", {M::LRint, Shape::ToLong}},
        {"llrint", {M::LRint, Shape::ToLong}},      {"lround", {M::LRound, Shape::ToLong}},
        {"llround", {M::LRound, Shape::ToLong}},    {"fmin", {M::Fmin, Shape::Binary}},
        {"fmax", {M::Fmax, Shape::Binary}},         {"fdim", {M::Fdim, Shape::Binary}},
        {"frexp", {M::Frexp, Shape::WithPointer}},  {"modf", {M::Modf, Shape::WithPointer}},
        {"ldexp", {M::Ldexp, Shape::WithInt}},      {"scalbn", {M::Ldexp, Shape::WithInt}},
        {"scalbln", {M::Ldexp, Shape::WithLong}},
    };
    for (const HostMathFunction &h : hostMathFunctions())
      t.emplace(h.name, MathEntry{M::Concretised, h.arity == 1 ? Shape::Unary : Shape::Binary});
    return t;
  }();
  return table;
}

bool fits(const llvm::Function &f, Shape shape, llvm::Type *real) {
  llvm::FunctionType *type = f.getFunctionType();
  if (type->isVarArg() || type->getNumParams() == 0 || type->getParamType(0) != real)
    return false;
  auto params = [&](std::initializer_list<llvm::Type *> rest) {
    if (type->getNumParams() != 1 + rest.size())
      return false;
    unsigned i = 1;
    for (llvm::Type *t : rest)
      if (type->getParamType(i++) != t)
        return false;
    return true;
  };
  llvm::LLVMContext &c = f.getContext();
  llvm::Type *result = type->getReturnType();
  switch (shape) {
  case Shape::Unary: return result == real && params({});
  case Shape::Binary: return result == real && params({real});
  case Shape::Ternary: return result == real && params({real, real});
  case Shape::WithPointer: return result == real && params({llvm::PointerType::get(c, 0)});
  case Shape::WithInt: return result == real && params({llvm::Type::getInt32Ty(c)});
  case Shape::WithLong: return result == real && params({llvm::Type::getInt64Ty(c)});
  case Shape::ToLong: return result->isIntegerTy(64) && params({});
  }
  return false;
}

} // namespace

MathFunction mathFunction(const llvm::Function &f, bool isRuntime) {
  if (!f.isDeclaration() && !isRuntime)
    return MathFunction::None;
  const std::string name = f.getName().str();
  llvm::LLVMContext &c = f.getContext();
  auto lookUp = [&](const std::string &base, llvm::Type *real) {
    auto it = mathByBaseName().find(base);
    return it != mathByBaseName().end() && fits(f, it->second.shape, real) ? it->second.function
                                                                           : MathFunction::None;
  };
  if (MathFunction m = lookUp(name, llvm::Type::getDoubleTy(c)); m != MathFunction::None)
    return m;
  if (name.size() < 2)
    return MathFunction::None;
  const std::string base = name.substr(0, name.size() - 1);
  if (name.back() == 'f')
    return lookUp(base, llvm::Type::getFloatTy(c));
  if (name.back() == 'l')
    return lookUp(base, llvm::Type::getX86_FP80Ty(c));
  return MathFunction::None;
}

} // namespace cairn::engine
