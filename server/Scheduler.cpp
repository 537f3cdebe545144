#include "JobViews.h"
#include "Scheduler.h"

#include "cairn/service/FramedResults.h"
#include "cairn/service/ServiceMessages.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>

namespace cairn::server {

using grpc::Status;
using grpc::StatusCode;

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Scheduler::Scheduler(JobStore &store, SchedulerOptions options) : store_(store), options_(options) {
  for (StoredJob &stored : store_.jobs()) {
    nextSeq_ = std::max(nextSeq_, stored.seq + 1);
    Job &job = jobs_[stored.id];
    job.stored = std::move(stored);
    job.memoryAskedMB = service::askedMemoryMB(job.stored.request.options());
    job.history = JobHistory(kHistorySamples, options_.heartbeatSeconds);
    store_.forEachResult(job.stored.id, 0, 0, [&](int64_t seq, const v1::TestResult &r) {
      job.pathIds.emplace(r.path_id(), seq);
      if (r.has_error())
        job.errorLocations.insert(service::errorLocation(r.error()));
      addSummary(job, service::keyOf(r));
    });
  }
  size_t resumed = 0;
  for (StoredItem &stored : store_.items()) {
    auto jt = jobs_.find(stored.jobId);
    if (jt == jobs_.end())
      continue;
    Job &job = jt->second;
    Item &item = items_[stored.id];
    item.stored = std::move(stored);
    if (!item.stored.parentId.empty())
      items_[item.stored.parentId].children.push_back(item.stored.id);
    ++job.itemsTotal;
    if (item.stored.state == ItemState::Done) {
      ++job.itemsDone;
      service::addCounters(job.doneCounters, item.stored.counters);
      job.coverage.insert(item.stored.coverage.lines().begin(), item.stored.coverage.lines().end());
      job.branches.insert(item.stored.coverage.branches().begin(), item.stored.coverage.branches().end());
      job.linesTotal = std::max(job.linesTotal, item.stored.coverage.lines_total());
    } else if (!finished(job) && item.stored.state != ItemState::Cancelled) {
      item.stored.state = ItemState::Pending; // it was running when the coordinator stopped
      job.pending.push_back(item.stored.id);
      ++resumed;
    }
  }
  size_t unfinished = 0;
  for (auto &[id, job] : jobs_) {
    unfinished += !finished(job);
    endJobIfDone(job);
    recordHistory(job, true); // the history is not stored: it starts again from where the job is
  }
  if (!jobs_.empty())
    spdlog::info("job store: {} jobs, {} unfinished, {} items to explore", jobs_.size(), unfinished,
                 resumed);
}

std::string Scheduler::newId() {
  static std::mt19937_64 random{std::random_device{}()};
  char buf[17];
  std::snprintf(buf, sizeof buf, "%012llx", (unsigned long long)(random() & 0xffffffffffffull));
  return buf;
}

bool Scheduler::finished(const Job &job) const {
  v1::JobState s = job.stored.state;
  return s == v1::JOB_COMPLETED || s == v1::JOB_CANCELLED || s == v1::JOB_FAILED;
}

void Scheduler::touch(Job &job) {
  ++job.version;
  changed_.notify_all();
}

void Scheduler::saveJob(Job &job) {
  store_.putJob(job.stored);
  touch(job);
}

std::string Scheduler::addItem(Job &job, const std::vector<const v1::PathPrefix *> &prefixes,
                               const std::string &parent) {
  Item item;
  item.stored.id = job.stored.id + "." + std::to_string(job.itemsTotal + 1);
  item.stored.jobId = job.stored.id;
  item.stored.parentId = parent;
  if (!prefixes.empty())
    item.stored.prefix = *prefixes.front();
  for (size_t i = 1; i < prefixes.size(); ++i)
    *item.stored.morePrefixes.add_prefixes() = *prefixes[i];
  store_.putItem(item.stored);
  std::string id = item.stored.id;
  items_[id] = std::move(item);
  if (!parent.empty())
    items_[parent].children.push_back(id);
  job.pending.push_back(id);
  ++job.itemsTotal;
  touch(job);
  return id;
}

std::string Scheduler::submit(v1::SubmitJobRequest request, std::string bitcode, std::string digest,
                              v1::ProgramLines lines) {
  std::lock_guard lock(mutex_);
  request.clear_program();
  std::string id = newId();
  Job &job = jobs_[id];
  job.history = JobHistory(kHistorySamples, options_.heartbeatSeconds);
  job.stored.id = id;
  job.stored.seq = nextSeq_++;
  job.stored.request = std::move(request);
  job.memoryAskedMB = service::askedMemoryMB(job.stored.request.options());
  job.stored.bitcode = std::move(bitcode);
  job.stored.digest = std::move(digest);
  job.stored.submittedAt = nowSeconds();
  job.stored.lines = std::move(lines);
  saveJob(job);
  addItem(job, {}, "");
  spdlog::info("job {} submitted: {} ({} bytes of bitcode)", id, job.stored.request.file_name(),
               job.stored.bitcode.size());
  return id;
}

void Scheduler::fillStatus(const Job &job, v1::JobStatus &out) const {
  out.set_job_id(job.stored.id);
  out.set_name(job.stored.request.name());
  out.set_file_name(job.stored.request.file_name());
  *out.mutable_program_args() = job.stored.request.program_args();
  out.set_state(job.stored.state);
  out.set_failure(job.stored.failure);
  v1::Counters counters = job.doneCounters;
  for (const auto &[item, progress] : job.progress)
    service::addCounters(counters, progress);
  counters.set_tests(job.summaries.size()); // results kept: without duplicates
  *out.mutable_counters() = counters;
  out.set_lines_covered(uint32_t(job.coverage.size()));
  out.set_lines_total(job.linesTotal);
  for (const v1::ErrorReport &e : job.errors)
    *out.add_errors() = e;
  out.set_items_total(uint32_t(job.itemsTotal));
  out.set_items_done(uint32_t(job.itemsDone));
  out.set_items_running(uint32_t(job.itemsRunning));
  out.set_submitted_at(job.stored.submittedAt);
  double start = job.stored.startedAt > 0 ? job.stored.startedAt : job.stored.submittedAt;
  double end = job.stored.finishedAt > 0 ? job.stored.finishedAt : nowSeconds();
  out.set_elapsed_s(job.stored.startedAt > 0 ? end - start : 0);
  out.set_waiting(waitingFor(job));
}

// A job without a limit of its own runs anywhere: each worker runs it under the engine's default
// or its own capacity, the lower.
bool Scheduler::fits(const Job &job, const Worker &worker) {
  return !job.memoryAskedMB || !worker.maxMemoryMB || job.memoryAskedMB <= worker.maxMemoryMB;
}

std::string Scheduler::waitingFor(const Job &job) const {
  if (finished(job) || job.pending.empty() || workers_.empty())
    return "";
  uint64_t largest = 0;
  for (const auto &[id, w] : workers_) {
    if (fits(job, w))
      return "";
    largest = std::max(largest, w.maxMemoryMB);
  }
  return "no worker offers the " + std::to_string(job.memoryAskedMB) +
         " MB an item of this job may use (--max-memory; the largest registered worker offers " +
         std::to_string(largest) + " MB)";
}

Status Scheduler::status(const std::string &jobId, v1::JobStatus &out) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(jobId);
  if (it == jobs_.end())
    return unknownJob(jobId);
  fillStatus(it->second, out);
  return Status::OK;
}

