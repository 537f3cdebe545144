#include "JobViews.h"

#include "SourceAttachments.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

namespace cairn::server {

namespace {

std::string shellWord(const std::string &word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string_view("._/-=+,:@%").find(char(c)) != std::string_view::npos;
  });
  if (plain)
    return word;
  std::string quoted = "'";
  for (char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

bool endsWith(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string stem(const std::string &name) {
  const size_t slash = name.rfind('/');
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  return base.substr(0, base.rfind('.'));
}

} // namespace

std::string testName(size_t index) {
  char name[32];
  std::snprintf(name, sizeof name, "test%06zu", index + 1);
  return name;
}

std::string replayProgram(const v1::SubmitJobRequest &request) {
  if (!request.sources().empty())
    return request.sources(0).name();
  if ((endsWith(request.name(), ".c") || endsWith(request.name(), ".i")) &&
      stem(request.name()) == stem(request.file_name()))
    return request.name();
  return request.file_name();
}

KTest ktestOf(const v1::SubmitJobRequest &request, const v1::TestResult &result) {
  KTest k;
  k.args.push_back(request.file_name());
  k.args.insert(k.args.end(), request.program_args().begin(), request.program_args().end());
  for (const v1::TestObject &o : result.objects())
    k.objects.push_back({o.name(), std::vector<uint8_t>(o.bytes().begin(), o.bytes().end())});
  return k;
}

std::string replayCommand(const v1::SubmitJobRequest &request, const std::string &testName) {
  std::vector<std::string> words = {"cairn", "replay"};
  if (!request.entry().empty() && request.entry() != "main") {
    words.push_back("--entry");
    words.push_back(request.entry());
  }
  // The checks replay must make as the run did (the recorded error implies its own; a test of
  // another path under the same job needs them said).
  const v1::RunOptions &o = request.options();
  std::set<std::string> flags(o.extra_flags().begin(), o.extra_flags().end());
  auto check = [&](bool typed, const std::string &flag) {
    if (typed || flags.count(flag) || flags.count(flag + "=true"))
      words.push_back(flag);
  };
  check(o.check_overflow(), "--check-overflow");
  check(o.check_overshift(), "--check-overshift");
  check(o.check_leaks(), "--check-leaks");
  check(o.check_memcleanup(), "--check-memcleanup");
  words.push_back(replayProgram(request));
  words.push_back(testName + ".ktest");
  std::string text;
  for (const std::string &w : words)
    text += (text.empty() ? "" : " ") + shellWord(w);
  return text;
}

std::vector<v1::FileCoverage> fileCoverage(const v1::ProgramLines &lines, const std::set<uint64_t> &covered,
                                           const google::protobuf::RepeatedPtrField<v1::SourceFile> &sources) {
  std::map<uint32_t, v1::FileCoverage> byFile;
  for (uint64_t key : lines.coverable()) {
    const uint32_t file = uint32_t(key >> 32), line = uint32_t(key);
    v1::FileCoverage &f = byFile[file];
    f.add_coverable_lines(line);
    if (covered.count(key))
      f.add_covered_lines(line);
  }
  std::vector<v1::FileCoverage> out;
  for (auto &[file, f] : byFile) {
    f.set_path(file < uint32_t(lines.files_size()) ? lines.files(int(file)) : "");
    f.set_lines_total(uint32_t(f.coverable_lines_size()));
    f.set_lines_covered(uint32_t(f.covered_lines_size()));
    if (int source = matchSource(f.path(), sources); source >= 0)
      f.set_source_name(sources[source].name());
    out.push_back(std::move(f));
  }
  return out;
}

} // namespace cairn::server
