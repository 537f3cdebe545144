#include "cairn/engine/EngineFlags.h"

#include "cairn/support/TokenFile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <functional>
#include <map>
#include <sstream>

namespace cairn::engine {

namespace {

using SwitchHandler = std::function<void(ExecutorOptions &)>;
using ValueHandler = std::function<std::string(ExecutorOptions &, const std::string &)>;

// A count or a number of seconds stored through `set`, or the parse error.
std::string count(const std::string &flag, const std::string &value, const std::function<void(uint64_t)> &set) {
  std::string error;
  if (std::optional<uint64_t> n = parseCountFlag(flag, value, error))
    set(*n);
  return error;
}

std::string seconds(const std::string &flag, const std::string &value, const std::function<void(double)> &set) {
  std::string error;
  if (std::optional<double> s = parseSecondsFlag(flag, value, error))
    set(*s);
  return error;
}

// A real number in [low, high], stored through `set`, or the parse error (`range` says the
// bounds in words).
std::string real(const std::string &flag, const std::string &value, double low, double high, const char *range,
                 const std::function<void(double)> &set) {
  try {
    size_t used = 0;
    double d = std::stod(value, &used);
    if (used == value.size() && d >= low && d <= high) {
      set(d);
      return "";
    }
  } catch (...) {
  }
  return flag + " needs a number " + range + ", got '" + value + "'";
}

// `want` whole numbers separated by spaces or commas ("0 2 4", "0,2,4"), each below 2^20: an
// input that large would swamp any solver.
std::string numbers(const std::string &flag, const std::string &value, size_t want, std::vector<uint32_t> &out) {
  std::string text = value;
  std::replace(text.begin(), text.end(), ',', ' ');
  std::istringstream in(text);
  std::string word, error;
  while (in >> word) {
    std::optional<uint64_t> n = parseCountFlag(flag, word, error);
    if (!n)
      return error;
    if (*n >= (1u << 20))
      return flag + ": " + word + " is too large";
    out.push_back(uint32_t(*n));
  }
  if (out.size() != want)
    return flag + " needs " + std::to_string(want) + (want == 1 ? " number" : " numbers") + ", got '" + value + "'";
  return "";
}

// --sym-arg LEN (one argument) or --sym-args MIN MAX LEN (between MIN and MAX of them).
std::string symbolicArguments(const std::string &flag, const std::string &value, size_t want, EnvironmentOptions &env) {
  std::vector<uint32_t> n;
  if (std::string error = numbers(flag, value, want, n); !error.empty())
    return error;
  SymbolicArguments args;
  if (want == 1) {
    args.length = n[0];
  } else {
    args = {n[0], n[1], n[2], true};
    if (args.min > args.max)
      return flag + ": MIN " + std::to_string(args.min) + " is above MAX " + std::to_string(args.max);
  }
  if (env.arguments.size() >= kMaxSymbolicArgumentGroups)
    return "at most " + std::to_string(kMaxSymbolicArgumentGroups) + " --sym-arg and --sym-args options";
  uint32_t total = args.max;
  for (const SymbolicArguments &a : env.arguments)
    total += a.max;
  if (total > 1000)
    return flag + ": more than 1000 symbolic arguments";
  env.arguments.push_back(args);
  return "";
}

// What is wrong with mapping one more file as `name`: not a name of the working directory,
// mapped already, or one too many.
std::string mappedNameProblem(const std::string &name, const EnvironmentOptions &env) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == ".." || name.size() > 63)
    return "--file: NAME '" + name + "' must be a file name of the working directory (no '/', at most 63 characters)";
  for (const MappedFile &other : env.files)
    if (other.name == name)
      return "--file: '" + name + "' is mapped twice";
  if (env.files.size() >= kMaxMappedFiles)
    return "--file: at most " + std::to_string(kMaxMappedFiles) + " files";
  return "";
}

