#include "cairn/engine/ProgramLoader.h"

#include "cairn/support/Subprocess.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace cairn::engine {

LoadedModule::LoadedModule(std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> m)
    : context_(std::move(ctx)), module_(std::move(m)) {}

// The module must go before the context that owns its types and constants.
LoadedModule::~LoadedModule() { module_.reset(); }

std::string defaultRuntimeBitcode() {
  if (const char *env = std::getenv("CAIRN_RUNTIME_BC"))
    return env;
#ifdef CAIRN_RUNTIME_BC_PATH
  return CAIRN_RUNTIME_BC_PATH;
#else
  return {};
#endif
}

std::string defaultRuntimeInclude() {
  if (const char *env = std::getenv("CAIRN_RUNTIME_INCLUDE"))
    return env;
#ifdef CAIRN_RUNTIME_INCLUDE_PATH
  return CAIRN_RUNTIME_INCLUDE_PATH;
#else
  return {};
#endif
}

namespace {

std::string describe(const llvm::SMDiagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  diag.print("", os, /*ShowColors=*/false);
  return os.str();
}

// Reads the first bytes, to tell foreign files from bitcode and IR before LLVM tries.
std::string sniff(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char head[4] = {};
  in.read(head, sizeof head);
  return std::string(head, size_t(in.gcount()));
}

std::unique_ptr<llvm::Module> parse(const std::string &path, llvm::LLVMContext &ctx,
                                    const std::string &shownAs) {
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseIRFile(path, diag, ctx);
  if (!m)
    throw LoadError(shownAs + ": not valid LLVM 15 bitcode or IR: " + describe(diag));
  return m;
}

// A scratch file that removes itself.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &suffix) {
    std::string pattern = (fs::temp_directory_path() / ("cairn-XXXXXX" + suffix)).string();
    int fd = ::mkstemps(pattern.data(), int(suffix.size()));
    if (fd < 0)
      throw LoadError("cannot create a temporary file in " + fs::temp_directory_path().string());
    ::close(fd);
    path = pattern;
  }
  ~TempFile() { ::unlink(path.c_str()); }
};

void compileC(const std::string &source, const std::string &out, const LoadOptions &o) {
  std::vector<std::string> argv = {o.clang, "-c", "-emit-llvm"};
  argv.insert(argv.end(), o.defaultCFlags.begin(), o.defaultCFlags.end());
  std::string include = o.runtimeInclude.empty() ? defaultRuntimeInclude() : o.runtimeInclude;
  if (!include.empty())
    argv.push_back("-I" + include);
  argv.insert(argv.end(), o.extraCFlags.begin(), o.extraCFlags.end());
  argv.insert(argv.end(), {source, "-o", out});
  ProcessResult r = runProcess(argv);
  if (!r.succeeded())
    throw LoadError(o.clang + " could not compile " + source + " (it " + r.describeEnd() + ")" +
                    (r.output.empty() ? "" : ":\n" + r.output));
}

} // namespace

std::unique_ptr<LoadedModule> loadProgram(const std::string &path, const LoadOptions &o) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw LoadError(path + ": no such file");
  const std::string ext = fs::path(path).extension().string();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> m;
  if (ext == ".c" || ext == ".i") {
    TempFile bc(".bc");
    compileC(path, bc.path, o);
    m = parse(bc.path, *ctx, path);
  } else if (ext == ".bc" || ext == ".ll") {
    std::string head = sniff(path);
    bool bitcode = head == std::string("BC\xC0\xDE", 4) || head == std::string("\xDE\xC0\x17\x0B", 4);
    if (ext == ".bc" && !bitcode)
      throw LoadError(path + ": not LLVM bitcode (it does not start with the bitcode magic)");
    m = parse(path, *ctx, path);
  } else {
    throw LoadError(path + ": unsupported input; expected a .c, .bc or .ll file");
  }

  if (o.linkRuntime) {
    std::string runtime = o.runtimeBitcode.empty() ? defaultRuntimeBitcode() : o.runtimeBitcode;
    if (runtime.empty() || !fs::is_regular_file(runtime, ec))
      throw LoadError("the Cairn runtime bitcode was not found" +
                      (runtime.empty() ? std::string() : " at " + runtime) +
                      " (set CAIRN_RUNTIME_BC, or build the runtime target)");
    std::unique_ptr<llvm::Module> rt = parse(runtime, *ctx, runtime);
    rt->setDataLayout(m->getDataLayout());
    rt->setTargetTriple(m->getTargetTriple());
    if (llvm::Linker::linkModules(*m, std::move(rt), llvm::Linker::Flags::LinkOnlyNeeded))
      throw LoadError(path + ": linking the runtime failed");
  }

  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m, &os))
    throw LoadError(path + ": the module is not valid LLVM IR:\n" + os.str());
  llvm::Function *entry = m->getFunction(o.entry);
  if (!entry || entry->isDeclaration())
    throw LoadError(path + ": no definition of the entry function '" + o.entry + "'");

  auto loaded = std::make_unique<LoadedModule>(std::move(ctx), std::move(m));
  loaded->sourcePath_ = path;
  return loaded;
}

} // namespace cairn::engine
