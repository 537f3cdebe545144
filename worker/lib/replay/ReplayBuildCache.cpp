// A cache entry is a directory named by the build's key, holding the binary and a manifest
// (`build`: the binary's name, then the externals the build stubbed), written before the
// directory gets its name: a directory under a key is complete. A build is made in a directory of
// its own and renamed to its key; when two replays build the same program at once, the second
// rename fails and that replay takes the first one's entry.
#include "replay/ReplayBuildCache.h"

#include "reports/Sha256.h"

#include "cairn/support/Subprocess.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace cairn::engine {

namespace {

// Least recently used entries past this many go when a new one is added (a replay binary with
// AddressSanitizer is 1-3 MB).
constexpr size_t kMaxEntries = 1024;
// A build directory left this long by a replay that died is removed.
constexpr auto kAbandonedBuild = std::chrono::hours(1);
constexpr const char *kManifest = "build";
constexpr const char *kBuildingPrefix = ".building-";

std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// What identifies the build: everything buildReplayBinary's output depends on. Empty when the
// program cannot be read or preprocessed (the build then reports why, uncached).
std::string buildKey(const std::string &program, const ReplayOptions &o) {
  const std::string include = replayIncludeOf(o), library = replayLibraryOf(o);
  std::optional<std::string> libraryBytes = readFile(library);
  if (!libraryBytes)
    return {};
  std::string source;
  if (isBitcodeInput(program)) {
    std::optional<std::string> bytes = readFile(program);
    if (!bytes)
      return {};
    source = std::move(*bytes);
  } else {
    std::vector<std::string> cpp = {o.clang, "-E", "-w"};
    if (!include.empty())
      cpp.push_back("-I" + include);
    cpp.insert(cpp.end(), o.extraCFlags.begin(), o.extraCFlags.end());
    cpp.push_back(program);
    ProcessOptions how;
    how.separateOutput = true;
    ProcessResult r = runProcess(cpp, {}, 0, how);
    if (!r.succeeded())
      return {};
    source = std::move(r.standardOutput);
  }
  std::ostringstream key;
  key << "cairn-replay-build 1\n"
      << "clang " << o.clang << "\ninclude " << include << "\nentry " << o.entry
      << "\noverflow " << o.checkOverflow << "\novershift " << o.checkOvershift << '\n';
  for (const std::string &flag : o.extraCFlags)
    key << "cflag " << flag.size() << ' ' << flag << '\n';
  // The path as given too: the binary's line table names it, and a stop at a recorded line
  // looks the line up there.
  key << "library " << sha256Hex(*libraryBytes) << "\nprogram " << program << '\n'
      << fs::absolute(program).string() << '\n' << sha256Hex(source) << '\n';
  return sha256Hex(key.str());
}

std::optional<ReplayBuild> readEntry(const fs::path &entry) {
  std::optional<std::string> manifest = readFile((entry / kManifest).string());
  if (!manifest)
    return std::nullopt;
  std::istringstream lines(*manifest);
  std::string binary;
  if (!std::getline(lines, binary) || binary.empty() || !fs::exists(entry / binary))
    return std::nullopt;
  ReplayBuild build;
  build.binary = (entry / binary).string();
  for (std::string name; std::getline(lines, name);)
    if (!name.empty())
      build.externals.push_back(name);
  return build;
}

void writeManifest(const fs::path &dir, const ReplayBuild &build) {
  std::ofstream out(dir / kManifest);
  out << fs::path(build.binary).filename().string() << '\n';
  for (const std::string &name : build.externals)
    out << name << '\n';
  if (!out.flush())
    throw std::runtime_error("cannot write the replay build cache in " + dir.parent_path().string());
}

// Removes the least recently used entries past kMaxEntries, and builds abandoned long ago.
void prune(const fs::path &cacheDir) {
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  for (const fs::directory_entry &e : fs::directory_iterator(cacheDir, ec)) {
    const std::string name = e.path().filename().string();
    const fs::file_time_type used = fs::last_write_time(e.path(), ec);
    if (ec)
      continue;
    if (name.rfind(kBuildingPrefix, 0) == 0) {
      if (now - used > kAbandonedBuild)
        fs::remove_all(e.path(), ec);
    } else if (e.is_directory(ec)) {
      entries.emplace_back(used, e.path());
    }
  }
  if (entries.size() <= kMaxEntries)
    return;
  std::sort(entries.begin(), entries.end());
  for (size_t i = 0; i < entries.size() - kMaxEntries; ++i)
    fs::remove_all(entries[i].second, ec);
}

} // namespace

ReplayBuild cachedReplayBuild(const std::string &program, const ReplayOptions &o,
                              const std::string &cacheDir, const std::string &scratchDir) {
  std::error_code ec;
  fs::create_directories(cacheDir, ec);
  if (!fs::is_directory(cacheDir))
    throw std::runtime_error("cannot make the replay build cache directory " + cacheDir);
  const std::string key = buildKey(program, o);
  if (key.empty()) // the build will say what is wrong
    return buildReplayBinary(program, o, scratchDir);
  const fs::path entry = fs::path(cacheDir) / key;
  if (std::optional<ReplayBuild> kept = readEntry(entry)) {
    fs::last_write_time(entry, fs::file_time_type::clock::now(), ec); // recently used
    return *kept;
  }
  static std::atomic<unsigned> counter{0};
  const fs::path building =
      fs::path(cacheDir) / (kBuildingPrefix + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(building, ec);
  fs::create_directories(building);
  try {
    writeManifest(building, buildReplayBinary(program, o, building.string()));
  } catch (...) {
    fs::remove_all(building, ec);
    throw;
  }
  fs::rename(building, entry, ec);
  if (ec) // another replay kept the same build first
    fs::remove_all(building, ec);
  std::optional<ReplayBuild> kept = readEntry(entry);
  if (!kept)
    throw std::runtime_error("the replay build cache " + cacheDir + " lost the build just put in it");
  prune(cacheDir);
  return *kept;
}

} // namespace cairn::engine
