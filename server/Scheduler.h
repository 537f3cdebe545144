// The coordinator's state and decisions: jobs and their work items, registered workers, which
// item goes to which worker, moving work from the busiest worker to idle ones, re-issuing the
// items of lost workers, deduplicating results by path id, and job completion. Both gRPC
// services call into it; it writes every change through to the JobStore. Thread-safe.
#pragma once

#include "JobHistory.h"
#include "JobStore.h"
#include "PathIdIndex.h"

#include "cairn/v1/coordinator.pb.h"
#include "cairn/v1/dashboard.pb.h"
#include "cairn/v1/jobs.pb.h"

#include <grpcpp/support/status.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <string>
#include <vector>

namespace cairn::service {
struct ResultKey;
}

namespace cairn::server {

struct SchedulerOptions {
  double heartbeatSeconds = 1; // a worker silent for three intervals is lost
  // A split request not answered within this time may be made again.
  double splitAnswerSeconds = 2;
};

class Scheduler {
public:
  // Loads the store: unfinished jobs resume, items that were running are pending again.
  Scheduler(JobStore &store, SchedulerOptions options);

  // --- Jobs API ---
  // `lines`: the program's line table, for the dashboard's coverage per file.
  std::string submit(v1::SubmitJobRequest request, std::string bitcode, std::string digest,
                     v1::ProgramLines lines = {});
  grpc::Status status(const std::string &jobId, v1::JobStatus &out);
  // --- Reports for CI systems (SchedulerReports.cpp) ---
  // The job's coverage so far in lcov's format.
  grpc::Status coverageReport(const std::string &jobId, std::string &lcov);
  // A SARIF, JUnit or lcov report of the job so far, as `cairn results` writes it with its tests
  // in `outputDir` ("": cairn-job-ID), or its Test-Comp suite for `testCompSpec` ("": branch
  // coverage).
  grpc::Status report(const std::string &jobId, v1::ReportFormat format, const std::string &outputDir,
                      v1::Report &out, const std::string &testCompSpec = "");
  // Waits until the job changed after `version` or `seconds` pass; returns the new version.
  uint64_t waitForChange(const std::string &jobId, uint64_t version, double seconds);
  grpc::Status results(const v1::ListResultsRequest &request, v1::ListResultsResponse &out);
  grpc::Status test(const std::string &jobId, const std::string &testId, v1::TestResult &out);
  // The files the job maps into its runs (--file; SchedulerViews.cpp).
  grpc::Status files(const std::string &jobId, v1::JobFiles &out);
  grpc::Status cancel(const std::string &jobId, const std::string &why, v1::JobStatus &out);
  void listJobs(v1::ListJobsResponse &out);

  // --- Coordinator<->worker protocol ---
  v1::RegisterWorkerResponse registerWorker(const v1::RegisterWorkerRequest &request);
  grpc::Status heartbeat(const v1::HeartbeatRequest &request, v1::HeartbeatResponse &out);
  grpc::Status getWork(const v1::GetWorkRequest &request, v1::GetWorkResponse &out);
  grpc::Status reportResults(const v1::ReportResultsRequest &request, v1::ReportResultsResponse &out);
  grpc::Status itemDone(const v1::ItemDoneRequest &request);
  grpc::Status splitOff(const v1::SplitOffRequest &request, v1::SplitOffResponse &out);
  // Waits up to `seconds` for instructions to the worker and moves them to `out`.
  grpc::Status takeInstructions(const std::string &workerId, double seconds,
                                std::vector<v1::WorkerInstruction> &out);

  // Declares silent workers lost (their items pending again) and ends jobs over their time
  // limit. Called periodically.
  void checkWorkers();
  // Wakes every waiting call, for shutdown.
  void stop();

  // --- The dashboard's views (SchedulerViews.cpp); NOT_FOUND for an unknown job ---
  grpc::Status detail(const std::string &jobId, v1::JobDetail &out);
  grpc::Status history(const std::string &jobId, v1::JobHistory &out);
  // A source file of the program's line table with its coverage and attached text.
  grpc::Status file(const std::string &jobId, uint32_t index, v1::FileCoverage &out);
  // The test as `cairn results` writes it (testNNNNNN.ktest: its bytes and its name).
  grpc::Status ktest(const std::string &jobId, const std::string &testId, std::string &bytes, std::string &name);
  void workers(v1::ListWorkersResponse &out);