uint64_t Scheduler::waitForChange(const std::string &jobId, uint64_t version, double seconds) {
  std::unique_lock lock(mutex_);
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  auto it = jobs_.find(jobId);
  if (it == jobs_.end())
    return 0;
  changed_.wait_until(lock, deadline, [&] { return stopping_ || it->second.version != version; });
  return it->second.version;
}

Status Scheduler::results(const v1::ListResultsRequest &request, v1::ListResultsResponse &out) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(request.job_id());
  if (it == jobs_.end())
    return unknownJob(request.job_id());
  const Job &job = it->second;
  out.set_total(uint32_t(job.summaries.size()));
  size_t end = request.limit() ? std::min<size_t>(job.summaries.size(), size_t(request.offset()) + request.limit())
                               : job.summaries.size();
  for (size_t i = request.offset(); i < end; ++i) {
    const Job::Kept &kept = job.summaries[i];
    v1::ResultSummary &s = *out.add_results();
    s.set_test_id(kept.testId);
    s.set_name(testName(i));
    if (kept.error >= 0)
      *s.mutable_error() = job.errors[size_t(kept.error)];
    s.set_partial(kept.partial);
  }
  if (request.include_tests() && request.offset() < end)
    store_.forEachResult(job.stored.id, request.offset(), int64_t(end - request.offset()),
                         [&](int64_t, const v1::TestResult &r) { *out.add_tests() = r; });
  return Status::OK;
}

