// The coordinator's two gRPC services over the Scheduler: the jobs API (authenticated with a
// bearer token when one is configured; compiles and checks programs before queueing them) and
// the coordinator<->worker protocol (authenticated with a worker token when one is configured).
#pragma once

#include "Scheduler.h"

#include "cairn/v1/coordinator.grpc.pb.h"
#include "cairn/v1/jobs.grpc.pb.h"

#include <atomic>
#include <set>
#include <string>

namespace cairn::server {

struct JobsServiceOptions {
  std::set<std::string> tokens; // empty: no authentication
  size_t maxUploadBytes = 64 << 20;
  std::string workDir; // where uploaded bitcode is loaded
};

class JobsService final : public v1::Jobs::Service {
public:
  JobsService(Scheduler &scheduler, JobsServiceOptions options)
      : scheduler_(scheduler), options_(std::move(options)) {}
  void stop() { stopping_ = true; }

  grpc::Status SubmitJob(grpc::ServerContext *, const v1::SubmitJobRequest *, v1::SubmitJobResponse *) override;
  grpc::Status GetJob(grpc::ServerContext *, const v1::GetJobRequest *, v1::JobStatus *) override;
  grpc::Status GetCoverageReport(grpc::ServerContext *, const v1::GetJobRequest *, v1::CoverageReport *) override;
  grpc::Status GetReport(grpc::ServerContext *, const v1::GetReportRequest *, v1::Report *) override;
  grpc::Status GetJobFiles(grpc::ServerContext *, const v1::GetJobRequest *, v1::JobFiles *) override;
  grpc::Status WatchJob(grpc::ServerContext *, const v1::WatchJobRequest *, grpc::ServerWriter<v1::JobEvent> *) override;
  grpc::Status ListResults(grpc::ServerContext *, const v1::ListResultsRequest *, v1::ListResultsResponse *) override;
  grpc::Status GetTest(grpc::ServerContext *, const v1::GetTestRequest *, v1::TestResult *) override;
  grpc::Status CancelJob(grpc::ServerContext *, const v1::CancelJobRequest *, v1::JobStatus *) override;
  grpc::Status ListJobs(grpc::ServerContext *, const v1::ListJobsRequest *, v1::ListJobsResponse *) override;

private:
  grpc::Status authenticate(grpc::ServerContext *context) const;
  Scheduler &scheduler_;
  JobsServiceOptions options_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> uploads_{0};
};

class CoordinatorService final : public v1::Coordinator::Service {
public:
  // `workerTokens`: the bearer tokens workers must send; empty: the protocol is open.
  explicit CoordinatorService(Scheduler &scheduler, std::set<std::string> workerTokens = {})
      : scheduler_(scheduler), workerTokens_(std::move(workerTokens)) {}
  void stop() { stopping_ = true; }

  grpc::Status RegisterWorker(grpc::ServerContext *, const v1::RegisterWorkerRequest *, v1::RegisterWorkerResponse *) override;
  grpc::Status Heartbeat(grpc::ServerContext *, const v1::HeartbeatRequest *, v1::HeartbeatResponse *) override;
  grpc::Status GetWork(grpc::ServerContext *, const v1::GetWorkRequest *, v1::GetWorkResponse *) override;
  grpc::Status ReportResults(grpc::ServerContext *, const v1::ReportResultsRequest *, v1::ReportResultsResponse *) override;
  grpc::Status ItemDone(grpc::ServerContext *, const v1::ItemDoneRequest *, v1::ItemDoneResponse *) override;
  grpc::Status SplitOff(grpc::ServerContext *, const v1::SplitOffRequest *, v1::SplitOffResponse *) override;
  grpc::Status WatchInstructions(grpc::ServerContext *, const v1::WatchInstructionsRequest *,
                                 grpc::ServerWriter<v1::WorkerInstruction> *) override;

private:
  grpc::Status authenticate(grpc::ServerContext *context) const;
  Scheduler &scheduler_;
  std::set<std::string> workerTokens_;
  std::atomic<bool> stopping_{false};
};

} // namespace cairn::server
