#include "CompilerWrapper.h"

#include "CommandLine.h"

#include "cairn/engine/BitcodeFile.h"
#include "cairn/engine/RecordedBitcode.h"
#include "cairn/support/Subprocess.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace cairn::client {

namespace {

const char *kClang = "clang-15";
const char *kObjcopy = "llvm-objcopy-15";
const char *kMuslInclude = "/usr/include/x86_64-linux-musl";
const char *kMuslLib = "/usr/lib/x86_64-linux-musl";

// clang's options whose value is the next argument.
bool takesValue(const std::string &a) {
  static const std::set<std::string> options = {
      "-o", "-MF", "-MT", "-MQ", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
      "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-x", "-L", "-l",
      "-Xlinker", "-Xclang", "-Xpreprocessor", "-Xassembler", "-T", "-u", "-z", "-e", "--param",
      "-aux-info", "-MJ", "-arch", "-target", "-rpath"};
  return options.count(a) != 0;
}

bool isCSource(const std::string &a) {
  std::string ext = fs::path(a).extension().string();
  return ext == ".c" || ext == ".i";
}

// A command line split the way the wrapper needs it.
struct Invocation {
  std::vector<std::string> args;
  std::vector<size_t> sources; // indices of the C sources
  std::string output;          // -o's value
  bool compileOnly = false, preprocessOnly = false, assemblyOnly = false, shared = false,
       dependenciesOnly = false, informational = false;

  explicit Invocation(const std::vector<std::string> &a) : args(a) {
    bool writesDependencies = false, askedDependencies = false;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string &x = args[i];
      if (takesValue(x)) {
        if (x == "-o" && i + 1 < args.size())
          output = args[i + 1];
        ++i;
        continue;
      }
      if (x == "-c")
        compileOnly = true;
      else if (x == "-E")
        preprocessOnly = true;
      else if (x == "-S")
        assemblyOnly = true;
      else if (x == "-shared")
        shared = true;
      else if (x == "-M" || x == "-MM")
        askedDependencies = true;
      else if (x == "-MD" || x == "-MMD")
        writesDependencies = true;
      else if (x == "-v" || x == "--version" || x == "-dumpversion" || x == "-dumpmachine" ||
               x.rfind("-print-", 0) == 0 || x == "--help")
        informational = true;
      else if (x.rfind("-o", 0) == 0 && x.size() > 2 && x[2] != '-')
        output = x.substr(2);
      else if (!x.empty() && x[0] != '-' && isCSource(x))
        sources.push_back(i);
    }
    dependenciesOnly = askedDependencies && !writesDependencies;
  }
  bool links() const { return !compileOnly && !preprocessOnly && !assemblyOnly && !dependenciesOnly; }
  bool recordsBitcode() const {
    return !sources.empty() && !preprocessOnly && !assemblyOnly && !dependenciesOnly && !informational &&
           !configureProbe();
  }
  // Autoconf's tests of the compiler and the C library (every one a `conftest.c`): a
  // configure script runs hundreds, nothing analyses them, and their bitcode compile made
  // coreutils' configure take 1.37x as long. It also failed the probes that test for -O0's
  // predefined macros (`__NO_INLINE__`: "does the compiler respect inline").
  bool configureProbe() const {
    return std::all_of(sources.begin(), sources.end(),
                       [&](size_t s) { return fs::path(args[s]).filename() == "conftest.c"; });
  }
};

// Where a startup object or libgcc is on this machine: gcc's own directory, which one question
// to gcc names (where libgcc.a is), asked once per link.
std::string gccFile(const std::string &name) {
  static const fs::path dir = [] {
    ProcessResult r = runProcess({"gcc", "-print-libgcc-file-name"});
    std::string path = r.output.substr(0, r.output.find('\n'));
    return r.succeeded() && !path.empty() ? fs::path(path).parent_path() : fs::path();
  }();
  std::error_code ec;
  return !dir.empty() && fs::exists(dir / name, ec) ? (dir / name).string() : name;
}

std::vector<std::string> compileFlags() { return {kClang, "-nostdlibinc", "-isystem", kMuslInclude}; }