Status Scheduler::test(const std::string &jobId, const std::string &testId, v1::TestResult &out) {
  std::lock_guard lock(mutex_);
  auto job = jobs_.find(jobId);
  if (job == jobs_.end())
    return unknownJob(jobId);
  const int64_t *seq = job->second.pathIds.find(testId);
  std::optional<v1::TestResult> r;
  if (seq && *seq > 0)
    r = store_.result(jobId, *seq);
  if (!r)
    return Status(StatusCode::NOT_FOUND, "job " + jobId + " has no test '" + testId + "'");
  out = std::move(*r);
  return Status::OK;
}

void Scheduler::endJob(Job &job, v1::JobState state, const std::string &failure) {
  job.stored.state = state;
  job.stored.failure = failure;
  job.stored.finishedAt = nowSeconds();
  for (const std::string &id : job.pending) {
    Item &item = items_[id];
    item.stored.state = ItemState::Cancelled;
    store_.putItem(item.stored);
  }
  job.pending.clear();
  for (auto &[id, item] : items_) {
    if (item.stored.jobId != job.stored.id || item.stored.state != ItemState::Running)
      continue;
    if (auto w = workers_.find(item.worker); w != workers_.end()) {
      w->second.items.erase(id);
      v1::WorkerInstruction cancel;
      cancel.mutable_cancel()->set_item_id(id);
      instruct(w->second, std::move(cancel));
    }
    item.stored.state = ItemState::Cancelled;
    item.worker.clear();
    store_.putItem(item.stored);
  }
  job.itemsRunning = 0;
  job.progress.clear();
  recordHistory(job, true);
  saveJob(job);
  spdlog::info("job {} {}{}{}", job.stored.id, v1::JobState_Name(state), failure.empty() ? "" : ": ",
               failure);
}

void Scheduler::endJobIfDone(Job &job) {
  if (!finished(job) && job.pending.empty() && job.itemsRunning == 0 && job.itemsDone == job.itemsTotal)
    endJob(job, v1::JOB_COMPLETED, "");
}

Status Scheduler::cancel(const std::string &jobId, const std::string &why, v1::JobStatus &out) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(jobId);
  if (it == jobs_.end())
    return unknownJob(jobId);
  if (!finished(it->second))
    endJob(it->second, v1::JOB_CANCELLED, why);
  fillStatus(it->second, out);
  return Status::OK;
}

void Scheduler::listJobs(v1::ListJobsResponse &out) {
  std::lock_guard lock(mutex_);
  std::vector<const Job *> ordered;
  for (const auto &[id, job] : jobs_)
    ordered.push_back(&job);
  std::sort(ordered.begin(), ordered.end(), [](const Job *a, const Job *b) { return a->stored.seq < b->stored.seq; });
  for (const Job *job : ordered)
    fillStatus(*job, *out.add_jobs());
}

v1::RegisterWorkerResponse Scheduler::registerWorker(const v1::RegisterWorkerRequest &request) {
  std::lock_guard lock(mutex_);
  std::string id = "w" + newId();
  Worker &w = workers_[id];
  w.id = id;
  w.name = request.name();
  w.maxMemoryMB = request.max_memory_mb();
  w.lastSeen = Clock::now();
  spdlog::info("worker {} registered ({}{})", id, w.name,
               w.maxMemoryMB ? ", items up to " + std::to_string(w.maxMemoryMB) + " MB" : "");
  v1::RegisterWorkerResponse out;
  out.set_worker_id(id);
  out.set_heartbeat_interval_s(options_.heartbeatSeconds);
  return out;
}

