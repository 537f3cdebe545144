#include "cairn/engine/ProgramLoader.h"

#include "cairn/support/Subprocess.h"
#include "cairn/engine/RecordedBitcode.h"
#include "loading/MathIntrinsics.h"
#include "loading/RuntimeLinking.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace cairn::engine {

LoadedModule::LoadedModule(std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> m)
    : context_(std::move(ctx)), module_(std::move(m)) {}

// The module must go before the context that owns its types and constants.
LoadedModule::~LoadedModule() { module_.reset(); }

namespace {

// A path this build knows: the environment variable's value when it is set, else where the
// build put it (`built`, empty when the build has none).
std::string configuredPath(const char *variable, const char *built) {
  const char *env = std::getenv(variable);
  return env ? env : built;
}

#ifndef CAIRN_RUNTIME_BC_PATH
#define CAIRN_RUNTIME_BC_PATH ""
#endif
#ifndef CAIRN_RUNTIME_INCLUDE_PATH
#define CAIRN_RUNTIME_INCLUDE_PATH ""
#endif
#ifndef CAIRN_POSIX_RUNTIME_BC_PATH
#define CAIRN_POSIX_RUNTIME_BC_PATH ""
#endif
#ifndef CAIRN_LIBC_BC_PATH
#define CAIRN_LIBC_BC_PATH ""
#endif
#ifndef CAIRN_LIBC_INCLUDE_PATH
#define CAIRN_LIBC_INCLUDE_PATH "/usr/include/x86_64-linux-musl"
#endif

} // namespace

std::string defaultRuntimeBitcode() { return configuredPath("CAIRN_RUNTIME_BC", CAIRN_RUNTIME_BC_PATH); }
std::string defaultRuntimeInclude() { return configuredPath("CAIRN_RUNTIME_INCLUDE", CAIRN_RUNTIME_INCLUDE_PATH); }
std::string defaultPosixRuntimeBitcode() {
  return configuredPath("CAIRN_POSIX_RUNTIME_BC", CAIRN_POSIX_RUNTIME_BC_PATH);
}
std::string defaultLibcBitcode() { return configuredPath("CAIRN_LIBC_BC", CAIRN_LIBC_BC_PATH); }
std::string defaultLibcInclude() { return configuredPath("CAIRN_LIBC_INCLUDE", CAIRN_LIBC_INCLUDE_PATH); }

std::string startFunction(const LoadOptions &o) {
  return o.libc == LibcKind::Full && o.linkRuntime ? kPosixStart : o.entry;
}

