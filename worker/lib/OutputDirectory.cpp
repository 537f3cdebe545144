#include "cairn/engine/OutputDirectory.h"

#include "cairn/ktest/KTest.h"
#include "reports/JsonText.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace cairn::engine {

OutputDirectory::OutputDirectory(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (fs::exists(path_, ec) && !fs::is_empty(path_, ec))
    throw std::runtime_error("output directory " + path_ + " already exists and is not empty");
  fs::create_directories(path_, ec);
  if (ec)
    throw std::runtime_error("cannot create output directory " + path_ + ": " + ec.message());
  dir_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_ < 0)
    throw std::runtime_error("cannot open output directory " + path_ + ": " + std::strerror(errno));
}

OutputDirectory::~OutputDirectory() {
  if (dir_ >= 0)
    ::close(dir_);
}

// Straight system calls: a run writes a file per path, tens of thousands of them, and a stream's
// buffer and locale work cost as much as the file itself.
void OutputDirectory::write(const std::string &name, const std::string &text) {
  int fd = ::openat(dir_, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool ok = fd >= 0;
  for (size_t done = 0; ok && done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    ok = n > 0;
    done += ok ? size_t(n) : 0;
  }
  if (fd >= 0 && ::close(fd) != 0)
    ok = false;
  if (!ok)
    throw std::runtime_error("cannot write " + (fs::path(path_) / name).string());
}

std::string OutputDirectory::nextFreeName(const std::string &programPath) {
  fs::path dir = fs::absolute(programPath).parent_path();
  for (unsigned n = 0;; ++n) {
    fs::path candidate = dir / ("cairn-out-" + std::to_string(n));
    if (!fs::exists(candidate))
      return candidate.string();
  }
}

void OutputDirectory::keepMappedFiles(const std::vector<MappedFile> &files) {
  if (files.empty())
    return;
  fs::create_directories(fs::path(path_) / kMappedFilesDirectory);
  for (const MappedFile &f : files)
    write(std::string(kMappedFilesDirectory) + "/" + f.name, f.bytes);
}

void OutputDirectory::onTest(const TestCase &test) {
  char name[32];
  std::snprintf(name, sizeof name, "test%06llu", (unsigned long long)++tests_);
  KTest k;
  k.args = argv_;
  for (const auto &[objName, bytes] : test.objects)
    k.objects.push_back({objName, bytes});
  // Written in place rather than through a temporary file: the directory is ours alone, and
  // a run writes thousands of tests (a rename each doubles the file system's work).
  write(std::string(name) + ".ktest", serializeKTest(k));
  if (test.error) {
    const ErrorReport &e = *test.error;
    std::string text = "Error: " + e.message + "\nFile: " + e.file + "\nLine: " +
                       std::to_string(e.line) + "\nType: " + e.type + "\nKind: " + e.kind +
                       "\nStack:\n";
    for (size_t i = 0; i < e.stack.size(); ++i)
      text += "\t#" + std::to_string(i) + " " + e.stack[i] + "\n";
    write(std::string(name) + "." + e.type + ".err", text);
    errors_.emplace_back(e, std::string(name) + ".ktest");
  }
  if (test.partial)
    write(std::string(name) + ".early", test.endReason + "\n");
  // Under the full libc, what the path wrote and how it exited, for the replay to compare.
  if (test.recordsOutput) {
    if (!test.output.empty())
      write(std::string(name) + ".stdout", test.output);
    if (!test.errorOutput.empty())
      write(std::string(name) + ".stderr", test.errorOutput);
    if (test.exitStatus)
      write(std::string(name) + ".exit", std::to_string(*test.exitStatus & 0xff) + "\n");
  }
}

namespace {

// {"name": value, ...} of unsigned counters.
std::string counterObject(std::initializer_list<std::pair<const char *, uint64_t>> counters) {
  std::string j = "{";
  for (const auto &[name, value] : counters)
    j += (j.size() > 1 ? ", \"" : "\"") + std::string(name) + "\": " + std::to_string(value);
  return j + "}";
}

} // namespace

std::string summaryJson(const RunStatistics &s,
                        const std::vector<std::pair<ErrorReport, std::string>> &errors) {
  char num[64];
  auto f = [&](double x) {
    std::snprintf(num, sizeof num, "%.3f", x);
    return std::string(num);
  };
  std::string j = "{";
  j += "\"paths_completed\": " + std::to_string(s.pathsCompleted);
  j += ", \"paths_partial\": " + std::to_string(s.pathsPartial);
  j += ", \"tests\": " + std::to_string(s.tests);
  j += ", \"instructions\": " + std::to_string(s.instructions);
  j += ", \"forks\": " + std::to_string(s.forks);
  j += ", \"states_merged\": " + std::to_string(s.merging.statesMerged);
  j += ", \"queries\": " + std::to_string(s.queries);
  j += ", \"solver_queries\": " + std::to_string(s.solverQueries);
  j += ", \"solver_time_s\": " + f(s.solverSeconds);
  j += ", \"wall_time_s\": " + f(s.wallSeconds);
  j += ", \"coverage\": {\"lines_covered\": " + std::to_string(s.linesCovered) +
       ", \"lines_total\": " + std::to_string(s.linesTotal) + ", \"files\": [";
  for (size_t i = 0; i < s.files.size(); ++i)
    j += (i ? ", " : "") + std::string("{\"file\": ") + jsonString(s.files[i].file) +
         ", \"lines_covered\": " + std::to_string(s.files[i].covered) +
         ", \"lines_total\": " + std::to_string(s.files[i].total) + "}";
  j += "]}";
  const MemoryModelStats &m = s.memory;
  j += ", \"memory\": " + counterObject({{"resolution_forks", m.resolutionForks},
                                         {"resolution_queries", m.resolutionQueries},
                                         {"context_hits", m.contextHits},
                                         {"context_fallbacks", m.contextFallbacks},
                                         {"segments", m.segments},
                                         {"segments_reused", m.segmentsReused},
                                         {"segment_objects", m.segmentObjects},
                                         {"max_segment_size", m.maxSegmentSize},
                                         {"splits", m.splits},
                                         {"chunks", m.chunks},
                                         {"max_split_size", m.maxSplitSize},
                                         {"symbolic_accesses", m.symbolicAccesses},
                                         {"symbolic_access_bytes", m.symbolicAccessBytes},
                                         {"max_symbolic_access_bytes", m.maxSymbolicAccessBytes}});
  const MergeStats &g = s.merging;
  j += ", \"merging\": " + counterObject({{"contexts", g.contexts},
                                          {"merges", g.merges},
                                          {"states_merged", g.statesMerged},
                                          {"refused", g.refused},
                                          {"early_terminated", g.earlyTerminated},
                                          {"constraint_nodes", g.constraintNodes},
                                          {"value_nodes", g.valueNodes},
                                          {"size_forks", g.sizeForks},
                                          {"symbolic_size_objects", g.symbolicSizeObjects},
                                          {"multiplicity", g.multiplicity},
                                          {"fast_forwarded", g.fastForwarded},
                                          {"fast_forwarded_merged", g.fastForwardedMerged},
                                          {"stops", g.stops},
                                          {"exit_holds", g.exitHolds},
                                          {"patterns", g.patterns},
                                          {"quantified_merges", g.quantifiedMerges},
                                          {"quantified_fallbacks", g.quantifiedFallbacks},
                                          {"incremental_merges", g.incrementalMerges},
                                          {"snapshot_merges", g.snapshotMerges},
                                          {"states_discarded", g.statesDiscarded},
                                          {"merges_validated", g.mergesValidated},
                                          {"merge_mismatches", g.mismatches},
                                          {"qce_functions", g.qceFunctions}});
  j.insert(j.size() - 1, ", \"qce_time_s\": " + f(g.qceSeconds));
  j += ", \"floats\": " + counterObject({{"library_calls", s.floats.libraryCalls},
                                         {"concretised_calls", s.floats.concretisedCalls}});
  const MemoryLimitStats &l = s.memoryLimit;
  j += ", \"memory_limit\": " + counterObject({{"limit_mb", l.limitMB},
                                               {"ceiling_mb", l.ceilingMB},
                                               {"states_ended", l.statesEnded},
                                               {"runs_stopped", l.runsStopped}});
  // Under the symbolic-size model: the sizes not explored (above each allocation's capacity),
  // and the partial paths that bound ended.
  if (const std::optional<SizeBoundStats> &b = s.sizeBound)
    j += ", \"size_bound\": " + counterObject({{"capacity", b->capacity},
                                               {"max_capacity", b->maxCapacity},
                                               {"paths_cut", b->pathsCut}});
  // With --transform-branches: what the pass did, and the errors of extra instructions dropped.
  if (const std::optional<BranchTransformStats> &t = s.transform) {
    j += ", \"transform\": " + counterObject({{"branches_melded", t->branchesMelded},
                                              {"one_sided", t->oneSided},
                                              {"selects_added", t->selectsAdded},
                                              {"extra_instructions", t->extraInstructions},
                                              {"skipped_symbolic_index", t->skippedSymbolicAddress},
                                              {"skipped_excluded", t->skippedExcluded},
                                              {"skipped_stored_pointer", t->skippedStoredPointer},
                                              {"functions", t->functionsTransformed},
                                              {"spurious_errors_filtered", t->spuriousErrorsFiltered}});
    j.pop_back(); // the object goes on
    j += ", \"pass_time_s\": " + f(t->seconds) + ", \"spurious_locations\": [";
    for (size_t i = 0; i < t->spuriousLocations.size(); ++i)
      j += (i ? ", " : "") + jsonString(t->spuriousLocations[i]);
    j += "]}";
  }
  // Per solver layer: what reached it, what it answered itself, and its own counters.
  j += ", \"solver\": {\"layers\": [";
  for (size_t i = 0; i < s.solverLayers.size(); ++i) {
    const SolverLayerStats &l = s.solverLayers[i];
    j += (i ? ", " : "") + std::string("{\"layer\": ") + jsonString(l.layer) +
         ", \"queries\": " + std::to_string(l.queries) + ", \"answered\": " + std::to_string(l.answered) +
         ", \"unknown\": " + std::to_string(l.unknown) + ", \"time_s\": " + f(l.seconds);
    for (const auto &[name, value] : l.counters)
      j += ", " + jsonString(name) + ": " + std::to_string(value);
    j += "}";
  }
  j += "]}";
  j += ", \"errors\": [";
  for (size_t i = 0; i < errors.size(); ++i) {
    const auto &[e, test] = errors[i];
    j += (i ? ", " : "") + std::string("{\"type\": ") + jsonString(e.type) +
         ", \"kind\": " + jsonString(e.kind) + ", \"file\": " + jsonString(e.file) +
         ", \"line\": " + std::to_string(e.line) + ", \"message\": " + jsonString(e.message) +
         ", \"test\": " + jsonString(test) + "}";
  }
  return j + "]}";
}

std::string OutputDirectory::writeSummary(const RunStatistics &stats) {
  std::string json = summaryJson(stats, errors_);
  write("summary.json", json + "\n");
  return json;
}

} // namespace cairn::engine