// The native link against musl, statically (a shared object against musl's libc.so).
std::vector<std::string> linkCommand(const std::vector<std::string> &args, bool shared) {
  const std::string lib = kMuslLib;
  std::vector<std::string> cmd = {kClang, "-nostdlib"};
  if (shared)
    cmd.insert(cmd.end(), {lib + "/crti.o", gccFile("crtbeginS.o")});
  else
    cmd.insert(cmd.end(), {"-static", lib + "/crt1.o", lib + "/crti.o", gccFile("crtbeginT.o")});
  cmd.insert(cmd.end(), args.begin(), args.end());
  // After the project's own -L directories (searched first, in order), before the host's.
  cmd.push_back("-L" + lib);
#ifdef CAIRN_NATIVE_KLEE_LIB_PATH
  cmd.push_back(CAIRN_NATIVE_KLEE_LIB_PATH); // klee_make_symbolic & co., for drivers
#endif
  cmd.insert(cmd.end(), {"-lc", gccFile("libgcc.a"), gccFile("libgcc_eh.a"), "-lc",
                         gccFile(shared ? "crtendS.o" : "crtend.o"), lib + "/crtn.o"});
  return cmd;
}

// Runs a tool with this process's standard streams (configure reads `cc -E`'s output, and
// feeds it sources on stdin); its exit status, as a shell reports it.
int run(const std::vector<std::string> &cmd) {
  std::vector<char *> argv;
  std::vector<std::string> copy = cmd;
  for (std::string &s : copy)
    argv.push_back(s.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0)
    return 127;
  if (pid == 0) {
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "cairn cc: cannot run %s\n", argv[0]);
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The flags of a compile of one source out of `inv`: no output, inputs or link-only flags;
// `forBitcode` also drops what the bitcode compile sets itself (optimisation, debug
// information) and the native build's dependency files.
std::vector<std::string> compileOptions(const Invocation &inv, size_t source, bool forBitcode) {
  std::vector<std::string> out;
  for (size_t i = 0; i < inv.args.size(); ++i) {
    const std::string &x = inv.args[i];
    if (i == source)
      continue;
    const bool dependencyValue = x == "-MF" || x == "-MT" || x == "-MQ" || x == "-MJ";
    if (x == "-o" || x == "-l" || x == "-L" || x == "-Xlinker" || x == "-T" || x == "-u" || x == "-z" ||
        x == "-e" || x == "-rpath" || (forBitcode && dependencyValue)) {
      ++i;
      continue;
    }
    if (takesValue(x)) {
      out.push_back(x);
      if (i + 1 < inv.args.size())
        out.push_back(inv.args[++i]);
      continue;
    }
    bool dropped = x == "-c" || x.rfind("-o", 0) == 0 || x.rfind("-Wl,", 0) == 0 || x.rfind("-l", 0) == 0 ||
                   x.rfind("-L", 0) == 0 || x == "-static" || x == "-shared" || x == "-pie" ||
                   x == "-no-pie" || x == "-s" || (!x.empty() && x[0] != '-');
    if (forBitcode)
      dropped = dropped || x == "-MD" || x == "-MMD" || x == "-MP" || x == "-M" || x == "-MM" ||
                x.rfind("-O", 0) == 0 || x.rfind("-g", 0) == 0;
    if (!dropped)
      out.push_back(x);
  }
  return out;
}

// The same compile, to bitcode the engine runs well: unoptimised (the engine's own -O0 flags),
// with debug information, without the native build's dependency files and output.
int compileBitcode(const Invocation &inv, size_t source, const std::string &out) {
  std::vector<std::string> cmd = compileFlags(), options = compileOptions(inv, source, true);
  cmd.insert(cmd.end(), options.begin(), options.end());
  cmd.insert(cmd.end(), {"-c", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone", "-g",
                         "-Wno-unused-command-line-argument", inv.args[source], "-o", out});
  return run(cmd);
}

// Names `bitcode` in the object's section (llvm-objcopy).
int recordIn(const std::string &object, const std::vector<std::string> &bitcode,
             const char *section = engine::kBitcodeSection) {
  std::string list = object + ".cairn-bitcode-list";
  {
    std::ofstream out(list);
    for (const std::string &b : bitcode)
      out << fs::absolute(b).string() << "\n";
  }
  int rc = run({kObjcopy, "--add-section", std::string(section) + "=" + list, "--set-section-flags",
                std::string(section) + "=readonly", object});
  std::error_code ec;
  fs::remove(list, ec);
  return rc;
}

// Where a source's bitcode goes: hidden beside its object.
std::string bitcodeBeside(const std::string &object) {
  fs::path p(object);
  return (p.parent_path() / ("." + p.filename().string() + ".bc")).string();
}

// The static archives a link names (`lib.a`, or `-lNAME` found as libNAME.a in its -L
// directories), and the bitcode their members record.
std::vector<std::string> archiveBitcode(const std::vector<std::string> &args) {
  std::vector<std::string> dirs, archives, bitcode;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-L" && i + 1 < args.size())
      dirs.push_back(args[++i]);
    else if (a.rfind("-L", 0) == 0 && a.size() > 2)
      dirs.push_back(a.substr(2));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i], name;
    if (takesValue(a) && a != "-l") {
      ++i;
      continue;
    }
    if (a == "-l" && i + 1 < args.size())
      name = args[++i];
    else if (a.rfind("-l", 0) == 0 && a.size() > 2)
      name = a.substr(2);
    std::error_code ec;
    if (!name.empty()) {
      for (const std::string &d : dirs)
        if (fs::is_regular_file(fs::path(d) / ("lib" + name + ".a"), ec)) {
          archives.push_back((fs::path(d) / ("lib" + name + ".a")).string());
          break;
        }
    } else if (fs::path(a).extension() == ".a" && fs::is_regular_file(a, ec)) {
      archives.push_back(a);
    }
  }
  for (const std::string &archive : archives)
    for (std::string &b : engine::recordedBitcodeFiles(archive))
      bitcode.push_back(std::move(b));
  return bitcode;
}