Status Scheduler::heartbeat(const v1::HeartbeatRequest &request, v1::HeartbeatResponse &out) {
  std::lock_guard lock(mutex_);
  Status unknown;
  Worker *found = findWorker(request.worker_id(), unknown);
  if (!found)
    return unknown;
  Worker &w = *found;
  w.lastSeen = Clock::now();
  w.queueLength = request.queue_length();
  uint64_t instructions = 0, paths = 0;
  for (const v1::ItemProgress &p : request.progress()) {
    instructions += p.counters().instructions();
    paths += p.counters().paths_completed();
  }
  // A rate needs the same work on both ends: an item that ended or started in between makes
  // the sums fall, and the rate waits for the next heartbeat.
  const double since = std::chrono::duration<double>(w.lastSeen - w.progressAt).count();
  if (w.progressAt != Clock::time_point{} && since > 0 && instructions >= w.progressInstructions &&
      paths >= w.progressPaths) {
    w.instructionsPerSecond = double(instructions - w.progressInstructions) / since;
    w.pathsPerSecond = double(paths - w.progressPaths) / since;
  } else if (request.progress().empty()) {
    w.instructionsPerSecond = w.pathsPerSecond = 0;
  }
  w.progressAt = w.lastSeen;
  w.progressInstructions = instructions;
  w.progressPaths = paths;
  for (const v1::ItemProgress &p : request.progress()) {
    auto it = items_.find(p.item_id());
    if (it == items_.end() || it->second.worker != w.id)
      continue;
    Job &job = jobs_[it->second.stored.jobId];
    job.progress[p.item_id()] = p.counters();
    touch(job);
  }
  balance();
  for (v1::WorkerInstruction &i : w.instructions)
    *out.add_instructions() = std::move(i);
  w.instructions.clear();
  return Status::OK;
}

// Work moves only when a worker has nothing to do and no item waits: the busiest worker (most
// live states) is asked to hand some of its states back as prefixes, which become items.
void Scheduler::balance() {
  std::vector<const Worker *> idle;
  for (const auto &[id, w] : workers_)
    if (w.items.empty())
      idle.push_back(&w);
  if (idle.empty())
    return;
  // Idle workers that can take a job's item: a pending item they fit is theirs already, and a
  // split is for them only (a job whose memory limit they do not offer waits for another).
  auto idleFitting = [&](const Job &job) {
    return size_t(std::count_if(idle.begin(), idle.end(), [&](const Worker *w) { return fits(job, *w); }));
  };
  for (const auto &[id, job] : jobs_)
    if (!job.pending.empty() && !finished(job) && idleFitting(job))
      return;
  Worker *busiest = nullptr;
  size_t takers = 0;
  const auto now = Clock::now();
  for (auto &[id, w] : workers_) {
    if (w.items.empty()) // a worker with one state splits as soon as it has two
      continue;
    if (w.splitOutstanding && now - w.lastSplitRequest < std::chrono::duration<double>(options_.splitAnswerSeconds))
      continue;
    const Job &job = jobs_[items_[*w.items.begin()].stored.jobId];
    const uint32_t maxWorkers = job.stored.request.limits().max_workers();
    if (maxWorkers && job.itemsRunning >= maxWorkers)
      continue;
    const size_t fitting = idleFitting(job);
    if (fitting && (!busiest || w.queueLength > busiest->queueLength)) {
      busiest = &w;
      takers = fitting;
    }
  }
  if (!busiest)
    return;
  const std::string &itemId = *busiest->items.begin();
  size_t count = std::max<size_t>(1, std::min<size_t>(takers, busiest->queueLength / 2));
  v1::WorkerInstruction i;
  i.mutable_split()->set_item_id(itemId);
  i.mutable_split()->set_count(uint32_t(count));
  instruct(*busiest, std::move(i));
  busiest->splitOutstanding = true;
  busiest->lastSplitRequest = now;
  ++splitsRequested_;
  spdlog::debug("asking worker {} ({} states) to split {} off item {}", busiest->id,
                busiest->queueLength, count, itemId);
}

