// What CI systems read of a job: its coverage in lcov's format and its findings as SARIF or
// JUnit, made with the writers `cairn run` uses, so that a job's files equal a run's for the same
// exploration. Each takes the Scheduler's lock once, copies what the report needs and writes it
// outside the lock.
#include "Scheduler.h"

#include "cairn/engine/CoverageReport.h"
#include "cairn/engine/FindingsReports.h"
#include "cairn/service/ServiceMessages.h"

#include <cstdio>

namespace cairn::server {

using grpc::Status;
using grpc::StatusCode;

namespace {

Status noJob(const std::string &jobId) { return Status(StatusCode::NOT_FOUND, "no job '" + jobId + "'"); }

// What a client may name its output directory: it is written into the report as it is.
bool acceptableOutputDir(const std::string &dir) {
  if (dir.size() > 4096)
    return false;
  for (unsigned char c : dir)
    if (c < 0x20 || c == 0x7f)
      return false;
  return true;
}

} // namespace

Status Scheduler::coverageReport(const std::string &jobId, std::string &lcov) {
  engine::CoverageTable table;
  std::vector<uint64_t> covered;
  std::vector<uint8_t> taken;
  {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(jobId);
    if (it == jobs_.end())
      return noJob(jobId);
    const Job &job = it->second;
    table = service::fromMessage(job.stored.lines);
    uint32_t branches = 0;
    for (const engine::CoverageTable::Decision &d : table.decisions)
      branches = std::max(branches, d.first + d.count);
    taken.assign(branches, 0);
    for (uint32_t b : job.branches)
      if (b < taken.size())
        taken[b] = 1;
    covered.assign(job.coverage.begin(), job.coverage.end());
  }
  lcov = engine::lcovReport(table, covered, taken);
  return Status::OK;
}

Status Scheduler::report(const std::string &jobId, v1::ReportFormat format, const std::string &outputDir,
                         v1::Report &out) {
  if (format == v1::REPORT_LCOV) {
    Status s = coverageReport(jobId, *out.mutable_text());
    out.set_media_type("text/plain");
    out.set_file_name(jobId + ".lcov");
    return s;
  }
  if (format != v1::REPORT_SARIF && format != v1::REPORT_JUNIT)
    return Status(StatusCode::INVALID_ARGUMENT, "unknown report format " + std::to_string(int(format)) +
                                                    " (REPORT_SARIF, REPORT_JUNIT or REPORT_LCOV)");
  if (!acceptableOutputDir(outputDir))
    return Status(StatusCode::INVALID_ARGUMENT, "output_dir must be at most 4096 bytes without control characters");
  v1::JobStatus status;
  engine::RecordedErrors errors; // each error's kept test, in result order: cairn results' names
  {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(jobId);
    if (it == jobs_.end())
      return noJob(jobId);
    const Job &job = it->second;
    fillStatus(job, status);
    for (size_t i = 0; i < job.summaries.size(); ++i) {
      const Job::Kept &kept = job.summaries[i];
      if (kept.error < 0)
        continue;
      char name[32];
      std::snprintf(name, sizeof name, "test%06zu.ktest", i + 1);
      errors.emplace_back(service::fromMessage(job.errors[size_t(kept.error)]), name);
    }
  }
  const engine::ReportContext context{status.name(), outputDir.empty() ? "cairn-job-" + jobId : outputDir,
                                      CAIRN_VERSION};
  if (format == v1::REPORT_SARIF) {
    out.set_text(engine::sarifReport(context, errors) + "\n");
    out.set_media_type("application/sarif+json");
    out.set_file_name(jobId + ".sarif");
  } else {
    out.set_text(engine::junitReport(context, service::statisticsOf(status), errors));
    out.set_media_type("application/xml");
    out.set_file_name(jobId + ".junit.xml");
  }
  return Status::OK;
}

} // namespace cairn::server
