// What CI systems read of a job: its coverage in lcov's format, its findings as SARIF or JUnit,
// and its Test-Comp suite, made with the writers `cairn run` uses, so that a job's files equal a
// run's for the same exploration. Each takes the Scheduler's lock once, copies what the report needs and writes it
// outside the lock.
#include "JobViews.h"
#include "Scheduler.h"

#include "cairn/engine/CoverageReport.h"
#include "cairn/engine/FindingsReports.h"
#include "cairn/engine/TestCompReport.h"
#include "cairn/service/ServiceMessages.h"

#include <cstdio>

namespace cairn::server {

using grpc::Status;
using grpc::StatusCode;

namespace {

std::string testFileName(size_t index) { return testName(index) + ".ktest"; }

// What a client may give as the tests' directory or a suite's property: it is written into the
// report as it is.
bool acceptableText(const std::string &text) {
  if (text.size() > 4096)
    return false;
  for (unsigned char c : text)
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
      return unknownJob(jobId);
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
                         v1::Report &out, const std::string &testCompSpec) {
  if (format == v1::REPORT_TEST_COMP) {
    if (!acceptableText(testCompSpec))
      return Status(StatusCode::INVALID_ARGUMENT, "test_comp_spec must be at most 4096 bytes without control characters");
    return testCompReport(jobId, testCompSpec, out);
  }
  if (format == v1::REPORT_LCOV) {
    Status s = coverageReport(jobId, *out.mutable_text());
    out.set_media_type("text/plain");
    out.set_file_name(jobId + ".lcov");
    return s;
  }
  if (format != v1::REPORT_SARIF && format != v1::REPORT_JUNIT)
    return Status(StatusCode::INVALID_ARGUMENT, "unknown report format " + std::to_string(int(format)) +
                                                    " (REPORT_SARIF, REPORT_JUNIT, REPORT_LCOV or REPORT_TEST_COMP)");
  if (!acceptableText(outputDir))
    return Status(StatusCode::INVALID_ARGUMENT, "output_dir must be at most 4096 bytes without control characters");
  v1::JobStatus status;
  engine::RecordedErrors errors; // each error's kept test, in result order: cairn results' names
  {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(jobId);
    if (it == jobs_.end())
      return unknownJob(jobId);
    const Job &job = it->second;
    fillStatus(job, status);
    for (size_t i = 0; i < job.summaries.size(); ++i) {
      const Job::Kept &kept = job.summaries[i];
      if (kept.error < 0)
        continue;
      errors.emplace_back(service::fromMessage(job.errors[size_t(kept.error)]), testFileName(i));
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

// The program a suite names and hashes is the job's attached main source (cairn submit attaches
// the .c it compiled): the coordinator has the bitcode, not the file.
Status Scheduler::testCompReport(const std::string &jobId, const std::string &spec, v1::Report &out) {
  std::string programName, programText, entry;
  std::vector<std::pair<std::string, KTest>> tests;
  engine::RecordedErrors errors;
  {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(jobId);
    if (it == jobs_.end())
      return unknownJob(jobId);
    const Job &job = it->second;
    const v1::SubmitJobRequest &request = job.stored.request;
    if (request.sources().empty())
      return Status(StatusCode::FAILED_PRECONDITION,
                    "job " + jobId + " has no attached source for the suite's metadata to name and hash (a "
                    "program submitted as bitcode): use cairn results --test-comp DIR --program FILE");
    programName = request.sources(0).name();
    programText = request.sources(0).text();
    entry = request.entry().empty() ? "main" : request.entry();
    for (size_t i = 0; i < job.summaries.size(); ++i)
      if (job.summaries[i].error >= 0)
        errors.emplace_back(service::fromMessage(job.errors[size_t(job.summaries[i].error)]), testFileName(i));
    store_.forEachResult(jobId, 0, 0, [&](int64_t seq, const v1::TestResult &r) {
      tests.emplace_back(testFileName(size_t(seq - 1)), ktestOf(request, r));
    });
  }
  // The engine runs 64-bit targets: a job's architecture is 64bit.
  const engine::TestCompMetadata metadata = engine::testCompMetadata(
      programName, programText, entry, 64, spec.empty() ? engine::kTestCompCoverBranches : spec, CAIRN_VERSION);
  const engine::TestCompSuite suite = engine::testCompSuite(metadata, tests, errors);
  if (suite.testsWithInputs == 0)
    return Status(StatusCode::FAILED_PRECONDITION,
                  "job " + jobId + ": no test holds a __VERIFIER_nondet_* input, the only inputs Test-Comp's test "
                                   "cases hold");
  for (const auto &[name, text] : suite.files) {
    v1::ReportFile &f = *out.add_files();
    f.set_name(name);
    f.set_text(text);
  }
  out.mutable_skipped()->Add(suite.skipped.begin(), suite.skipped.end());
  out.set_media_type("application/xml");
  out.set_file_name(jobId + ".test-suite.zip");
  return Status::OK;
}

} // namespace cairn::server