Status Scheduler::getWork(const v1::GetWorkRequest &request, v1::GetWorkResponse &out) {
  std::unique_lock lock(mutex_);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(std::min(request.wait_s(), 10.0)));
  for (;;) {
    Status unknown;
    Worker *found = findWorker(request.worker_id(), unknown); // looked up again after each wait
    if (!found)
      return unknown;
    Worker &w = *found;
    w.lastSeen = Clock::now();
    Job *chosen = nullptr;
    for (auto &[id, job] : jobs_) {
      if (finished(job) || job.pending.empty())
        continue;
      uint32_t maxWorkers = job.stored.request.limits().max_workers();
      if (maxWorkers && job.itemsRunning >= maxWorkers)
        continue;
      if (!fits(job, w))
        continue;
      if (!chosen || job.stored.seq < chosen->stored.seq)
        chosen = &job;
    }
    if (chosen) {
      Job &job = *chosen;
      std::string itemId = job.pending.front();
      job.pending.pop_front();
      Item &item = items_[itemId];
      item.stored.state = ItemState::Running;
      item.worker = w.id;
      w.items.insert(itemId);
      ++job.itemsRunning;
      if (job.stored.state == v1::JOB_QUEUED) {
        job.stored.state = v1::JOB_RUNNING;
        job.stored.startedAt = nowSeconds();
        recordHistory(job, true);
        saveJob(job);
      }
      touch(job);
      v1::WorkItem &wi = *out.mutable_item();
      wi.set_item_id(itemId);
      wi.set_job_id(job.stored.id);
      *wi.mutable_prefix() = item.stored.prefix;
      *wi.mutable_more_prefixes() = item.stored.morePrefixes.prefixes();
      if (w.programs.insert(job.stored.digest).second)
        wi.set_bitcode(job.stored.bitcode);
      wi.set_program_digest(job.stored.digest);
      wi.set_entry(job.stored.request.entry().empty() ? "main" : job.stored.request.entry());
      for (const std::string &a : job.stored.request.program_args())
        wi.add_program_args(a);
      wi.set_program_name(std::filesystem::path(job.stored.request.file_name()).stem().string());
      *wi.mutable_options() = job.stored.request.options();
      for (const std::string &child : item.children) {
        const StoredItem &c = items_[child].stored;
        *wi.add_excluded() = c.prefix;
        for (const v1::PathPrefix &p : c.morePrefixes.prefixes())
          *wi.add_excluded() = p;
      }
      spdlog::debug("item {} ({} choices, {} more states) to worker {}", itemId, item.stored.prefix.choices_size(),
                    item.stored.morePrefixes.prefixes_size(), w.id);
      return Status::OK;
    }
    if (w.items.empty())
      balance(); // this worker is idle: ask a busy one to split now, not at its next heartbeat
    if (stopping_ || changed_.wait_until(lock, deadline) == std::cv_status::timeout)
      return Status::OK;
  }
}

Status Scheduler::unknownJob(const std::string &jobId) { return Status(StatusCode::NOT_FOUND, "no job '" + jobId + "'"); }

Scheduler::Worker *Scheduler::findWorker(const std::string &id, Status &error) {
  auto it = workers_.find(id);
  if (it != workers_.end())
    return &it->second;
  error = Status(StatusCode::NOT_FOUND, "unknown worker '" + id + "': register again");
  return nullptr;
}

Scheduler::Item *Scheduler::findItem(const std::string &id, Status &error) {
  auto it = items_.find(id);
  if (it != items_.end())
    return &it->second;
  error = Status(StatusCode::NOT_FOUND, "no item '" + id + "'");
  return nullptr;
}

Scheduler::Item *Scheduler::ownedItem(const std::string &worker, const std::string &id, Status &error) {
  Item *item = findItem(id, error);
  if (item && (item->stored.state != ItemState::Running || item->worker != worker)) {
    error = Status(StatusCode::FAILED_PRECONDITION, "item " + id + " is not this worker's");
    return nullptr;
  }
  return item;
}