// --file NAME=PATH: the host file PATH, read now, as the read-only file NAME of the model's
// working directory.
std::string mappedFile(const std::string &value, EnvironmentOptions &env) {
  const size_t eq = value.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
    return "--file needs NAME=PATH, got '" + value + "'";
  MappedFile f{value.substr(0, eq), value.substr(eq + 1), {}};
  if (std::string problem = mappedNameProblem(f.name, env); !problem.empty())
    return problem; // before the file is read
  std::ifstream in(f.hostPath, std::ios::binary);
  std::error_code ec;
  if (!in || std::filesystem::is_directory(f.hostPath, ec))
    return "--file: cannot read '" + f.hostPath + "'";
  f.bytes.assign(std::istreambuf_iterator<char>(in), {});
  if (in.bad())
    return "--file: cannot read '" + f.hostPath + "'";
  return addMappedFile(std::move(f), env);
}

} // namespace

std::string addMappedFile(MappedFile f, EnvironmentOptions &env) {
  if (std::string problem = mappedNameProblem(f.name, env); !problem.empty())
    return problem;
  if (f.bytes.size() > kMaxMappedFileBytes)
    return "--file: '" + (f.hostPath.empty() ? f.name : f.hostPath) + "' is larger than " +
           std::to_string(kMaxMappedFileBytes >> 20) + " MiB";
  env.files.push_back(std::move(f));
  return "";
}