namespace {

// Reads the first bytes, to tell foreign files from bitcode and IR before LLVM tries.
std::string sniff(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char head[4] = {};
  in.read(head, sizeof head);
  return std::string(head, size_t(in.gcount()));
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
  if (o.libc == LibcKind::Full) {
    // musl's headers instead of the host's, so that structures are laid out as the linked
    // libc lays them out; clang's own headers (stddef.h, stdarg.h, ...) stay.
    std::string libc = o.libcInclude.empty() ? defaultLibcInclude() : o.libcInclude;
    std::error_code ec;
    if (!fs::is_directory(libc, ec))
      throw LoadError("musl's headers were not found at " + libc +
                      " (--libc full needs the musl-dev package: run deploy/bootstrap.sh deps)");
    argv.insert(argv.end(), {"-nostdlibinc", "-isystem", libc});
  }
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

namespace {

// Whether `part` defines a function or variable `m` refers to without a definition.
bool definesMissing(const llvm::Module &m, const llvm::Module &part) {
  for (const llvm::GlobalValue &g : part.global_values()) {
    if (g.isDeclaration() || g.hasLocalLinkage())
      continue;
    const llvm::GlobalValue *there = m.getNamedValue(g.getName());
    if (there && there->isDeclaration())
      return true;
  }
  return false;
}

} // namespace

std::unique_ptr<llvm::Module> linkRecordedBitcode(const std::string &path, llvm::LLVMContext &ctx) {
  std::vector<std::string> files = recordedBitcodeFiles(path);
  if (files.empty())
    throw LoadError(path + ": a native program with no bitcode recorded in it (build it with "
                           "CC=\"cairn cc\", which records each object's bitcode)");
  auto m = std::make_unique<llvm::Module>(path, ctx);
  auto parsePart = [&](const std::string &file) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
      throw LoadError(path + ": the bitcode it was built from is gone: " + file);
    return parseModule(file, ctx, file);
  };
  auto linkPart = [&](std::unique_ptr<llvm::Module> part, const std::string &file) {
    if (m->empty() && m->global_empty()) {
      m->setDataLayout(part->getDataLayout());
      m->setTargetTriple(part->getTargetTriple());
    }
    if (llvm::Linker::linkModules(*m, std::move(part)))
      throw LoadError(path + ": linking the bitcode of " + file + " failed (a symbol defined twice?)");
  };
  for (const std::string &file : files)
    linkPart(parsePart(file), file);
  // Archive members, as a linker takes them: whole, while some member defines a symbol that is
  // still missing.
  std::set<std::string> already(files.begin(), files.end());
  std::vector<std::string> members;
  for (const std::string &member : recordedBitcodeFiles(path, kArchiveBitcodeSection))
    if (!already.count(member))
      members.push_back(member);
  std::vector<std::unique_ptr<llvm::Module>> parts;
  for (const std::string &member : members)
    parts.push_back(parsePart(member));
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < parts.size(); ++i)
      if (parts[i] && definesMissing(*m, *parts[i])) {
        linkPart(std::move(parts[i]), members[i]);
        progress = true;
      }
  }
  return m;
}

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
    m = parseModule(bc.path, *ctx, path);
  } else if (ext == ".bc" || ext == ".ll") {
    std::string head = sniff(path);
    bool bitcode = head == std::string("BC\xC0\xDE", 4) || head == std::string("\xDE\xC0\x17\x0B", 4);
    if (ext == ".bc" && !bitcode)
      throw LoadError(path + ": not LLVM bitcode (it does not start with the bitcode magic)");
    m = parseModule(path, *ctx, path);
  } else if (isNativeBinary(path)) {
    m = linkRecordedBitcode(path, *ctx);
  } else {
    throw LoadError(path + ": unsupported input; expected a .c, .bc or .ll file, or a program built "
                           "with `cairn cc`");
  }

  callMathFunctionsForIntrinsics(*m);
  if (o.linkRuntime) {
    const std::unordered_set<std::string> own = definedFunctions(*m);
    if (o.libc == LibcKind::Full) {
      // The POSIX runtime whole (it is small, and musl calls into it: the system calls), then
      // what the program and the runtime use of musl. The runtime's definitions come first and
      // stay: its string functions take the place of musl's.
      linkBitcode(*m, o.posixRuntimeBitcode.empty() ? defaultPosixRuntimeBitcode() : o.posixRuntimeBitcode,
                  "the POSIX runtime bitcode",
                  "build the cairn_posix_runtime_bc target", false);
      linkBitcode(*m, o.libcBitcode.empty() ? defaultLibcBitcode() : o.libcBitcode,
                  "musl's bitcode for --libc full",
                  "run deploy/bootstrap.sh build", true);
      defineUserMain(*m, o.entry, path);
    } else {
      std::string runtime = o.runtimeBitcode.empty() ? defaultRuntimeBitcode() : o.runtimeBitcode;
      linkBitcode(*m, runtime, "the Cairn runtime bitcode", "set CAIRN_RUNTIME_BC, or build the runtime target",
                  true);
    }
    markRuntime(*m, own);
  }

  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m, &os))
    throw LoadError(path + ": the module is not valid LLVM IR:\n" + os.str());
  const std::string start = startFunction(o);
  llvm::Function *entry = m->getFunction(start);
  if (!entry || entry->isDeclaration())
    throw LoadError(path + ": no definition of the entry function '" + start + "'");

  auto loaded = std::make_unique<LoadedModule>(std::move(ctx), std::move(m));
  loaded->sourcePath_ = path;
  return loaded;
}

} // namespace cairn::engine
