#include "cairn/engine/EngineFlags.h"

#include <algorithm>
#include <functional>
#include <map>

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

const std::map<std::string, SwitchHandler, std::less<>> &switches() {
  static const std::map<std::string, SwitchHandler, std::less<>> table = {
      {"--isolate-solver", [](ExecutorOptions &o) { o.solver.isolateCore = true; }},
      {"--relocate-stack", [](ExecutorOptions &o) { o.memory.relocateStack = true; }},
      {"--merge-objects", [](ExecutorOptions &o) { o.memory.mergeObjects = true; }},
      {"--no-segment-reuse", [](ExecutorOptions &o) { o.memory.reuseSegments = false; }},
      {"--split-objects", [](ExecutorOptions &o) { o.memory.splitObjects = true; }},
      {"--merge-loops-with-calls", [](ExecutorOptions &o) { o.merging.loopsWithCalls = true; }},
      {"--check-overflow", [](ExecutorOptions &o) { o.checkOverflow = true; }},
      {"--check-overshift", [](ExecutorOptions &o) { o.checkOvershift = true; }},
      {"--check-leaks", [](ExecutorOptions &o) { o.checkLeaks = true; }},
      {"--check-memcleanup", [](ExecutorOptions &o) { o.checkMemcleanup = true; }},
      {"--only-new-coverage-tests", [](ExecutorOptions &o) { o.onlyNewCoverageTests = true; }},
      {"--no-independence", [](ExecutorOptions &o) { o.solver.independence = false; }},
      {"--no-query-cache", [](ExecutorOptions &o) { o.solver.queryCache = false; }},
      {"--no-cex-cache", [](ExecutorOptions &o) { o.solver.cexCache = false; }},
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
      {"--solver-pool", [](ExecutorOptions &o, const std::string &v) -> std::string {
         return parsePoolEndpoints(v, o.solver.poolEndpoints)
                    ? ""
                    : "--solver-pool needs HOST:PORT[,HOST:PORT...], got '" + v + "'";
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
      {"--split-threshold", [](ExecutorOptions &o, const std::string &v) {
         return count("--split-threshold", v, [&](uint64_t n) { o.memory.splitThreshold = n; });
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
  if ((given_.count("--size-mode") || given_.count("--capacity")) && !options_.sizeModel.symbolic())
    return "--size-mode and --capacity need --size-model symbolic";
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
