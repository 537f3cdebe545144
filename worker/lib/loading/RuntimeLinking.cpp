#include "loading/RuntimeLinking.h"

#include "cairn/engine/Environment.h"
#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>

namespace cairn::engine {

namespace {

LoadError notBitcode(const std::string &shownAs, const llvm::SMDiagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  diag.print("", os, /*ShowColors=*/false);
  return LoadError(shownAs + ": not valid LLVM 15 bitcode or IR: " + os.str());
}

} // namespace

std::unique_ptr<llvm::Module> parseModule(const std::string &path, llvm::LLVMContext &ctx,
                                          const std::string &shownAs) {
  // Bitcode and IR from front ends before LLVM 15 have typed pointers: the reader upgrades them
  // to opaque ones, as the runtime's are, when the context says so before it first reads any
  // (left to itself, it would take the first module's kind and refuse the other).
  ctx.setOpaquePointers(true);
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseIRFile(path, diag, ctx);
  if (!m)
    throw notBitcode(shownAs, diag);
  return m;
}

void linkBitcode(llvm::Module &m, const std::string &path, const std::string &what, const std::string &hint,
                 bool onlyNeeded) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec))
    throw LoadError(what + " was not found" + (path.empty() ? std::string() : " at " + path) + " (" + hint + ")");
  // Read lazily: only what the link takes is materialized. All of musl's bitcode, or all of the
  // runtime's, read eagerly was a sixth of a short run's start-up.
  m.getContext().setOpaquePointers(true);
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> lib = llvm::getLazyIRFileModule(path, diag, m.getContext());
  if (!lib)
    throw notBitcode(what + " at " + path, diag);
  lib->setDataLayout(m.getDataLayout());
  lib->setTargetTriple(m.getTargetTriple());
  if (llvm::Linker::linkModules(m, std::move(lib), onlyNeeded ? llvm::Linker::Flags::LinkOnlyNeeded
                                                              : llvm::Linker::Flags::None))
    throw LoadError("linking " + what + " into " + m.getModuleIdentifier() + " failed");
}

std::unordered_set<std::string> definedFunctions(const llvm::Module &m) {
  std::unordered_set<std::string> names;
  for (const llvm::Function &f : m)
    if (!f.isDeclaration())
      names.insert(f.getName().str());
  return names;
}

void markRuntime(llvm::Module &m, const std::unordered_set<std::string> &own) {
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && !own.count(f.getName().str()))
      f.addFnAttr(kRuntimeAttribute);
}

bool isRuntimeFunction(const llvm::Function &f) {
  if (f.hasFnAttribute(kRuntimeAttribute))
    return true;
  const llvm::DISubprogram *sp = f.getSubprogram();
  return sp && sp->getFilename().contains("runtime/lib");
}

void defineUserMain(llvm::Module &m, const std::string &entry, const std::string &shownAs) {
  llvm::Function *user = m.getFunction(entry);
  if (!user || user->isDeclaration())
    throw LoadError(shownAs + ": no definition of the entry function '" + entry + "'");
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  llvm::Type *ptr = llvm::PointerType::get(c, 0);
  auto *type = llvm::FunctionType::get(i32, {i32, ptr, ptr}, false);
  llvm::Function *wrapper = m.getFunction(kPosixUserMain);
  if (wrapper && !wrapper->isDeclaration())
    throw LoadError(shownAs + ": the program defines " + std::string(kPosixUserMain) + ", a name Cairn's runtime uses");
  if (!wrapper)
    wrapper = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, kPosixUserMain, m);
  if (wrapper->getFunctionType() != type)
    throw LoadError(shownAs + ": " + std::string(kPosixUserMain) + " has an unexpected type");
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "", wrapper));
  std::vector<llvm::Value *> args;
  for (llvm::Argument &param : user->args()) {
    llvm::Type *t = param.getType();
    unsigned i = param.getArgNo();
    llvm::Value *given = i < 3 ? wrapper->getArg(i) : nullptr;
    if (given && t->isIntegerTy() && given->getType()->isIntegerTy())
      args.push_back(b.CreateSExtOrTrunc(given, t));
    else if (given && t->isPointerTy() && given->getType()->isPointerTy())
      args.push_back(given);
    else
      args.push_back(llvm::Constant::getNullValue(t));
  }
  llvm::Value *result = b.CreateCall(user->getFunctionType(), user, args);
  llvm::Type *rt = user->getReturnType();
  if (rt->isIntegerTy())
    b.CreateRet(b.CreateSExtOrTrunc(result, i32));
  else
    b.CreateRet(llvm::ConstantInt::get(i32, 0));
}

} // namespace cairn::engine
