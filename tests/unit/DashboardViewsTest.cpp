// What the coordinator's dashboard is made of, without processes: a job's history in bounded
// memory, the checks on attached sources and how debug-info paths find them, the replay
// command, coverage per file, errors grouped by location with their tests, and the workers'
// view.
#include "JobHistory.h"
#include "JobStore.h"
#include "JobViews.h"
#include "Scheduler.h"
#include "SourceAttachments.h"

#include "cairn/ktest/KTest.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

using namespace cairn;
using namespace cairn::server;
namespace fs = std::filesystem;

namespace {

v1::HistorySample sampleAt(double t, uint64_t instructions, uint64_t paths = 0) {
  v1::HistorySample s;
  s.set_t_s(t);
  s.set_instructions(instructions);
  s.set_paths_completed(paths);
  return s;
}

TEST(JobHistoryTest, OneSamplePerIntervalWithItsRate) {
  JobHistory h(100, 1.0);
  h.record(sampleAt(0, 0), true);
  h.record(sampleAt(0.4, 100)); // too soon
  h.record(sampleAt(1.0, 500));
  h.record(sampleAt(2.5, 800));
  h.record(sampleAt(2.6, 900), true); // the last one, forced
  v1::JobHistory out;
  h.fill(out);
  ASSERT_EQ(out.samples_size(), 4);
  EXPECT_DOUBLE_EQ(out.samples(1).instructions_per_s(), 500.0);
  EXPECT_DOUBLE_EQ(out.samples(2).instructions_per_s(), 200.0);
  EXPECT_NEAR(out.samples(3).instructions_per_s(), 1000.0, 1e-6);
  h.record(sampleAt(1.0, 1000), true); // earlier than the last: ignored
  EXPECT_EQ(h.size(), 4u);
}

// A long job keeps its whole span in a bounded history: thinned by halves, the interval doubling,
// the first and the newest sample always there, the rates measured over the spans they stand for.
TEST(JobHistoryTest, ThinningBoundsMemoryAndKeepsTheSpan) {
  JobHistory h(64, 1.0);
  for (int t = 0; t <= 10000; ++t)
    h.record(sampleAt(t, uint64_t(t) * 1000, uint64_t(t)), t == 0);
  v1::JobHistory out;
  h.fill(out);
  EXPECT_LE(out.samples_size(), 65);
  EXPECT_GE(out.samples_size(), 16);
  EXPECT_EQ(out.samples(0).t_s(), 0);
  const v1::HistorySample &last = out.samples(out.samples_size() - 1);
  EXPECT_EQ(double(last.paths_completed()), last.t_s());
  EXPECT_GE(last.t_s(), 10000 - out.interval_s());
  EXPECT_GT(out.interval_s(), 64.0);
  for (int i = 1; i < out.samples_size(); ++i) {
    EXPECT_LT(out.samples(i - 1).t_s(), out.samples(i).t_s());
    EXPECT_NEAR(out.samples(i).instructions_per_s(), 1000.0, 1e-6) << i;
  }
}

google::protobuf::RepeatedPtrField<v1::SourceFile> sources(std::vector<std::pair<std::string, std::string>> files) {
  google::protobuf::RepeatedPtrField<v1::SourceFile> out;
  for (auto &[name, text] : files) {
    v1::SourceFile &f = *out.Add();
    f.set_name(name);
    f.set_text(text);
  }
  return out;
}

TEST(SourceAttachmentsTest, PlainRelativeNamesOnly) {
  EXPECT_EQ(checkSources(sources({{"prog.c", "int main;"}, {"lib/util.h", ""}})), "");
  for (const char *hostile : {"/etc/passwd", "../etc/passwd", "lib/../../x.c", "a/./b.c", "a//b.c", "a\\b.c",
                              "..", ".", "", "dir/", "a\nb.c"}) {
    std::string why = checkSources(sources({{"prog.c", ""}, {hostile, "x"}}));
    EXPECT_FALSE(why.empty()) << hostile;
  }
  EXPECT_NE(checkSources(sources({{"p.c", ""}, {"p.c", ""}})).find("twice"), std::string::npos);
  SourceLimits small{2, 4, 6};
  EXPECT_EQ(checkSources(sources({{"a.c", "1234"}, {"b.c", "12"}}), small), "");
  EXPECT_NE(checkSources(sources({{"a.c", "12345"}}), small), "");
  EXPECT_NE(checkSources(sources({{"a.c", "1234"}, {"b.c", "123"}}), small), "");
  EXPECT_NE(checkSources(sources({{"a.c", ""}, {"b.c", ""}, {"c.c", ""}}), small), "");
}

TEST(SourceAttachmentsTest, ADebugPathFindsItsLongestTail) {
  auto s = sources({{"prog.c", ""}, {"util.h", ""}, {"lib/util.h", ""}});
  EXPECT_EQ(matchSource("/home/u/p/prog.c", s), 0);
  EXPECT_EQ(matchSource("prog.c", s), 0);
  EXPECT_EQ(matchSource("/home/u/p/lib/util.h", s), 2);
  EXPECT_EQ(matchSource("/home/u/p/util.h", s), 1);
  EXPECT_EQ(matchSource("/home/u/p/myprog.c", s), -1); // a tail at a '/' only
  EXPECT_EQ(matchSource("/usr/include/stdio.h", s), -1);
}

TEST(JobViewsTest, ReplayCommandNamesTheProgramAndTheChecks) {
  v1::SubmitJobRequest r;
  r.set_file_name("maze.bc");
  r.set_name("maze.c");
  EXPECT_EQ(replayCommand(r, "test000002"), "cairn replay maze.c test000002.ktest");
  r.set_name("nightly run"); // free text: the uploaded file then
  EXPECT_EQ(replayCommand(r, "test000002"), "cairn replay maze.bc test000002.ktest");
  r.add_sources()->set_name("src/it's.c");
  r.set_entry("start");
  r.mutable_options()->set_check_overflow(true);
  r.mutable_options()->add_extra_flags("--check-leaks");
  EXPECT_EQ(replayCommand(r, "test000001"),
            "cairn replay --entry start --check-overflow --check-leaks 'src/it'\\''s.c' test000001.ktest");
}

TEST(JobViewsTest, CoveragePerFile) {
  v1::ProgramLines lines;
  for (const char *f : {"", "/p/prog.c", "/p/util.h", "/p/empty.h"})
    lines.add_files(f);
  for (uint64_t key : {(1ull << 32) | 3, (1ull << 32) | 4, (1ull << 32) | 9, (2ull << 32) | 2})
    lines.add_coverable(key);
  std::set<uint64_t> covered = {(1ull << 32) | 3, (1ull << 32) | 9};
  std::vector<v1::FileCoverage> files = fileCoverage(lines, covered, sources({{"prog.c", "..."}}));
  ASSERT_EQ(files.size(), 2u); // a file without coverable lines is not listed
  EXPECT_EQ(files[0].path(), "/p/prog.c");
  EXPECT_EQ(files[0].source_name(), "prog.c");
  EXPECT_EQ(files[0].lines_total(), 3u);
  EXPECT_EQ(files[0].lines_covered(), 2u);
  EXPECT_EQ(std::vector<uint32_t>(files[0].covered_lines().begin(), files[0].covered_lines().end()),
            (std::vector<uint32_t>{3, 9}));
  EXPECT_EQ(files[0].text(), ""); // the list carries no text
  EXPECT_EQ(files[1].path(), "/p/util.h");
  EXPECT_EQ(files[1].source_name(), "");
  EXPECT_EQ(files[1].lines_covered(), 0u);
}

class DashboardSchedulerTest : public ::testing::Test {
protected:
  fs::path db = fs::temp_directory_path() / ("cairn-dashboard-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db");
  void TearDown() override {
    for (const char *suffix : {"", "-wal", "-shm"})
      fs::remove(db.string() + suffix);
  }
  static v1::TestResult result(const std::string &pathId, uint32_t errorLine = 0, const std::string &kind = "division-by-zero") {
    v1::TestResult t;
    t.set_path_id(pathId);
    v1::TestObject &o = *t.add_objects();
    o.set_name("x");
    o.set_bytes(std::string("\x01\x02", 2));
    if (errorLine) {
      t.mutable_error()->set_type("div");
      t.mutable_error()->set_kind(kind);
      t.mutable_error()->set_file("/p/prog.c");
      t.mutable_error()->set_line(errorLine);
    }
    return t;
  }
};

// Errors are grouped by location: one test each, and the count of distinct paths reported there
// (a re-sent path is not counted twice); the test downloads as `cairn results` writes it.
TEST_F(DashboardSchedulerTest, ErrorsGroupedByLocationWithTheirTests) {
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  v1::SubmitJobRequest request;
  request.set_file_name("prog.bc");
  request.set_name("prog.c");
  request.add_program_args("-v");
  v1::ProgramLines lines;
  lines.add_files("");
  lines.add_files("/p/prog.c");
  lines.add_coverable((1ull << 32) | 7);
  lines.add_coverable((1ull << 32) | 8);
  const std::string job = s.submit(request, "BC", "digest", lines);
  v1::RegisterWorkerRequest reg;
  const std::string w = s.registerWorker(reg).worker_id();
  v1::GetWorkRequest get;
  get.set_worker_id(w);
  v1::GetWorkResponse work;
  ASSERT_TRUE(s.getWork(get, work).ok());
  v1::ReportResultsRequest report;
  report.set_worker_id(w);
  report.set_item_id(work.item().item_id());
  for (const v1::TestResult &r : {result("a"), result("b", 7), result("c", 7), result("d", 8), result("c", 7), result("e", 7)})
    *report.add_results() = r;
  v1::ReportResultsResponse accepted;
  ASSERT_TRUE(s.reportResults(report, accepted).ok());
  EXPECT_EQ(accepted.accepted(), 3u); // a, b (line 7), d (line 8)

  v1::JobDetail detail;
  ASSERT_TRUE(s.detail(job, detail).ok());
  ASSERT_EQ(detail.errors_size(), 2);
  EXPECT_EQ(detail.errors(0).error().line(), 7u);
  EXPECT_EQ(detail.errors(0).reports(), 3u); // b, c, e
  EXPECT_EQ(detail.errors(0).test_id(), "b");
  EXPECT_EQ(detail.errors(0).test_name(), "test000002");
  EXPECT_EQ(detail.errors(0).replay_command(), "cairn replay prog.c test000002.ktest");
  EXPECT_EQ(detail.errors(0).file_index(), 0);
  EXPECT_EQ(detail.errors(1).error().line(), 8u);
  EXPECT_EQ(detail.errors(1).reports(), 1u);
  EXPECT_EQ(detail.errors(1).index(), 1u);
  ASSERT_EQ(detail.items_size(), 1);
  EXPECT_EQ(detail.items(0).state(), "running");
  EXPECT_EQ(detail.items(0).worker(), w);
  ASSERT_EQ(detail.files_size(), 1);
  EXPECT_EQ(detail.files(0).lines_total(), 2u);

  std::string bytes, name;
  ASSERT_TRUE(s.ktest(job, "d", bytes, name).ok());
  EXPECT_EQ(name, "test000003.ktest");
  KTest k = parseKTest(bytes);
  EXPECT_EQ(k.args, (std::vector<std::string>{"prog.bc", "-v"}));
  ASSERT_EQ(k.objects.size(), 1u);
  EXPECT_EQ(k.objects[0].bytes, (std::vector<uint8_t>{1, 2}));
  EXPECT_EQ(s.ktest(job, "c", bytes, name).error_code(), grpc::StatusCode::NOT_FOUND); // no test kept
  EXPECT_EQ(s.ktest("nope", "d", bytes, name).error_code(), grpc::StatusCode::NOT_FOUND);

  // The worker's view, then the job's end: its history starts when it runs and ends when it ends.
  v1::ListWorkersResponse workers;
  s.workers(workers);
  ASSERT_EQ(workers.workers_size(), 1);
  EXPECT_EQ(workers.workers(0).items_size(), 1);
  EXPECT_EQ(workers.workers(0).jobs(0), job);
  v1::ItemDoneRequest done;
  done.set_worker_id(w);
  done.set_item_id(work.item().item_id());
  done.mutable_counters()->set_paths_completed(5);
  done.mutable_counters()->set_instructions(1000);
  done.mutable_coverage()->add_lines((1ull << 32) | 7);
  ASSERT_TRUE(s.itemDone(done).ok());
  v1::JobHistory history;
  ASSERT_TRUE(s.history(job, history).ok());
  ASSERT_GE(history.samples_size(), 1);
  EXPECT_EQ(history.samples(history.samples_size() - 1).paths_completed(), 5u);
  EXPECT_EQ(history.samples(history.samples_size() - 1).lines_covered(), 1u);
  workers.Clear();
  s.workers(workers);
  EXPECT_EQ(workers.workers(0).items_done(), 1u);
  EXPECT_EQ(workers.workers(0).items_size(), 0);

  // The line table survives a restart with the job.
  Scheduler restarted(store, SchedulerOptions{});
  v1::FileCoverage file;
  ASSERT_TRUE(restarted.file(job, 0, file).ok());
  EXPECT_EQ(file.path(), "/p/prog.c");
  EXPECT_EQ(file.lines_covered(), 1u);
  EXPECT_EQ(file.text(), ""); // no source was attached
}

} // namespace
