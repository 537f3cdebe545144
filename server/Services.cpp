#include "Services.h"

#include "cairn/auth/BearerTokens.h"
#include "SourceAttachments.h"

#include "cairn/engine/BitcodeFile.h"
#include "cairn/engine/Program.h"
#include "cairn/engine/BranchTransform.h"
#include "cairn/engine/CoverageReport.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"
#include "cairn/service/ServiceMessages.h"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace cairn::server {

using grpc::ServerContext;
using grpc::Status;
using grpc::StatusCode;
namespace fs = std::filesystem;

namespace {

std::string digestOf(const std::string &bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx-%zx", (unsigned long long)h, bytes.size());
  return buf;
}

bool terminal(v1::JobState s) {
  return s == v1::JOB_COMPLETED || s == v1::JOB_CANCELLED || s == v1::JOB_FAILED;
}

} // namespace

Status JobsService::authenticate(ServerContext *context) const {
  return auth::checkBearerToken(*context, options_.tokens,
                          "a valid bearer token is required (authorization: Bearer TOKEN)");
}

Status JobsService::SubmitJob(ServerContext *context, const v1::SubmitJobRequest *request,
                              v1::SubmitJobResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  if (request->program().size() > options_.maxUploadBytes)
    return Status(StatusCode::RESOURCE_EXHAUSTED,
                  "the program is " + std::to_string(request->program().size()) +
                      " bytes, over this coordinator's upload limit of " +
                      std::to_string(options_.maxUploadBytes));
  size_t uploaded = request->program().size();
  for (const v1::MappedFile &f : request->options().files())
    uploaded += f.bytes().size();
  if (uploaded > options_.maxUploadBytes)
    return Status(StatusCode::RESOURCE_EXHAUSTED,
                  "the program and its --file files are " + std::to_string(uploaded) +
                      " bytes, over this coordinator's upload limit of " + std::to_string(options_.maxUploadBytes));
  if (request->program().empty())
    return Status(StatusCode::INVALID_ARGUMENT, "no program given");
  const std::string name = fs::path(request->file_name()).filename().string();
  const std::string ext = fs::path(name).extension().string();
  // Source is never compiled here: a compile on the coordinator would read the headers the
  // source names from the coordinator's own disk (and echo them back in its diagnostics).
  if (ext == ".c" || ext == ".i" || ext == ".h")
    return Status(StatusCode::INVALID_ARGUMENT,
                  "the coordinator accepts bitcode (.bc) or LLVM IR (.ll), not C source ('" + name +
                      "'); compile with cairn submit, which does it for you");
  if (ext != ".bc" && ext != ".ll")
    return Status(StatusCode::INVALID_ARGUMENT,
                  "file_name must end in .bc or .ll (it says what the program is), got '" +
                      request->file_name() + "'");
  if (!request->cflags().empty())
    return Status(StatusCode::INVALID_ARGUMENT,
                  "cflags apply to C source, which the client compiles; the coordinator takes bitcode");
  engine::ExecutorOptions checked;
  if (std::string why = service::toExecutorOptions(request->options(), checked); !why.empty())
    return Status(StatusCode::INVALID_ARGUMENT, why);
  if (request->limits().max_time_s() < 0)
    return Status(StatusCode::INVALID_ARGUMENT, "the job's time limit must not be negative");
  if (std::string why = checkSources(request->sources()); !why.empty())
    return Status(StatusCode::INVALID_ARGUMENT, why);

  // The program is loaded and linked with the runtime once here, so that a bad one is refused at
  // once with the loader's words, and every worker runs the same bitcode.
  fs::path dir = fs::path(options_.workDir) /
                 ("upload-" + std::to_string(::getpid()) + "-" + std::to_string(++uploads_));
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path file = dir / name;
  std::string bitcode;
  v1::ProgramLines lines;
  try {
    {
      std::ofstream out(file, std::ios::binary);
      out << request->program();
      if (!out)
        throw std::runtime_error("cannot write " + file.string());
    }
    engine::LoadOptions load;
    load.entry = request->entry().empty() ? "main" : request->entry();
    load.libc = checked.posix.libc;
    std::unique_ptr<engine::LoadedModule> module = engine::loadProgram(file.string(), load);
    // Transformed once, here: the workers run the melded bitcode, guards included.
    engine::transformBranches(*module, engine::startFunction(load), checked.transform);
    std::unique_ptr<engine::Program> program = engine::translateProgram(*module, engine::startFunction(load));
    // The line table the workers' coverage numbers refer to, for the job's coverage per file.
    lines = service::toMessage(engine::coverageTable(*program));
    bitcode = engine::moduleBitcode(*module);
  } catch (const std::exception &e) {
    fs::remove_all(dir, ec);
    std::string why = e.what();
    // The loader names the file by its temporary path; the user knows it by its own name.
    for (size_t at; (at = why.find(file.string())) != std::string::npos;)
      why.replace(at, file.string().size(), name);
    spdlog::info("job refused: {}", why);
    return Status(StatusCode::INVALID_ARGUMENT, why);
  }
  fs::remove_all(dir, ec);
  std::string digest = digestOf(bitcode);
  response->set_job_id(scheduler_.submit(*request, std::move(bitcode), std::move(digest), std::move(lines)));
  return Status::OK;
}