namespace {

const std::map<std::string, SwitchHandler, std::less<>> &switches() {
  static const std::map<std::string, SwitchHandler, std::less<>> table = {
      {"--isolate-solver", [](ExecutorOptions &o) { o.solver.isolateCore = true; }},
      {"--relocate-stack", [](ExecutorOptions &o) { o.memory.relocateStack = true; }},
      {"--merge-objects", [](ExecutorOptions &o) { o.memory.mergeObjects = true; }},
      {"--no-segment-reuse", [](ExecutorOptions &o) { o.memory.reuseSegments = false; }},
      {"--split-objects", [](ExecutorOptions &o) { o.memory.splitObjects = true; }},
      {"--merge-loops-with-calls", [](ExecutorOptions &o) { o.merging.loopsWithCalls = true; }},
      {"--incremental-merging", [](ExecutorOptions &o) { o.merging.incremental = true; }},
      {"--dsm-hold-exits", [](ExecutorOptions &o) { o.merging.holdLoopExits = true; }},
      {"--validate-merges", [](ExecutorOptions &o) {
         o.merging.validate = true;
         o.solver.validateQuantified = true;
       }},
      {"--check-overflow", [](ExecutorOptions &o) { o.checkOverflow = true; }},
      {"--check-overshift", [](ExecutorOptions &o) { o.checkOvershift = true; }},
      {"--check-leaks", [](ExecutorOptions &o) { o.checkLeaks = true; }},
      {"--check-memcleanup", [](ExecutorOptions &o) { o.checkMemcleanup = true; }},
      {"--only-new-coverage-tests", [](ExecutorOptions &o) { o.onlyNewCoverageTests = true; }},
      {"--all-tests", [](ExecutorOptions &o) { o.onlyNewCoverageTests = false; }},
      {"--no-native-strings", [](ExecutorOptions &o) { o.nativeStringFunctions = false; }},
      {"--transform-in-loops-only", [](ExecutorOptions &o) { o.transform.loopsOnly = true; }},
      {"--transform-stored-pointers", [](ExecutorOptions &o) { o.transform.meldStoredPointers = true; }},
      {"--qce-cold-addresses", [](ExecutorOptions &o) { o.merging.qceAddressesHot = false; }},
      {"--qce-cold-floats", [](ExecutorOptions &o) { o.merging.qceFloatsHot = false; }},
      {"--no-independence", [](ExecutorOptions &o) { o.solver.independence = false; }},
      {"--no-query-cache", [](ExecutorOptions &o) { o.solver.queryCache = false; }},
      {"--no-cex-cache", [](ExecutorOptions &o) { o.solver.cexCache = false; }},
      {"--no-byte-domain", [](ExecutorOptions &o) { o.solver.byteDomain = false; }},
      {"--no-disjunct-split", [](ExecutorOptions &o) { o.solver.disjunctSplit = false; }},
      {"--array-precheck", [](ExecutorOptions &o) { o.solver.arrays.precheck = true; }},
      {"--address-aware-cache", [](ExecutorOptions &o) { o.solver.addressCache = true; }},
      {"--validate-address-cache", [](ExecutorOptions &o) { o.solver.addressCacheOptions.validate = true; }},
      {"--no-address-cache-models", [](ExecutorOptions &o) { o.solver.addressCacheOptions.reuseModels = false; }},
  };
  return table;
}

const std::map<std::string, ValueHandler, std::less<>> &valued() {
  static const std::map<std::string, ValueHandler, std::less<>> table = {
      {"--search", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseSearchStrategy(v, o.search) ? "" : "unknown search strategy '" + v + "'";
       }},
      {"--solver", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseCoreSolverKind(v, o.solver.core) ? "" : "unknown solver '" + v + "' (z3, cvc5 or portfolio)";
       }},
      {"--float-solver", [](ExecutorOptions &o, const std::string &v) -> std::string {
         CoreSolverKind kind;
         if (!parseCoreSolverKind(v, kind))
           return "unknown solver '" + v + "' for --float-solver (z3, cvc5 or portfolio)";
         o.solver.floatCore = kind;
         return "";
       }},
      {"--solver-pool", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parsePoolEndpoints(v, o.solver.poolEndpoints)
                    ? ""
                    : "--solver-pool needs HOST:PORT[,HOST:PORT...], got '" + v + "'";
       }},
      {"--solver-pool-token-file", [](ExecutorOptions &o, const std::string &v) -> std::string {
         try {
           o.solver.poolToken = tokenFromFile(v);
           return "";
         } catch (const TokenFileError &e) {
           return std::string("--solver-pool-token-file: ") + e.what();
         }
       }},
      {"--float", [](ExecutorOptions &o, const std::string &v) -> std::string {
         if (v != "symbolic" && v != "concrete")
           return "unknown float mode '" + v + "' (symbolic or concrete)";
         o.symbolicFloats = v == "symbolic";
         return "";
       }},
      {"--array-solver", [](ExecutorOptions &o, const std::string &v) -> std::string {
         if (v != "plain" && v != "typed")
           return "unknown array solver '" + v + "' (plain or typed)";
         o.solver.arrays.typed = v == "typed";
         return "";
       }},
      {"--array-refinement", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseArrayRefinement(v, o.solver.arrays.axiomsBeforeWholeRead)
                    ? ""
                    : "unknown array refinement '" + v + "' (reads or axioms)";
       }},
      {"--array-bounds", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseArrayBounds(v, o.solver.arrays.bounds)
                    ? ""
                    : "unknown array bounds '" + v + "' (propagation, relaxed, integer, glpk or cbc)";
       }},
      {"--max-time", [](ExecutorOptions &o, const std::string &v) {
         return seconds("--max-time", v, [&](double s) { o.maxTimeSeconds = s; });
       }},
      {"--max-instructions", [](ExecutorOptions &o, const std::string &v) {
         return count("--max-instructions", v, [&](uint64_t n) { o.maxInstructions = n; });
       }},
      {"--max-forks", [](ExecutorOptions &o, const std::string &v) {
         return count("--max-forks", v, [&](uint64_t n) { o.maxForks = n; });
       }},
      {"--max-depth", [](ExecutorOptions &o, const std::string &v) {
         return count("--max-depth", v, [&](uint64_t n) { o.maxDepth = uint32_t(n); });
       }},
      {"--max-memory", [](ExecutorOptions &o, const std::string &v) {
         return count("--max-memory", v, [&](uint64_t n) { o.maxMemoryMB = n; });
       }},
      {"--max-stack-frames", [](ExecutorOptions &o, const std::string &v) {
         return count("--max-stack-frames", v, [&](uint64_t n) { o.maxStackFrames = n; });
       }},
      {"--stack-size", [](ExecutorOptions &o, const std::string &v) {
         return count("--stack-size", v, [&](uint64_t n) { o.stackSizeBytes = n; });
       }},
      {"--max-solver-time", [](ExecutorOptions &o, const std::string &v) {
         return seconds("--max-solver-time", v, [&](double s) { o.solver.timeoutSeconds = s; });
       }},
      {"--seed", [](ExecutorOptions &o, const std::string &v) {
         return count("--seed", v, [&](uint64_t n) { o.seed = n; });
       }},
      {"--memory-model", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseMemoryModelKind(v, o.memory.kind) ? ""
                                                        : "unknown memory model '" + v + "' (standard or relocatable)";
       }},
      {"--context-resolve", [](ExecutorOptions &o, const std::string &v) {
         return count("--context-resolve", v, [&](uint64_t n) { o.memory.contextDepth = int(std::min<uint64_t>(n, 64)); });
       }},
      {"--size-model", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseSizeModelKind(v, o.sizeModel.kind) ? ""
                                                         : "unknown size model '" + v + "' (concrete or symbolic)";
       }},
      {"--size-mode", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseSizeMode(v, o.sizeModel.mode)
                    ? ""
                    : "unknown size mode '" + v + "' (eager, lazy, merge or merge-opt)";
       }},
      {"--capacity", [](ExecutorOptions &o, const std::string &v) {
         return count("--capacity", v, [&](uint64_t n) { o.sizeModel.capacity = n; });
       }},
      {"--max-merge-states", [](ExecutorOptions &o, const std::string &v) {
         return count("--max-merge-states", v, [&](uint64_t n) { o.merging.maxStates = n; });
       }},
      {"--merge-encoding", [](ExecutorOptions &o, const std::string &v) -> std::string {
         if (v != "tree" && v != "disjunctive" && v != "quantified")
           return "unknown merge encoding '" + v + "' (tree, disjunctive or quantified)";
         o.merging.treeEncoding = v != "disjunctive";
         o.merging.quantifiedEncoding = v == "quantified";
         return "";
       }},
      {"--merge-strategy", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseMergeStrategy(v, o.merging.strategy) ? ""
                                                          : "unknown merge strategy '" + v + "' (none, ssm or dsm)";
       }},
      {"--qce-alpha", [](ExecutorOptions &o, const std::string &v) {
         return real("--qce-alpha", v, 0, HUGE_VAL, "from 0.0 to any", [&](double x) { o.merging.qceAlpha = x; });
       }},
      {"--qce-beta", [](ExecutorOptions &o, const std::string &v) {
         return real("--qce-beta", v, 0, 1, "from 0.0 to 1.0", [&](double x) { o.merging.qceBeta = x; });
       }},
      {"--qce-zeta", [](ExecutorOptions &o, const std::string &v) {
         return real("--qce-zeta", v, 1, HUGE_VAL, "from 1.0 to any", [&](double x) { o.merging.qceZeta = x; });
       }},
      {"--qce-kappa", [](ExecutorOptions &o, const std::string &v) -> std::string {
         std::string error = count("--qce-kappa", v, [&](uint64_t n) { o.merging.qceKappa = uint32_t(std::min<uint64_t>(n, 1000)); });
         return error.empty() && o.merging.qceKappa == 0 ? "--qce-kappa needs at least 1 iteration" : error;
       }},
      {"--dsm-distance", [](ExecutorOptions &o, const std::string &v) -> std::string {
         std::string error = count("--dsm-distance", v, [&](uint64_t n) { o.merging.dsmDistance = uint32_t(std::min<uint64_t>(n, 1000)); });
         return error.empty() && o.merging.dsmDistance == 0 ? "--dsm-distance needs at least 1 block" : error;
       }},
      {"--split-threshold", [](ExecutorOptions &o, const std::string &v) {
         return count("--split-threshold", v, [&](uint64_t n) { o.memory.splitThreshold = n; });
       }},
      {"--libc", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parseLibcKind(v, o.posix.libc) ? "" : "unknown libc '" + v + "' (full or minimal)";
       }},
      {"--sym-arg", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return symbolicArguments("--sym-arg", v, 1, o.posix);
       }},
      {"--sym-args", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return symbolicArguments("--sym-args", v, 3, o.posix);
       }},
      {"--sym-files", [](ExecutorOptions &o, const std::string &v) -> std::string {
         std::vector<uint32_t> n;
         std::string error = numbers("--sym-files", v, 2, n);
         if (error.empty() && n[0] > 26)
           error = "--sym-files: at most 26 files (A to Z), got " + std::to_string(n[0]);
         if (error.empty()) {
           o.posix.symFiles = n[0];
           o.posix.symFileSize = n[1];
         }
         return error;
       }},
      {"--sym-stdin", [](ExecutorOptions &o, const std::string &v) -> std::string {
         std::vector<uint32_t> n;
         std::string error = numbers("--sym-stdin", v, 1, n);
         if (error.empty()) {
           o.posix.symStdin = true;
           o.posix.symStdinSize = n[0];
         }
         return error;
       }},
      {"--file", [](ExecutorOptions &o, const std::string &v) { return mappedFile(v, o.posix); }},
      {"--transform-branches", [](ExecutorOptions &o, const std::string &v) -> std::string {
         static const std::map<std::string, TransformMode, std::less<>> modes = {
             {"off", TransformMode::Off}, {"symbolic", TransformMode::Symbolic}, {"all", TransformMode::All}};
         auto it = modes.find(v);
         if (it == modes.end())
           return "unknown --transform-branches mode '" + v + "' (off, symbolic or all)";
         o.transform.mode = it->second;
         return "";
       }},
      {"--no-transform", [](ExecutorOptions &o, const std::string &v) -> std::string {
         try {
           std::vector<std::string> lines = readLocationList(v);
           o.transform.excluded.insert(o.transform.excluded.end(), lines.begin(), lines.end());
           return "";
         } catch (const std::exception &e) {
           return std::string("--no-transform: ") + e.what();
         }
       }},
      // One location of such a list: how a job carries it (cairn submit reads the file).
      {"--no-transform-at", [](ExecutorOptions &o, const std::string &v) -> std::string {
         if (!isLocation(v))
           return "--no-transform-at: expected FILE:LINE, found '" + v + "'";
         o.transform.excluded.push_back(v);
         return "";
       }},
      {"--max-fail", [](ExecutorOptions &o, const std::string &v) {
         return count("--max-fail", v, [&](uint64_t n) { o.posix.maxFail = uint32_t(std::min<uint64_t>(n, 1000)); });
       }},
      {"--partition-size", [](ExecutorOptions &o, const std::string &v) -> std::string {
         std::string error = count("--partition-size", v, [&](uint64_t n) { o.memory.partitionSize = n; });
         if (error.empty() && (o.memory.partitionSize == 0 || o.memory.partitionSize % 8))
           error = "--partition-size must be a positive multiple of 8, got '" + v + "'";
         return error;
       }},
  };
  return table;
}