void Scheduler::addSummary(Job &job, const service::ResultKey &r) {
  Job::Kept &kept = job.summaries.emplace_back();
  kept.testId = r.pathId;
  if (r.error) {
    kept.error = int32_t(job.errors.size());
    job.errorByLocation[service::errorLocation(*r.error)] = job.errors.size();
    job.errors.push_back(*r.error);
    job.errorPaths.push_back(1);
  }
  kept.partial = r.partial;
}

bool Scheduler::acceptResult(Job &job, const service::ResultKey &r) {
  auto [kept, fresh] = job.pathIds.emplace(r.pathId, 0);
  if (!fresh)
    return false;
  // One test per error location, as one engine exploring alone keeps.
  if (r.error && !job.errorLocations.insert(service::errorLocation(*r.error)).second) {
    if (auto at = job.errorByLocation.find(service::errorLocation(*r.error)); at != job.errorByLocation.end())
      ++job.errorPaths[at->second];
    return false; // its path stays seen, under number 0: no test
  }
  addSummary(job, r);
  *kept = int64_t(job.summaries.size());
  return true;
}

Status Scheduler::reportResults(const v1::ReportResultsRequest &request, v1::ReportResultsResponse &out) {
  std::lock_guard lock(mutex_);
  Status unknown;
  Item *item = findItem(request.item_id(), unknown);
  if (!item)
    return unknown;
  Job &job = jobs_[item->stored.jobId];
  if (finished(job))
    return Status::OK;
  // The framed results' keys are all read before any is kept: a batch that does not parse is
  // refused whole.
  std::vector<std::pair<std::string_view, service::ResultKey>> framed;
  service::FramedReader reader(request.framed_results());
  for (std::string_view whole, body; reader.next(whole, body);) {
    std::optional<service::ResultKey> key = service::readKey(body);
    if (!key)
      return Status(StatusCode::INVALID_ARGUMENT, "a framed result does not parse");
    framed.emplace_back(whole, std::move(*key));
  }
  if (reader.failed())
    return Status(StatusCode::INVALID_ARGUMENT, "the framed results are cut short");

  // Results are kept whoever sends them: a lost worker's results are real, and a re-issued
  // item's repeats are dropped by their path ids.
  uint32_t accepted = 0;
  int64_t first = int64_t(job.summaries.size()) + 1;
  std::vector<const v1::TestResult *> kept;
  for (const v1::TestResult &r : request.results()) {
    if (acceptResult(job, service::keyOf(r)))
      kept.push_back(&r);
    else
      ++resultsDuplicate_;
  }
  if (!kept.empty())
    store_.addResults(job.stored.id, first, kept);
  accepted += uint32_t(kept.size());

  // Framed results are stored as they came; when some are repeats, the others are copied out.
  first = int64_t(job.summaries.size()) + 1;
  std::string keptFramed;
  size_t keptCount = 0;
  for (size_t i = 0; i < framed.size(); ++i) {
    if (acceptResult(job, framed[i].second)) {
      if (keptCount++ != i)
        keptFramed.append(framed[i].first);
      continue;
    }
    ++resultsDuplicate_;
    if (keptCount == i) // the first repeat: what came before it is kept as it is
      keptFramed.assign(request.framed_results().data(), size_t(framed[i].first.data() - request.framed_results().data()));
  }
  if (keptCount)
    store_.addFramedResults(job.stored.id, first, int64_t(keptCount),
                            keptCount == framed.size() ? std::string_view(request.framed_results()) : keptFramed);
  accepted += uint32_t(keptCount);
  resultsAccepted_ += accepted;
  out.set_accepted(accepted);
  if (accepted)
    touch(job);
  return Status::OK;
}