Status JobsService::GetJob(ServerContext *context, const v1::GetJobRequest *request, v1::JobStatus *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.status(request->job_id(), *response);
}

Status JobsService::WatchJob(ServerContext *context, const v1::WatchJobRequest *request,
                             grpc::ServerWriter<v1::JobEvent> *writer) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  uint64_t version = 0;
  uint32_t resultsSent = 0;
  for (;;) {
    v1::JobEvent event;
    if (Status s = scheduler_.status(request->job_id(), *event.mutable_status()); !s.ok())
      return s;
    if (!request->status_only()) {
      v1::ListResultsRequest since;
      since.set_job_id(request->job_id());
      since.set_offset(resultsSent);
      v1::ListResultsResponse fresh;
      scheduler_.results(since, fresh);
      for (v1::ResultSummary &r : *fresh.mutable_results())
        *event.add_new_results() = std::move(r);
      resultsSent += uint32_t(event.new_results_size());
    }
    if (!writer->Write(event))
      return Status::OK; // the client went away
    if (terminal(event.status().state()))
      return Status::OK;
    if (stopping_)
      return Status(StatusCode::UNAVAILABLE, "the coordinator is stopping");
    // A change, or a second: elapsed time and progress move on their own. At most twenty
    // events a second: a job reporting results in many small batches would otherwise have
    // every watcher rebuild its status for each of them.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    uint64_t next = scheduler_.waitForChange(request->job_id(), version, 1.0);
    version = next;
    if (context->IsCancelled())
      return Status::CANCELLED;
  }
}

Status JobsService::ListResults(ServerContext *context, const v1::ListResultsRequest *request,
                                v1::ListResultsResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.results(*request, *response);
}

Status JobsService::GetTest(ServerContext *context, const v1::GetTestRequest *request, v1::TestResult *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.test(request->job_id(), request->test_id(), *response);
}

Status JobsService::CancelJob(ServerContext *context, const v1::CancelJobRequest *request, v1::JobStatus *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.cancel(request->job_id(), "cancelled by a client", *response);
}

Status JobsService::ListJobs(ServerContext *context, const v1::ListJobsRequest *, v1::ListJobsResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  scheduler_.listJobs(*response);
  return Status::OK;
}

Status JobsService::GetCoverageReport(ServerContext *context, const v1::GetJobRequest *request,
                                      v1::CoverageReport *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.coverageReport(request->job_id(), *response->mutable_lcov());
}

Status JobsService::GetJobFiles(ServerContext *context, const v1::GetJobRequest *request, v1::JobFiles *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.files(request->job_id(), *response);
}

Status JobsService::GetReport(ServerContext *context, const v1::GetReportRequest *request, v1::Report *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.report(request->job_id(), request->format(), request->output_dir(), *response,
                           request->test_comp_spec());
}

Status CoordinatorService::RegisterWorker(ServerContext *context, const v1::RegisterWorkerRequest *request,
                                          v1::RegisterWorkerResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  *response = scheduler_.registerWorker(*request);
  return Status::OK;
}

Status CoordinatorService::Heartbeat(ServerContext *context, const v1::HeartbeatRequest *request,
                                     v1::HeartbeatResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.heartbeat(*request, *response);
}

Status CoordinatorService::GetWork(ServerContext *context, const v1::GetWorkRequest *request, v1::GetWorkResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.getWork(*request, *response);
}

Status CoordinatorService::ReportResults(ServerContext *context, const v1::ReportResultsRequest *request,
                                         v1::ReportResultsResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.reportResults(*request, *response);
}

Status CoordinatorService::ItemDone(ServerContext *context, const v1::ItemDoneRequest *request, v1::ItemDoneResponse *) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.itemDone(*request);
}

Status CoordinatorService::SplitOff(ServerContext *context, const v1::SplitOffRequest *request, v1::SplitOffResponse *response) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  return scheduler_.splitOff(*request, *response);
}

Status CoordinatorService::authenticate(ServerContext *context) const {
  return auth::checkBearerToken(*context, workerTokens_,
                          "a valid worker token is required (authorization: Bearer TOKEN): start "
                          "cairn-worker with --token-file FILE holding one of the tokens of the "
                          "coordinator's --worker-token-file");
}

Status CoordinatorService::WatchInstructions(ServerContext *context, const v1::WatchInstructionsRequest *request,
                                             grpc::ServerWriter<v1::WorkerInstruction> *writer) {
  if (Status s = authenticate(context); !s.ok())
    return s;
  while (!stopping_ && !context->IsCancelled()) {
    std::vector<v1::WorkerInstruction> instructions;
    // A bounded wait, so that a worker that went away is noticed.
    if (Status s = scheduler_.takeInstructions(request->worker_id(), 1.0, instructions); !s.ok())
      return s;
    for (const v1::WorkerInstruction &i : instructions)
      if (!writer->Write(i))
        return Status::OK; // the worker went away; a re-issued item carries no instruction
  }
  return Status(StatusCode::UNAVAILABLE, "the coordinator is stopping");
}

} // namespace cairn::server