std::string checkAddressCache(const ExecutorOptions &o) {
  if (!o.solver.addressCache) {
    if (o.solver.addressCacheOptions.validate || !o.solver.addressCacheOptions.reuseModels)
      return "--validate-address-cache and --no-address-cache-models need --address-aware-cache";
    return "";
  }
  if (!o.memory.relocatable())
    return "--address-aware-cache needs --memory-model relocatable";
  if (o.memory.mergeObjects || o.memory.splitObjects)
    return "--address-aware-cache does not combine with --merge-objects or --split-objects";
  return "";
}

} // namespace

size_t EngineFlags::valueCount(std::string_view name) {
  if (name == "--sym-args")
    return 3;
  if (name == "--sym-files")
    return 2;
  return 1;
}

EngineFlagKind EngineFlags::kind(std::string_view name) {
  if (switches().count(name))
    return EngineFlagKind::Switch;
  if (valued().count(name))
    return EngineFlagKind::Valued;
  return EngineFlagKind::Unknown;
}

std::vector<std::string> EngineFlags::names(EngineFlagKind kind) {
  std::vector<std::string> out;
  if (kind == EngineFlagKind::Switch)
    for (const auto &[name, handler] : switches())
      out.push_back(name);
  if (kind == EngineFlagKind::Valued)
    for (const auto &[name, handler] : valued())
      out.push_back(name);
  return out;
}