// After a link: the output records its archives' bitcode too.
int recordArchives(const std::vector<std::string> &linkArgs, const std::string &output) {
  std::vector<std::string> bitcode = archiveBitcode(linkArgs);
  return bitcode.empty() ? 0 : recordIn(output, bitcode, engine::kArchiveBitcodeSection);
}

std::string objectOf(const Invocation &inv, size_t source) {
  if (!inv.output.empty() && inv.sources.size() == 1)
    return inv.output;
  return fs::path(inv.args[source]).filename().replace_extension(".o").string();
}

} // namespace

int ccCommand(const std::vector<std::string> &args) {
  if (args.empty())
    throw UsageError("cairn cc takes clang's arguments");
  Invocation inv(args);
  if (!inv.recordsBitcode()) {
    if (!inv.links() || inv.informational) {
      std::vector<std::string> cmd = compileFlags();
      cmd.insert(cmd.end(), args.begin(), args.end());
      return run(cmd);
    }
    int rc = run(linkCommand(args, inv.shared));
    return rc ? rc : recordArchives(args, inv.output.empty() ? "a.out" : inv.output);
  }
  if (inv.compileOnly) {
    std::vector<std::string> cmd = compileFlags();
    cmd.insert(cmd.end(), args.begin(), args.end());
    if (int rc = run(cmd))
      return rc;
    for (size_t s : inv.sources) {
      std::string object = objectOf(inv, s), bitcode = bitcodeBeside(object);
      if (int rc = compileBitcode(inv, s, bitcode))
        return rc;
      if (int rc = recordIn(object, {bitcode}))
        return rc;
    }
    return 0;
  }
  // Compiled and linked at once: each source to an object of its own first (bitcode recorded
  // in it), then the link of those objects instead of the sources.
  const std::string out = inv.output.empty() ? "a.out" : inv.output;
  std::vector<std::string> linkArgs = args, objects;
  for (size_t s : inv.sources) {
    fs::path src(args[s]);
    std::string object = (fs::path(out).parent_path() / ("." + fs::path(out).filename().string() + "." +
                                                           src.stem().string() + ".o")).string();
    std::vector<std::string> cmd = compileFlags(), options = compileOptions(inv, s, false);
    cmd.insert(cmd.end(), options.begin(), options.end());
    cmd.insert(cmd.end(), {"-c", args[s], "-o", object});
    int rc = run(cmd);
    if (!rc)
      rc = compileBitcode(inv, s, bitcodeBeside(object));
    if (!rc)
      rc = recordIn(object, {bitcodeBeside(object)});
    if (rc)
      return rc;
    linkArgs[s] = object;
    objects.push_back(object);
  }
  int rc = run(linkCommand(linkArgs, inv.shared));
  if (!rc)
    rc = recordArchives(linkArgs, out);
  std::error_code ec;
  for (const std::string &o : objects)
    fs::remove(o, ec);
  return rc;
}

int extractCommand(const std::vector<std::string> &args) {
  std::string input, output;
  Arguments parsed = parseArguments(args, {{"-o", [&](const std::string &v) { output = v; }},
                                           {"--output", [&](const std::string &v) { output = v; }}},
                                    {});
  if (parsed.positional.size() != 1)
    throw UsageError("cairn extract takes one program built with cairn cc");
  input = parsed.positional[0];
  if (output.empty())
    output = fs::path(input).filename().string() + ".bc";
  if (!engine::isNativeBinary(input))
    throw UsageError(input + " is not a native program (an ELF file or an archive)");
  std::ofstream out(output, std::ios::binary);
  out << engine::recordedProgramBitcode(input);
  if (!out.flush())
    throw std::runtime_error("cannot write " + output);
  std::printf("%s: %zu bitcode files linked into %s\n", input.c_str(), engine::recordedBitcodeFiles(input).size(),
              output.c_str());
  return 0;
}

} // namespace cairn::client