Status Scheduler::itemDone(const v1::ItemDoneRequest &request) {
  std::lock_guard lock(mutex_);
  Status notOwned;
  Item *owned = ownedItem(request.worker_id(), request.item_id(), notOwned);
  if (!owned)
    return notOwned;
  Item &item = *owned;
  Job &job = jobs_[item.stored.jobId];
  if (auto w = workers_.find(item.worker); w != workers_.end()) {
    w->second.items.erase(item.stored.id);
    w->second.splitOutstanding = false; // a split request the item ended before answering
    w->second.itemsDone += request.failure().empty();
  }
  item.worker.clear();
  job.progress.erase(item.stored.id);
  --job.itemsRunning;
  if (!request.failure().empty()) {
    item.stored.state = ItemState::Cancelled;
    store_.putItem(item.stored);
    endJob(job, v1::JOB_FAILED, request.failure());
    return Status::OK;
  }
  item.stored.state = ItemState::Done;
  item.stored.counters = request.counters();
  item.stored.coverage = request.coverage();
  store_.putItem(item.stored);
  ++job.itemsDone;
  service::addCounters(job.doneCounters, request.counters());
  job.coverage.insert(request.coverage().lines().begin(), request.coverage().lines().end());
  job.branches.insert(request.coverage().branches().begin(), request.coverage().branches().end());
  job.linesTotal = std::max(job.linesTotal, request.coverage().lines_total());
  touch(job);
  endJobIfDone(job);
  return Status::OK;
}

void Scheduler::instruct(Worker &worker, v1::WorkerInstruction instruction) {
  worker.instructions.push_back(std::move(instruction));
  changed_.notify_all();
}

Status Scheduler::takeInstructions(const std::string &workerId, double seconds,
                                   std::vector<v1::WorkerInstruction> &out) {
  std::unique_lock lock(mutex_);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (;;) {
    Status unknown;
    Worker *w = findWorker(workerId, unknown); // looked up again after each wait: it may be lost
    if (!w)
      return unknown;
    if (!w->instructions.empty()) {
      for (v1::WorkerInstruction &i : w->instructions)
        out.push_back(std::move(i));
      w->instructions.clear();
      return Status::OK;
    }
    if (stopping_)
      return Status(StatusCode::UNAVAILABLE, "the coordinator is stopping");
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout)
      return Status::OK;
  }
}

Status Scheduler::splitOff(const v1::SplitOffRequest &request, v1::SplitOffResponse &out) {
  std::lock_guard lock(mutex_);
  if (auto w = workers_.find(request.worker_id()); w != workers_.end())
    w->second.splitOutstanding = false;
  Status notOwned;
  Item *owned = ownedItem(request.worker_id(), request.item_id(), notOwned);
  if (!owned)
    return notOwned;
  Item &item = *owned;
  Job &job = jobs_[item.stored.jobId];
  std::string parent = item.stored.id; // addItem may move `item`
  // One item for each worker with nothing to do, the states dealt out in turn: the engine lists
  // them shallowest first, so each item gets its share of the large subtrees.
  size_t idle = 0;
  for (const auto &[id, w] : workers_)
    idle += w.items.empty();
  const size_t groups = std::min<size_t>(std::max<size_t>(idle, 1), size_t(request.prefixes_size()));
  std::vector<std::vector<const v1::PathPrefix *>> dealt(groups);
  for (int i = 0; i < request.prefixes_size(); ++i)
    dealt[size_t(i) % groups].push_back(&request.prefixes(i));
  for (const std::vector<const v1::PathPrefix *> &prefixes : dealt)
    out.add_item_ids(addItem(job, prefixes, parent));
  return Status::OK;
}

void Scheduler::releaseItem(Item &item) {
  Job &job = jobs_[item.stored.jobId];
  item.stored.state = ItemState::Pending;
  item.worker.clear();
  store_.putItem(item.stored);
  job.pending.push_front(item.stored.id);
  --job.itemsRunning;
  job.progress.erase(item.stored.id);
  ++itemsReissued_;
  touch(job);
}