// A real program with symbolic arguments, stdin or files has paths by the hundred thousand,
// most of them covering nothing another did not: a test each is gigabytes no one reads.
void EngineFlags::settleDefaults() {
  if (options_.posix.libc == LibcKind::Full && options_.posix.symbolicInputs() && !given("--all-tests"))
    options_.onlyNewCoverageTests = true;
}

std::string EngineFlags::setSwitch(const std::string &name) {
  auto it = switches().find(name);
  if (it == switches().end())
    return valued().count(name) ? name + " needs a value" : "unknown option '" + name + "'";
  it->second(options_);
  given_.insert(name);
  return "";
}

std::string EngineFlags::setValue(const std::string &name, const std::string &value) {
  auto it = valued().find(name);
  if (it == valued().end())
    return "unknown option '" + name + "=" + value + "'";
  std::string error = it->second(options_, value);
  if (error.empty())
    given_.insert(name);
  return error;
}

std::string EngineFlags::setText(const std::string &text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos)
    return setSwitch(text);
  return setValue(text.substr(0, equals), text.substr(equals + 1));
}

std::string EngineFlags::check() const {
  const MemoryModelOptions &mm = options_.memory;
  if (!mm.relocatable() && (mm.relocateStack || mm.mergeObjects || mm.splitObjects))
    return "--relocate-stack, --merge-objects and --split-objects need --memory-model relocatable";
  if (mm.contextDepth >= 0 && !mm.mergeObjects)
    return "--context-resolve needs --merge-objects";
  const EnvironmentOptions &env = options_.posix;
  if (env.libc != LibcKind::Full && (env.symbolicInputs() || env.maxFail || !env.files.empty()))
    return "--sym-arg, --sym-args, --sym-files, --sym-stdin, --max-fail and --file need --libc full "
           "(the POSIX environment model runs behind the full libc's system calls)";
  if (env.symFiles + env.files.size() > kMaxModelInputFiles)
    return "--sym-files and --file: at most " + std::to_string(kMaxModelInputFiles) + " files in all";
  for (const MappedFile &f : env.files)
    if (f.name.size() == 1 && f.name[0] >= 'A' && uint32_t(f.name[0] - 'A') < env.symFiles)
      return "--file: '" + f.name + "' is one of the symbolic files of --sym-files";
  if (given_.count("--all-tests") && given_.count("--only-new-coverage-tests"))
    return "--all-tests and --only-new-coverage-tests contradict each other";
  if ((given_.count("--size-mode") || given_.count("--capacity")) && !options_.sizeModel.symbolic())
    return "--size-mode and --capacity need --size-model symbolic";
  const MergeStrategy strategy = options_.merging.strategy;
  if ((given_.count("--qce-alpha") || given_.count("--qce-beta") || given_.count("--qce-kappa") ||
       given_.count("--qce-zeta") || given_.count("--qce-cold-addresses") || given_.count("--qce-cold-floats")) &&
      strategy == MergeStrategy::None)
    return "--qce-alpha, --qce-beta, --qce-kappa, --qce-zeta, --qce-cold-addresses and --qce-cold-floats need "
           "--merge-strategy ssm or dsm";
  if (given_.count("--dsm-distance") && strategy != MergeStrategy::Dynamic)
    return "--dsm-distance needs --merge-strategy dsm";
  if (given_.count("--dsm-hold-exits") && strategy != MergeStrategy::Dynamic)
    return "--dsm-hold-exits needs --merge-strategy dsm";
  if ((given_.count("--transform-in-loops-only") || given_.count("--transform-stored-pointers") ||
       given_.count("--no-transform") || given_.count("--no-transform-at")) &&
      options_.transform.mode == TransformMode::Off)
    return "--transform-in-loops-only, --transform-stored-pointers and --no-transform need --transform-branches "
           "symbolic or all";
  return checkAddressCache(options_);
}

std::optional<uint64_t> parseCountFlag(const std::string &flag, const std::string &value, std::string &error) {
  try {
    size_t used = 0;
    unsigned long long n = std::stoull(value, &used);
    if (used == value.size())
      return n;
  } catch (...) {
  }
  error = flag + " needs a whole number, got '" + value + "'";
  return std::nullopt;
}

std::optional<double> parseSecondsFlag(const std::string &flag, const std::string &value, std::string &error) {
  try {
    size_t used = 0;
    double d = std::stod(value, &used);
    if (used == value.size() && d >= 0)
      return d;
  } catch (...) {
  }
  error = flag + " needs a number of seconds, got '" + value + "'";
  return std::nullopt;
}

} // namespace cairn::engine