  // Prometheus text format; `perJob`: with each job's series (they name jobs).
  std::string metrics(bool perJob = true);
  size_t workerCount();

private:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t kHistorySamples = 600; // a job's history, at most (JobHistory thins it)
  struct Job {
    StoredJob stored;
    v1::Counters doneCounters;
    std::map<std::string, v1::Counters> progress; // running items' counters so far
    std::set<uint64_t> coverage;
    std::set<uint32_t> branches; // taken by some path
    uint32_t linesTotal = 0;
    // Every path reported, to its result's number (0: a repeated error's, not kept).
    PathIdIndex pathIds;
    std::set<std::string> errorLocations;
    std::vector<v1::ErrorReport> errors;
    // Per error, the distinct paths reported at its location (kept or not); after a restart the
    // count starts again from the kept test.
    std::vector<uint64_t> errorPaths;
    std::unordered_map<std::string, size_t> errorByLocation;
    // Sampled once a heartbeat interval (as often as the workers' progress comes in).
    JobHistory history;
    // Each kept result, in result order: what a results page lists, the rest made as it is asked.
    struct Kept {
      std::string testId;
      int32_t error = -1; // its index in `errors`
      bool partial = false;
    };
    std::deque<Kept> summaries; // a deque: no copies as it grows
    std::deque<std::string> pending;
    // The memory limit its options ask for (service::askedMemoryMB): 0 when they ask none.
    uint64_t memoryAskedMB = 0;
    size_t itemsTotal = 0, itemsDone = 0, itemsRunning = 0;
    uint64_t version = 1;
  };
  struct Item {
    StoredItem stored;
    std::string worker; // while running
    std::vector<std::string> children; // split off it
    // Workers lost while exploring it: one that crashes every worker it is handed to (the
    // kernel's out-of-memory killer, a solver's crash) ends its job after kMaxItemLosses.
    uint32_t losses = 0;
  };
  static constexpr uint32_t kMaxItemLosses = 3;
  struct Worker {
    std::string id, name;
    uint64_t maxMemoryMB = 0; // the most an item may use on it; 0: unknown (takes any)
    Clock::time_point lastSeen;
    uint64_t queueLength = 0;
    std::set<std::string> items;
    std::set<std::string> programs; // digests it has been sent
    std::vector<v1::WorkerInstruction> instructions;
    // A split request waits for its SplitOff: asking again before would split twice.
    bool splitOutstanding = false;
    Clock::time_point lastSplitRequest{};
    // Its running items' counters at the last heartbeat, for its rates between two heartbeats.
    Clock::time_point progressAt{};
    uint64_t progressInstructions = 0, progressPaths = 0;
    double instructionsPerSecond = 0, pathsPerSecond = 0;
    uint64_t itemsDone = 0;
  };

  std::string newId();
  static grpc::Status unknownJob(const std::string &jobId); // NOT_FOUND, naming it
  // NOT_FOUND in `error` when there is none.
  Worker *findWorker(const std::string &id, grpc::Status &error);
  Item *findItem(const std::string &id, grpc::Status &error);
  // The item `worker` explores now; else NOT_FOUND or FAILED_PRECONDITION in `error`.
  Item *ownedItem(const std::string &worker, const std::string &id, grpc::Status &error);
  bool finished(const Job &job) const;
  // Whether `worker` offers the memory the job's items may use.
  static bool fits(const Job &job, const Worker &worker);
  grpc::Status testCompReport(const std::string &jobId, const std::string &spec, v1::Report &out);
  // Why the job's pending items wait for a worker with more memory; "" when one fits.
  std::string waitingFor(const Job &job) const;
  std::string addItem(Job &job, const std::vector<const v1::PathPrefix *> &prefixes, const std::string &parent);
  void touch(Job &job);
  void fillStatus(const Job &job, v1::JobStatus &out) const;
  void saveJob(Job &job);
  void endJobIfDone(Job &job);
  void endJob(Job &job, v1::JobState state, const std::string &failure);
  void releaseItem(Item &item); // back to pending, for another worker
  void balance();
  void instruct(Worker &worker, v1::WorkerInstruction instruction);
  bool acceptResult(Job &job, const service::ResultKey &result);
  void addSummary(Job &job, const service::ResultKey &result);
  void recordHistory(Job &job, bool force);

  JobStore &store_;
  SchedulerOptions options_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Job> jobs_;
  std::map<std::string, Item> items_;
  std::map<std::string, Worker> workers_;
  int64_t nextSeq_ = 1;
  bool stopping_ = false;
  uint64_t resultsAccepted_ = 0, resultsDuplicate_ = 0, itemsReissued_ = 0, splitsRequested_ = 0;
};

double nowSeconds(); // since the epoch

} // namespace cairn::server