void Scheduler::checkWorkers() {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  const auto silence = std::chrono::duration<double>(3 * options_.heartbeatSeconds);
  for (auto it = workers_.begin(); it != workers_.end();) {
    Worker &w = it->second;
    if (now - w.lastSeen <= silence) {
      ++it;
      continue;
    }
    spdlog::warn("worker {} ({}) is silent: its {} items are explored again", w.id, w.name, w.items.size());
    const std::set<std::string> lost = std::move(w.items); // endJob below edits workers' sets
    w.items.clear();
    for (const std::string &id : lost) {
      Item &item = items_[id];
      Job &job = jobs_[item.stored.jobId];
      if (item.stored.state != ItemState::Running) // its job ended by an item before it
        continue;
      if (++item.losses < kMaxItemLosses) {
        releaseItem(item);
        continue;
      }
      // Handing it out again would take down the next worker as well.
      item.worker.clear();
      item.stored.state = ItemState::Cancelled;
      store_.putItem(item.stored);
      endJob(job, v1::JOB_FAILED,
             "work item " + id + " was lost with its worker " + std::to_string(item.losses) +
                 " times (each worker crashed or was killed while exploring it, perhaps out of memory: see "
                 "--max-memory); the results found so far are kept");
    }
    it = workers_.erase(it);
  }
  for (auto &[id, job] : jobs_) {
    if (job.stored.state == v1::JOB_RUNNING)
      recordHistory(job, false);
    double limit = job.stored.request.limits().max_time_s();
    if (!finished(job) && limit > 0 && job.stored.startedAt > 0 && nowSeconds() - job.stored.startedAt > limit)
      endJob(job, v1::JOB_CANCELLED, "the job's time limit of " + std::to_string(limit) + " s was reached");
  }
}

void Scheduler::stop() {
  std::lock_guard lock(mutex_);
  stopping_ = true;
  changed_.notify_all();
}

size_t Scheduler::workerCount() {
  std::lock_guard lock(mutex_);
  return workers_.size();
}

std::string Scheduler::metrics(bool perJob) {
  std::lock_guard lock(mutex_);
  std::string m;
  auto line = [&](const std::string &name, const std::string &type, const std::string &help,
                  const std::vector<std::pair<std::string, double>> &samples) {
    m += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    for (const auto &[labels, value] : samples) {
      char v[64];
      std::snprintf(v, sizeof v, "%.17g", value);
      m += name + labels + " " + v + "\n";
    }
  };
  std::map<v1::JobState, double> byState;
  double pending = 0, running = 0;
  for (int s = v1::JOB_QUEUED; s <= v1::JOB_FAILED; ++s)
    byState[v1::JobState(s)] = 0;
  std::vector<std::pair<std::string, double>> paths, instructions, tests;
  for (const auto &[id, job] : jobs_) {
    byState[job.stored.state] += 1;
    pending += double(job.pending.size());
    running += double(job.itemsRunning);
    v1::JobStatus st;
    fillStatus(job, st);
    std::string label = "{job=\"" + id + "\"}";
    paths.emplace_back(label, double(st.counters().paths_completed()));
    instructions.emplace_back(label, double(st.counters().instructions()));
    tests.emplace_back(label, double(st.counters().tests()));
  }
  std::vector<std::pair<std::string, double>> states;
  for (const auto &[s, n] : byState) {
    std::string name = v1::JobState_Name(s).substr(4); // without JOB_
    for (char &c : name)
      c = char(std::tolower(c));
    states.emplace_back("{state=\"" + name + "\"}", n);
  }
  line("cairn_jobs", "gauge", "Jobs by state.", states);
  line("cairn_workers", "gauge", "Registered workers.", {{"", double(workers_.size())}});
  line("cairn_items_pending", "gauge", "Work items waiting for a worker.", {{"", pending}});
  line("cairn_items_running", "gauge", "Work items being explored.", {{"", running}});
  line("cairn_results_accepted_total", "counter", "Results kept.", {{"", double(resultsAccepted_)}});
  line("cairn_results_duplicate_total", "counter", "Results dropped as repeats of a path or error location.",
       {{"", double(resultsDuplicate_)}});
  line("cairn_items_reissued_total", "counter", "Items handed out again after their worker was lost.",
       {{"", double(itemsReissued_)}});
  line("cairn_splits_requested_total", "counter", "Requests to a busy worker to split off work.",
       {{"", double(splitsRequested_)}});
  if (perJob) {
    line("cairn_job_paths_completed", "gauge", "Paths completed per job.", paths);
    line("cairn_job_instructions", "gauge", "Instructions executed per job.", instructions);
    line("cairn_job_tests", "gauge", "Tests per job.", tests);
  }
  return m;
}

} // namespace cairn::server
