// What the dashboard reads of the Scheduler: a job's detail (options, items, errors grouped by
// location with their tests and replay commands, coverage per file), its progress over time,
// one source file, a test as a .ktest file, and the workers; and the files a job maps into its
// runs, which cairn results keeps beside the tests. Each takes the Scheduler's lock
// once and copies out what it shows.
#include "JobViews.h"
#include "Scheduler.h"
#include "SourceAttachments.h"

#include "cairn/ktest/KTest.h"
#include "cairn/service/ServiceMessages.h"

#include <cstdio>

namespace cairn::server {

using grpc::Status;
using grpc::StatusCode;

namespace {

const char *itemStateName(ItemState s) {
  switch (s) {
  case ItemState::Pending: return "pending";
  case ItemState::Running: return "running";
  case ItemState::Done: return "done";
  case ItemState::Cancelled: return "cancelled";
  }
  return "unknown";
}

} // namespace

void Scheduler::recordHistory(Job &job, bool force) {
  if (job.stored.startedAt <= 0)
    return;
  // The job's numbers as fillStatus() makes them, without copying its errors: this runs every
  // 200 ms for each running job.
  v1::Counters counters = job.doneCounters;
  for (const auto &[item, progress] : job.progress)
    service::addCounters(counters, progress);
  const double end = job.stored.finishedAt > 0 ? job.stored.finishedAt : nowSeconds();
  v1::HistorySample sample;
  sample.set_t_s(end - job.stored.startedAt);
  sample.set_paths_completed(counters.paths_completed());
  sample.set_tests(job.summaries.size());
  sample.set_lines_covered(uint32_t(job.coverage.size()));
  sample.set_instructions(counters.instructions());
  job.history.record(sample, force);
}

Status Scheduler::detail(const std::string &jobId, v1::JobDetail &out) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(jobId);
  if (it == jobs_.end())
    return unknownJob(jobId);
  const Job &job = it->second;
  const v1::SubmitJobRequest &request = job.stored.request;
  fillStatus(job, *out.mutable_status());
  *out.mutable_options() = request.options();
  for (v1::MappedFile &f : *out.mutable_options()->mutable_files()) // names only: the page reloads every second
    f.clear_bytes();
  *out.mutable_limits() = request.limits();
  out.set_entry(request.entry().empty() ? "main" : request.entry());
  out.set_program(replayProgram(request));
  out.set_sources_attached(uint32_t(request.sources_size()));
  const v1::Counters &c = out.status().counters();
  out.set_cache_hit_rate(c.queries() ? 1.0 - double(c.solver_queries()) / double(c.queries()) : 0);

  // Items in the order they were made (their ids number them within the job).
  std::vector<const Item *> items;
  for (const auto &[id, item] : items_)
    if (item.stored.jobId == jobId)
      items.push_back(&item);
  auto number = [](const Item *i) { return std::stoull(i->stored.id.substr(i->stored.id.rfind('.') + 1)); };
  std::sort(items.begin(), items.end(), [&](const Item *a, const Item *b) { return number(a) < number(b); });
  for (const Item *item : items) {
    v1::ItemView &v = *out.add_items();
    v.set_item_id(item->stored.id);
    v.set_parent_id(item->stored.parentId);
    v.set_state(itemStateName(item->stored.state));
    v.set_worker(item->worker);
    auto progress = job.progress.find(item->stored.id);
    *v.mutable_counters() = progress != job.progress.end() ? progress->second : item->stored.counters;
    v.set_start_states(uint32_t(1 + item->stored.morePrefixes.prefixes_size()));
  }

  std::vector<v1::FileCoverage> files = fileCoverage(job.stored.lines, job.coverage, request.sources());
  for (const v1::FileCoverage &f : files)
    *out.add_files() = f;
  for (size_t i = 0; i < job.summaries.size(); ++i) {
    const Job::Kept &kept = job.summaries[i];
    if (kept.error < 0)
      continue;
    const v1::ErrorReport &e = job.errors[size_t(kept.error)];
    v1::ErrorGroup &g = *out.add_errors();
    g.set_index(uint32_t(kept.error));
    *g.mutable_error() = e;
    g.set_reports(job.errorPaths[size_t(kept.error)]);
    g.set_test_id(kept.testId);
    g.set_test_name(testName(i));
    g.set_replay_command(replayCommand(request, testName(i)));
    g.set_file_index(-1);
    for (size_t f = 0; f < files.size(); ++f)
      if (files[f].path() == e.file())
        g.set_file_index(int32_t(f));
  }
  return Status::OK;
}

Status Scheduler::history(const std::string &jobId, v1::JobHistory &out) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(jobId);
  if (it == jobs_.end())
    return unknownJob(jobId);
  out.set_job_id(jobId);
  it->second.history.fill(out);
  return Status::OK;
}

Status Scheduler::file(const std::string &jobId, uint32_t index, v1::FileCoverage &out) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(jobId);
  if (it == jobs_.end())
    return unknownJob(jobId);
  const Job &job = it->second;
  std::vector<v1::FileCoverage> files = fileCoverage(job.stored.lines, job.coverage, job.stored.request.sources());
  if (index >= files.size())
    return Status(StatusCode::NOT_FOUND, "job " + jobId + " has no file " + std::to_string(index));
  out = std::move(files[index]);
  if (int source = matchSource(out.path(), job.stored.request.sources()); source >= 0)
    out.set_text(job.stored.request.sources(source).text());
  return Status::OK;
}

Status Scheduler::ktest(const std::string &jobId, const std::string &testId, std::string &bytes, std::string &name) {
  KTest k;
  {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(jobId);
    if (it == jobs_.end())
      return unknownJob(jobId);
    const Job &job = it->second;
    const int64_t *seq = job.pathIds.find(testId);
    if (!seq || *seq <= 0)
      return Status(StatusCode::NOT_FOUND, "job " + jobId + " has no test '" + testId + "'");
    std::optional<v1::TestResult> stored = store_.result(jobId, *seq);
    if (!stored)
      return Status(StatusCode::NOT_FOUND, "job " + jobId + " has no test '" + testId + "'");
    name = testName(size_t(*seq - 1)) + ".ktest";
    k = ktestOf(job.stored.request, *stored);
  }
  bytes = serializeKTest(k);
  return Status::OK;
}

Status Scheduler::files(const std::string &jobId, v1::JobFiles &out) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(jobId);
  if (it == jobs_.end())
    return unknownJob(jobId);
  *out.mutable_files() = it->second.stored.request.options().files();
  return Status::OK;
}

void Scheduler::workers(v1::ListWorkersResponse &out) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  for (const auto &[id, w] : workers_) {
    v1::WorkerView &v = *out.add_workers();
    v.set_worker_id(id);
    v.set_name(w.name);
    std::set<std::string> jobs;
    for (const std::string &item : w.items) {
      v.add_items(item);
      if (auto it = items_.find(item); it != items_.end())
        jobs.insert(it->second.stored.jobId);
    }
    for (const std::string &job : jobs)
      v.add_jobs(job);
    v.set_queue_length(w.queueLength);
    v.set_heartbeat_age_s(std::chrono::duration<double>(now - w.lastSeen).count());
    v.set_instructions_per_s(w.items.empty() ? 0 : w.instructionsPerSecond);
    v.set_paths_per_s(w.items.empty() ? 0 : w.pathsPerSecond);
    v.set_items_done(w.itemsDone);
  }
}

} // namespace cairn::server
