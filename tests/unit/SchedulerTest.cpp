// The coordinator's decisions without processes: items handed out and done, results kept once
// per path id and error location, a lost worker's item handed out again without the subtrees
// split off it, splits asked of the busiest worker for an idle one, and a restart from the store
// resuming what was unfinished.
#include "JobStore.h"
#include "PathIdIndex.h"
#include "Scheduler.h"
#include "ZipArchive.h"

#include "cairn/service/FramedResults.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>
#include <tuple>

using namespace cairn;
using namespace cairn::server;
namespace fs = std::filesystem;

namespace {

class SchedulerTest : public ::testing::Test {
protected:
  fs::path db = fs::temp_directory_path() / ("cairn-scheduler-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db");
  void TearDown() override {
    for (const char *suffix : {"", "-wal", "-shm"})
      fs::remove(db.string() + suffix);
  }

  static std::string registerWorker(Scheduler &s) {
    v1::RegisterWorkerRequest r;
    r.set_name("test");
    return s.registerWorker(r).worker_id();
  }
  static v1::WorkItem take(Scheduler &s, const std::string &worker) {
    v1::GetWorkRequest r;
    r.set_worker_id(worker);
    v1::GetWorkResponse out;
    EXPECT_TRUE(s.getWork(r, out).ok());
    return out.item();
  }
  static v1::TestResult result(const std::string &pathId, const std::string &errorLine = "") {
    v1::TestResult t;
    t.set_path_id(pathId);
    if (!errorLine.empty()) {
      t.mutable_error()->set_type("div");
      t.mutable_error()->set_kind("division-by-zero");
      t.mutable_error()->set_file("p.c");
      t.mutable_error()->set_line(std::stoul(errorLine));
    }
    return t;
  }
  static uint32_t report(Scheduler &s, const std::string &worker, const std::string &item,
                         std::vector<v1::TestResult> results) {
    v1::ReportResultsRequest r;
    r.set_worker_id(worker);
    r.set_item_id(item);
    for (auto &t : results)
      *r.add_results() = t;
    v1::ReportResultsResponse out;
    EXPECT_TRUE(s.reportResults(r, out).ok());
    return out.accepted();
  }
  static grpc::Status done(Scheduler &s, const std::string &worker, const std::string &item, uint64_t paths) {
    v1::ItemDoneRequest r;
    r.set_worker_id(worker);
    r.set_item_id(item);
    r.mutable_counters()->set_paths_completed(paths);
    return s.itemDone(r);
  }
  static v1::JobStatus status(Scheduler &s, const std::string &job) {
    v1::JobStatus out;
    EXPECT_TRUE(s.status(job, out).ok());
    return out;
  }
  static std::string submit(Scheduler &s) {
    v1::SubmitJobRequest r;
    r.set_file_name("p.c");
    return s.submit(r, "BC", "digest");
  }
  // A job whose one item reported `results` (`kept` of them kept) when its coordinator stopped.
  std::string jobStoppedWithResults(std::vector<v1::TestResult> results, uint32_t kept) {
    JobStore store(db.string());
    Scheduler s(store, SchedulerOptions{});
    std::string job = submit(s), w = registerWorker(s);
    v1::WorkItem item = take(s, w);
    EXPECT_EQ(report(s, w, item.item_id(), std::move(results)), kept);
    return job;
  }
};

TEST_F(SchedulerTest, ResultsAreKeptOncePerPathAndErrorLocation) {
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  std::string job = submit(s), w = registerWorker(s);
  v1::WorkItem item = take(s, w);
  ASSERT_EQ(item.job_id(), job);
  EXPECT_EQ(item.bitcode(), "BC"); // the first item of a program carries it
  EXPECT_EQ(report(s, w, item.item_id(), {result("a"), result("b"), result("a")}), 2u);
  EXPECT_EQ(report(s, w, item.item_id(), {result("c", "7"), result("d", "7"), result("e", "8")}), 2u);
  EXPECT_TRUE(done(s, w, item.item_id(), 5).ok());
  v1::JobStatus st = status(s, job);
  EXPECT_EQ(st.state(), v1::JOB_COMPLETED);
  EXPECT_EQ(st.counters().tests(), 4u);
  EXPECT_EQ(st.counters().paths_completed(), 5u);
  EXPECT_EQ(st.errors_size(), 2);
  // Done once: a second report of the same item is refused.
  EXPECT_EQ(done(s, w, item.item_id(), 5).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

// Workers send results framed: repeats anywhere in a batch are dropped and the rest stored as
// sent; a batch whose framing or results do not parse is refused whole and changes nothing.
TEST_F(SchedulerTest, FramedResultsAreKeptOncePerPathAndErrorLocation) {
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  std::string job = submit(s), w = registerWorker(s);
  v1::WorkItem item = take(s, w);
  auto reportFramed = [&](std::vector<v1::TestResult> results, std::string tail = "") {
    v1::ReportResultsRequest r;
    r.set_worker_id(w);
    r.set_item_id(item.item_id());
    for (const auto &t : results)
      service::appendFramed(*r.mutable_framed_results(), t);
    r.mutable_framed_results()->append(tail);
    v1::ReportResultsResponse out;
    grpc::Status status = s.reportResults(r, out);
    return std::pair{status.error_code(), out.accepted()};
  };
  using Code = grpc::StatusCode;
  EXPECT_EQ(reportFramed({result("a"), result("b")}), std::pair(Code::OK, 2u));
  // Repeats first, in the middle and last; an error location seen twice in one batch.
  EXPECT_EQ(reportFramed({result("a"), result("c"), result("b"), result("d", "9"), result("e", "9"), result("f"), result("c")}),
            std::pair(Code::OK, 3u));
  EXPECT_EQ(reportFramed({result("g"), result("a")}), std::pair(Code::OK, 1u));
  EXPECT_EQ(reportFramed({result("h")}, "\x05" "ab"), std::pair(Code::INVALID_ARGUMENT, 0u)); // cut short
  EXPECT_EQ(reportFramed({result("h")}, std::string("\x02\x0f\x01", 3)), std::pair(Code::INVALID_ARGUMENT, 0u));
  // Both forms in one request: the repeated field's results come first.
  v1::ReportResultsRequest both;
  both.set_worker_id(w);
  both.set_item_id(item.item_id());
  *both.add_results() = result("h");
  service::appendFramed(*both.mutable_framed_results(), result("i"));
  v1::ReportResultsResponse out;
  ASSERT_TRUE(s.reportResults(both, out).ok());
  EXPECT_EQ(out.accepted(), 2u);

  std::vector<std::string> ids;
  store.forEachResult(job, 0, 0, [&](int64_t, const v1::TestResult &r) { ids.push_back(r.path_id()); });
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c", "d", "f", "g", "h", "i"}));
  v1::TestResult t;
  ASSERT_TRUE(s.test(job, "f", t).ok());
  EXPECT_EQ(t.path_id(), "f");
  EXPECT_EQ(s.test(job, "e", t).error_code(), Code::NOT_FOUND); // its error was d's
  v1::ListResultsRequest request;
  request.set_job_id(job);
  v1::ListResultsResponse page;
  ASSERT_TRUE(s.results(request, page).ok());
  ASSERT_EQ(page.results_size(), 8);
  EXPECT_EQ(page.results(3).test_id(), "d");
  EXPECT_EQ(page.results(3).name(), "test000004");
  EXPECT_EQ(page.results(3).error().line(), 9u);
  EXPECT_FALSE(page.results(4).has_error());
}

TEST_F(SchedulerTest, LostWorkersItemIsHandedOutAgainWithoutItsSplits) {
  JobStore store(db.string());
  SchedulerOptions o;
  o.heartbeatSeconds = 0.05;
  Scheduler s(store, o);
  std::string job = submit(s), lost = registerWorker(s);
  v1::WorkItem root = take(s, lost);
  v1::SplitOffRequest split;
  split.set_worker_id(lost);
  split.set_item_id(root.item_id());
  split.add_prefixes()->add_choices(1);
  v1::SplitOffResponse splitIds;
  ASSERT_TRUE(s.splitOff(split, splitIds).ok());
  ASSERT_EQ(splitIds.item_ids_size(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::string other = registerWorker(s);
  s.checkWorkers(); // `lost` sent no heartbeat: its item is pending again, first in line
  v1::WorkItem again = take(s, other);
  EXPECT_EQ(again.item_id(), root.item_id());
  ASSERT_EQ(again.excluded_size(), 1);
  EXPECT_EQ(again.excluded(0).choices(0), 1u);
  EXPECT_EQ(done(s, lost, root.item_id(), 1).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  v1::HeartbeatRequest beat;
  beat.set_worker_id(lost);
  v1::HeartbeatResponse out;
  EXPECT_EQ(s.heartbeat(beat, out).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(done(s, other, root.item_id(), 1).ok());
  EXPECT_EQ(status(s, job).state(), v1::JOB_RUNNING); // the split item is still to do
  v1::WorkItem child = take(s, other);
  EXPECT_EQ(child.item_id(), splitIds.item_ids(0));
  EXPECT_TRUE(child.bitcode().empty()); // this worker has the program already
  EXPECT_TRUE(done(s, other, child.item_id(), 2).ok());
  EXPECT_EQ(status(s, job).state(), v1::JOB_COMPLETED);
  EXPECT_EQ(status(s, job).counters().paths_completed(), 3u);
}

TEST_F(SchedulerTest, BusiestWorkerIsAskedToSplitForAnIdleOne) {
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  submit(s);
  std::string busy = registerWorker(s), idle = registerWorker(s);
  v1::WorkItem item = take(s, busy);
  v1::HeartbeatRequest beat;
  beat.set_worker_id(busy);
  beat.set_queue_length(10);
  v1::HeartbeatResponse out;
  ASSERT_TRUE(s.heartbeat(beat, out).ok());
  ASSERT_EQ(out.instructions_size(), 1);
  EXPECT_EQ(out.instructions(0).split().item_id(), item.item_id());
  EXPECT_EQ(out.instructions(0).split().count(), 1u); // one idle worker
  (void)idle;
}

// A job's --max-memory chooses its workers: one that offers less takes the next job instead and
// is given no split of it; the status says why the job waits; one that offers enough takes it.
// The limit counts as a typed option and as an engine flag (which overrides it).
TEST_F(SchedulerTest, AJobsMemoryLimitChoosesItsWorkers) {
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  auto registerWith = [&](uint64_t mb) {
    v1::RegisterWorkerRequest r;
    r.set_name("test");
    r.set_max_memory_mb(mb);
    return s.registerWorker(r).worker_id();
  };
  v1::SubmitJobRequest big;
  big.set_file_name("big.bc");
  big.mutable_options()->set_max_memory_mb(100);
  big.mutable_options()->add_extra_flags("--max-memory=3000");
  const std::string bigJob = s.submit(big, "BC", "digest");
  const std::string small = registerWith(1000);
  EXPECT_TRUE(take(s, small).item_id().empty());
  EXPECT_EQ(status(s, bigJob).state(), v1::JOB_QUEUED);
  EXPECT_NE(status(s, bigJob).waiting().find("no worker offers the 3000 MB"), std::string::npos)
      << status(s, bigJob).waiting();
  EXPECT_NE(status(s, bigJob).waiting().find("offers 1000 MB"), std::string::npos) << status(s, bigJob).waiting();
  const std::string anyJob = submit(s); // asks no limit: any worker runs it
  EXPECT_EQ(take(s, small).job_id(), anyJob);

  const std::string large = registerWith(4000);
  v1::WorkItem item = take(s, large);
  EXPECT_EQ(item.job_id(), bigJob);
  EXPECT_EQ(status(s, bigJob).waiting(), "");
  const std::string idleSmall = registerWith(1000); // idle, but it cannot take the job's work
  v1::HeartbeatRequest beat;
  beat.set_worker_id(large);
  beat.set_queue_length(10);
  v1::HeartbeatResponse out;
  ASSERT_TRUE(s.heartbeat(beat, out).ok());
  EXPECT_EQ(out.instructions_size(), 0);
  const std::string idleLarge = registerWith(8000); // this one can
  ASSERT_TRUE(s.heartbeat(beat, out).ok());
  ASSERT_EQ(out.instructions_size(), 1);
  EXPECT_EQ(out.instructions(0).split().count(), 1u);
  (void)idleSmall, (void)idleLarge;
}

// An item whose worker is lost three times (each crashed on it, say) is not handed out again:
// its job fails with the reason, and the results it reported stay.
TEST_F(SchedulerTest, AnItemLostWithThreeWorkersEndsItsJob) {
  JobStore store(db.string());
  SchedulerOptions o;
  o.heartbeatSeconds = 0.05;
  Scheduler s(store, o);
  const std::string job = submit(s);
  for (int loss = 1; loss <= 3; ++loss) {
    const std::string w = registerWorker(s);
    v1::WorkItem item = take(s, w);
    ASSERT_FALSE(item.item_id().empty()) << "loss " << loss;
    if (loss == 1) {
      EXPECT_EQ(report(s, w, item.item_id(), {result("a")}), 1u);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    s.checkWorkers();
    EXPECT_EQ(status(s, job).state(), loss < 3 ? v1::JOB_RUNNING : v1::JOB_FAILED) << "loss " << loss;
  }
  const v1::JobStatus st = status(s, job);
  EXPECT_NE(st.failure().find("lost with its worker 3 times"), std::string::npos) << st.failure();
  EXPECT_EQ(st.counters().tests(), 1u);
  EXPECT_TRUE(take(s, registerWorker(s)).item_id().empty());
}

// A job's Test-Comp suite names and hashes its attached main source; a job without one (its
// program submitted as bitcode) is told to give the program to cairn results instead.
TEST_F(SchedulerTest, ATestCompSuiteNamesTheJobsAttachedSource) {
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  v1::SubmitJobRequest r;
  r.set_file_name("p.bc");
  v1::SourceFile &source = *r.add_sources();
  source.set_name("p.c");
  source.set_text("abc");
  const std::string job = s.submit(r, "BC", "digest2");
  const std::string w = registerWorker(s);
  v1::WorkItem item = take(s, w);
  v1::TestResult input = result("a"), other = result("b");
  v1::TestObject &nondet = *input.add_objects();
  nondet.set_name("__VERIFIER_nondet_int");
  nondet.set_bytes(std::string("\xff\xff\xff\xff", 4));
  v1::TestObject &foreign = *other.add_objects();
  foreign.set_name("x");
  foreign.set_bytes(std::string(4, '\0'));
  ASSERT_EQ(item.job_id(), job);
  ASSERT_EQ(report(s, w, item.item_id(), {input, other}), 2u);
  v1::Report suite;
  grpc::Status made = s.report(job, v1::REPORT_TEST_COMP, "", suite);
  ASSERT_TRUE(made.ok()) << made.error_message();
  ASSERT_EQ(suite.files_size(), 2);
  EXPECT_EQ(suite.files(0).name(), "metadata.xml");
  EXPECT_NE(suite.files(0).text().find("<programfile>p.c</programfile>"), std::string::npos) << suite.files(0).text();
  // SHA-256 of "abc".
  EXPECT_NE(suite.files(0).text().find("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            std::string::npos)
      << suite.files(0).text();
  EXPECT_EQ(suite.files(1).name(), "test000001.xml");
  EXPECT_NE(suite.files(1).text().find(">-1</input>"), std::string::npos) << suite.files(1).text();
  ASSERT_EQ(suite.skipped_size(), 1);
  EXPECT_EQ(suite.skipped(0), "test000002.ktest");
  EXPECT_EQ(s.report(job, v1::REPORT_TEST_COMP, "", suite, std::string("a\nb")).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  const std::string bare = submit(s);
  grpc::Status refused = s.report(bare, v1::REPORT_TEST_COMP, "", suite);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(refused.error_message().find("--program"), std::string::npos) << refused.error_message();
}

// A split of a wide frontier: its states are dealt out into one item per idle worker, each
// item carrying several; a re-run of the item they came from excludes every one of them, and
// the items keep their states across a restart.
TEST_F(SchedulerTest, SplitStatesAreDealtIntoOneItemPerIdleWorker) {
  std::string job, parent;
  std::vector<std::string> splitIds;
  {
    JobStore store(db.string());
    Scheduler s(store, SchedulerOptions{});
    job = submit(s);
    std::string busy = registerWorker(s);
    registerWorker(s);
    registerWorker(s); // two idle workers
    v1::WorkItem root = take(s, busy);
    parent = root.item_id();
    v1::SplitOffRequest split;
    split.set_worker_id(busy);
    split.set_item_id(root.item_id());
    for (uint64_t i = 0; i < 5; ++i)
      split.add_prefixes()->add_choices(i);
    v1::SplitOffResponse out;
    ASSERT_TRUE(s.splitOff(split, out).ok());
    ASSERT_EQ(out.item_ids_size(), 2);
    splitIds.assign(out.item_ids().begin(), out.item_ids().end());
  }
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{}); // restarted: the items come back from the store
  std::string w = registerWorker(s);
  v1::WorkItem first = take(s, w); // the root, handed out again first
  EXPECT_EQ(first.item_id(), parent);
  std::vector<uint64_t> excluded;
  for (const v1::PathPrefix &p : first.excluded())
    excluded.push_back(p.choices(0));
  std::sort(excluded.begin(), excluded.end());
  EXPECT_EQ(excluded, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
  v1::WorkItem a = take(s, w), b = take(s, w);
  EXPECT_EQ(a.item_id(), splitIds[0]);
  EXPECT_EQ(b.item_id(), splitIds[1]);
  auto starts = [](const v1::WorkItem &i) {
    std::vector<uint64_t> out{i.prefix().choices(0)};
    for (const v1::PathPrefix &p : i.more_prefixes())
      out.push_back(p.choices(0));
    return out;
  };
  EXPECT_EQ(starts(a), (std::vector<uint64_t>{0, 2, 4})); // dealt in turn, shallowest first
  EXPECT_EQ(starts(b), (std::vector<uint64_t>{1, 3}));
}

// A store written before items had several states has no column for them; it gets one, and
// its items have none.
TEST_F(SchedulerTest, AnOlderStoresItemsGainTheirMoreStatesColumn) {
  {
    sqlite3 *db3 = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &db3), SQLITE_OK);
    const char *older = "CREATE TABLE items(id BLOB PRIMARY KEY, job BLOB, parent BLOB, prefix BLOB,"
                        " state INTEGER, counters BLOB, coverage BLOB);"
                        "INSERT INTO items VALUES(x'6a2e31', x'6a', x'', x'0a0107', 0, x'', x'');";
    ASSERT_EQ(sqlite3_exec(db3, older, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db3);
  }
  JobStore store(db.string());
  std::vector<StoredItem> items = store.items();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].id, "j.1");
  ASSERT_EQ(items[0].prefix.choices_size(), 1);
  EXPECT_EQ(items[0].prefix.choices(0), 7u);
  EXPECT_EQ(items[0].morePrefixes.prefixes_size(), 0);
  StoredItem more = items[0];
  more.morePrefixes.add_prefixes()->add_choices(9);
  store.putItem(more);
  EXPECT_EQ(store.items().at(0).morePrefixes.prefixes(0).choices(0), 9u);
}

TEST_F(SchedulerTest, RestartResumesUnfinishedJobs) {
  std::string job = jobStoppedWithResults({result("a"), result("b", "3")}, 2);
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  v1::JobStatus st = status(s, job);
  EXPECT_EQ(st.state(), v1::JOB_RUNNING);
  EXPECT_EQ(st.counters().tests(), 2u);
  EXPECT_EQ(st.errors_size(), 1);
  std::string w = registerWorker(s);
  v1::WorkItem item = take(s, w);
  EXPECT_EQ(item.job_id(), job);
  EXPECT_EQ(item.bitcode(), "BC");
  EXPECT_EQ(report(s, w, item.item_id(), {result("a"), result("b", "3"), result("c")}), 1u);
  EXPECT_TRUE(done(s, w, item.item_id(), 3).ok());
  EXPECT_EQ(status(s, job).state(), v1::JOB_COMPLETED);
  EXPECT_EQ(status(s, job).counters().tests(), 3u);
}

TEST_F(SchedulerTest, TestsAreFoundByIdAndListedInOrderAfterARestart) {
  std::string job = jobStoppedWithResults({result("a"), result("b", "3"), result("c", "3"), result("d")}, 3);
  JobStore store(db.string());
  Scheduler s(store, SchedulerOptions{});
  v1::TestResult t;
  ASSERT_TRUE(s.test(job, "d", t).ok());
  EXPECT_EQ(t.path_id(), "d");
  ASSERT_TRUE(s.test(job, "b", t).ok());
  EXPECT_EQ(t.error().line(), 3u);
  EXPECT_EQ(s.test(job, "c", t).error_code(), grpc::StatusCode::NOT_FOUND); // its error was b's
  EXPECT_EQ(s.test(job, "zz", t).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::ListResultsRequest request;
  request.set_job_id(job);
  request.set_offset(1);
  request.set_limit(5);
  request.set_include_tests(true);
  v1::ListResultsResponse page;
  ASSERT_TRUE(s.results(request, page).ok());
  EXPECT_EQ(page.total(), 3u);
  ASSERT_EQ(page.tests_size(), 2);
  EXPECT_EQ(page.tests(0).path_id(), "b");
  EXPECT_EQ(page.tests(1).path_id(), "d");
}

// Job stores written before results were kept in runs hold one result per row: keyed by path id
// (`results`) or in arrival order (`tests`). Opened, either moves over, numbers and order kept.
TEST_F(SchedulerTest, AnOlderStoresResultsMoveOver) {
  for (const char *older : {"results", "tests"}) {
    SCOPED_TRACE(older);
    TearDown();
    {
      sqlite3 *db3 = nullptr;
      ASSERT_EQ(sqlite3_open(db.c_str(), &db3), SQLITE_OK);
      std::string insert = std::string("CREATE TABLE ") + older + "(job BLOB, seq INTEGER, path_id BLOB, result BLOB," +
                           (older == std::string("results") ? " PRIMARY KEY(job, path_id));"
                                                            : " PRIMARY KEY(job, seq)) WITHOUT ROWID;");
      // Job j: x, y, then z after a gap in the numbers; job k: w. Blobs, as the store binds them;
      // each result is TestResult{path_id: its letter}.
      for (auto [job, seq, id] : {std::tuple{"6a", 2, "79"}, std::tuple{"6a", 1, "78"}, std::tuple{"6a", 4, "7a"},
                                  std::tuple{"6b", 1, "77"}})
        insert += std::string("INSERT INTO ") + older + " VALUES(x'" + job + "', " + std::to_string(seq) + ", x'" +
                  id + "', x'0a01" + id + "');";
      EXPECT_EQ(sqlite3_exec(db3, insert.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
      sqlite3_close(db3);
    }
    JobStore store(db.string());
    std::vector<std::pair<int64_t, std::string>> got;
    store.forEachResult("j", 0, 0, [&](int64_t seq, const v1::TestResult &r) { got.emplace_back(seq, r.path_id()); });
    EXPECT_EQ(got, (std::vector<std::pair<int64_t, std::string>>{{1, "x"}, {2, "y"}, {4, "z"}}));
    ASSERT_TRUE(store.result("j", 2));
    EXPECT_EQ(store.result("j", 2)->path_id(), "y");
    EXPECT_FALSE(store.result("j", 3));
    ASSERT_TRUE(store.result("k", 1));
    EXPECT_EQ(store.result("k", 1)->path_id(), "w");
  }
}

// Results are stored a batch per row; a page of them may start and end inside a batch.
TEST_F(SchedulerTest, PagesOfResultsCutAcrossBatches) {
  JobStore store(db.string());
  std::vector<v1::TestResult> all(10);
  for (size_t i = 0; i < all.size(); ++i)
    all[i].set_path_id("p" + std::to_string(i + 1));
  for (auto [first, count] : {std::pair{1, 3}, std::pair{4, 1}, std::pair{5, 6}}) {
    std::vector<const v1::TestResult *> batch;
    for (int i = 0; i < count; ++i)
      batch.push_back(&all[size_t(first - 1 + i)]);
    store.addResults("j", first, batch);
  }
  for (int64_t offset = 0; offset <= 10; ++offset)
    for (int64_t limit : {0, 1, 2, 5}) {
      std::vector<std::string> got, want;
      store.forEachResult("j", offset, limit, [&](int64_t seq, const v1::TestResult &r) {
        EXPECT_EQ(r.path_id(), "p" + std::to_string(seq));
        got.push_back(r.path_id());
      });
      for (int64_t seq = offset + 1; seq <= 10 && (limit == 0 || seq <= offset + limit); ++seq)
        want.push_back("p" + std::to_string(seq));
      EXPECT_EQ(got, want) << "offset " << offset << " limit " << limit;
    }
  for (int64_t seq = 1; seq <= 10; ++seq) {
    ASSERT_TRUE(store.result("j", seq)) << seq;
    EXPECT_EQ(store.result("j", seq)->path_id(), "p" + std::to_string(seq));
  }
  EXPECT_FALSE(store.result("j", 11));
  EXPECT_FALSE(store.result("j", 0));
  EXPECT_FALSE(store.result("other", 1));
}

// Engine ids (16 lowercase hex digits) are kept as numbers, anything else as text: an id never
// meets another that only spells the same number differently.
TEST(PathIdIndexTest, EngineIdsAndOtherIdsAreKeptApart) {
  PathIdIndex index;
  const std::vector<std::string> ids = {"00000000000000ff", "ff", "00000000000000FF", "0x000000000000ff",
                                        "ffffffffffffffff", "0000000000000000", "a", "00000000000000ff0"};
  for (size_t i = 0; i < ids.size(); ++i) {
    auto [seq, fresh] = index.emplace(ids[i], int64_t(i + 1));
    EXPECT_TRUE(fresh) << ids[i];
    EXPECT_EQ(*seq, int64_t(i + 1));
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    auto [seq, fresh] = index.emplace(ids[i], 100);
    EXPECT_FALSE(fresh) << ids[i];
    EXPECT_EQ(*seq, int64_t(i + 1)) << ids[i];
    ASSERT_NE(index.find(ids[i]), nullptr) << ids[i];
    EXPECT_EQ(*index.find(ids[i]), int64_t(i + 1)) << ids[i];
  }
  *index.emplace("0123456789abcdef", 0).first = 42; // the number is set once the result is kept
  EXPECT_EQ(*index.find("0123456789abcdef"), 42);
  EXPECT_EQ(index.find("0123456789abcdee"), nullptr);
  EXPECT_EQ(index.find("b"), nullptr);
}

// The zip the dashboard hands out: stored files with zip's CRC-32 (the check value of
// "123456789"), a central directory entry per file and the end record counting them.
TEST(ZipArchiveTest, StoresEachFileWithItsCrcAndAnEndRecordThatCountsThem) {
  EXPECT_EQ(crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(crc32(""), 0u);
  const std::string zip = zipArchive({{"test-suite/metadata.xml", "<m/>"}, {"test-suite/a.xml", "123456789"}});
  auto u32 = [&](size_t at) {
    return uint32_t(uint8_t(zip[at])) | uint32_t(uint8_t(zip[at + 1])) << 8 | uint32_t(uint8_t(zip[at + 2])) << 16 |
           uint32_t(uint8_t(zip[at + 3])) << 24;
  };
  auto u16 = [&](size_t at) { return uint32_t(uint8_t(zip[at])) | uint32_t(uint8_t(zip[at + 1])) << 8; };
  EXPECT_EQ(u32(0), 0x04034b50u);
  const size_t end = zip.size() - 22;
  ASSERT_EQ(u32(end), 0x06054b50u);
  EXPECT_EQ(u16(end + 10), 2u); // entries
  const size_t directory = u32(end + 16);
  ASSERT_EQ(u32(directory), 0x02014b50u);
  const size_t second = directory + 46 + u16(directory + 28);
  ASSERT_EQ(u32(second), 0x02014b50u);
  EXPECT_EQ(u32(second + 16), 0xCBF43926u);
  const size_t local = u32(second + 42);
  EXPECT_EQ(zip.substr(local + 30, 16), "test-suite/a.xml");
  EXPECT_EQ(zip.substr(local + 46, 9), "123456789");
  EXPECT_THROW(zipArchive(std::vector<std::pair<std::string, std::string>>(70000, {"f", ""})), std::length_error);
}

} // namespace
