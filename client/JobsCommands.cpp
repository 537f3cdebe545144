#include "JobsCommands.h"

#include "AttachedSources.h"
#include "CommandLine.h"
#include "RunOutcome.h"
#include "TestCompOutput.h"

#include "cairn/engine/BitcodeFile.h"
#include "cairn/engine/BranchTransform.h"
#include "cairn/engine/EngineFlags.h"
#include "cairn/engine/RecordedBitcode.h"
#include "cairn/engine/OutputDirectory.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"
#include "cairn/service/ServiceMessages.h"
#include "cairn/v1/jobs.grpc.pb.h"

#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

namespace cairn::client {

namespace fs = std::filesystem;

const char *kJobsUsage = R"(jobs API (a cairn-server coordinator):
  cairn submit [job options] PROGRAM(.c|.bc|.ll|built with cairn cc) [-- program arguments]
                                                prints the job id (C source is compiled here,
                                                as cairn run does, and its bitcode uploaded; a
                                                cairn cc program's recorded bitcode goes up)
  cairn status [--json] JOB
  cairn wait [--timeout SECONDS] [--json] JOB   until the job ends; exit 0 when it completed
                                                (1 cancelled or failed, 3 timeout, 4 address-cache
                                                validation failed)
  cairn results [--output-dir DIR] [--sarif FILE] [--junit FILE] [--lcov FILE] JOB
                                                tests, errors and summary.json as cairn run writes them
                [--test-comp DIR [--program FILE [--entry NAME]] [--test-comp-spec TEXT]]
                                                and a Test-Comp suite, the metadata naming and
                                                hashing FILE (the program submitted; NAME where it
                                                started), else the job's attached source
  cairn cancel JOB
  common: --server HOST:PORT (default $CAIRN_SERVER, else 127.0.0.1:7470)
          --token-file FILE (default: the token in $CAIRN_TOKEN)   --tls-ca FILE (TLS roots)
  job options: the engine options of cairn run (--search --seed --solver --max-time
          --memory-model --merge-objects --size-model --address-aware-cache ... and --cflag
          --entry), checked by the coordinator, limits applying to each work item (not
          --output-dir --json --quiet --solver-pool); and:
          --name TEXT  --job-max-time SECONDS (the whole job)  --max-workers N
          --option FLAG (an engine flag as one word: --name or --name=value)
)";

namespace {

struct Connection {
  std::string server = "127.0.0.1:7470";
  std::string token;
  std::string tlsCa;
};


std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void addConnectionOptions(Connection &c, ValuedOptions &valued) {
  if (const char *env = std::getenv("CAIRN_SERVER"); env && *env)
    c.server = env;
  if (const char *env = std::getenv("CAIRN_TOKEN"); env && *env)
    c.token = env;
  valued["--server"] = [&](const std::string &v) { c.server = v; };
  valued["--token-file"] = [&](const std::string &v) {
    c.token = readFile(v);
    while (!c.token.empty() && std::isspace((unsigned char)c.token.back()))
      c.token.pop_back();
  };
  valued["--tls-ca"] = [&](const std::string &v) { c.tlsCa = v; };
}

std::unique_ptr<v1::Jobs::Stub> connect(const Connection &c) {
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (!c.tlsCa.empty()) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = readFile(c.tlsCa);
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(1 << 30);
  args.SetMaxSendMessageSize(1 << 30);
  return v1::Jobs::NewStub(grpc::CreateCustomChannel(c.server, credentials, args));
}

void prepare(grpc::ClientContext &context, const Connection &c, double seconds = 60) {
  if (!c.token.empty())
    context.AddMetadata("authorization", "Bearer " + c.token);
  if (seconds > 0)
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(int64_t(seconds * 1000)));
}

struct CallFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(const grpc::Status &s, const Connection &c) {
  if (s.ok())
    return;
  static const char *const names[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT",
                                      "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
                                      "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
                                      "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
                                      "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
  int code = int(s.error_code());
  std::string name = code >= 0 && code <= 16 ? names[code] : std::to_string(code);
  throw CallFailed(c.server + ": " + name + ": " + s.error_message());
}

std::string stateName(v1::JobState s) {
  std::string n = v1::JobState_Name(s);
  n = n.rfind("JOB_", 0) == 0 ? n.substr(4) : n;
  for (char &ch : n)
    ch = char(std::tolower(ch));
  return n;
}

std::string toJson(const google::protobuf::Message &m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions o;
  o.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, o);
  return out;
}

void printStatus(const v1::JobStatus &s, bool json) {
  if (json) {
    std::printf("%s\n", toJson(s).c_str());
    return;
  }
  const v1::Counters &c = s.counters();
  std::printf("job %s%s%s: %s%s%s\n", s.job_id().c_str(), s.name().empty() ? "" : " ", s.name().c_str(),
              stateName(s.state()).c_str(), s.failure().empty() ? "" : ": ", s.failure().c_str());
  std::printf("  paths %llu completed, %llu partial; %llu tests; %d errors; %llu instructions; "
              "lines %u/%u; items %u/%u done, %u running; %.1f s\n",
              (unsigned long long)c.paths_completed(), (unsigned long long)c.paths_partial(),
              (unsigned long long)c.tests(), s.errors_size(), (unsigned long long)c.instructions(),
              s.lines_covered(), s.lines_total(), s.items_done(), s.items_total(), s.items_running(),
              s.elapsed_s());
  if (!s.waiting().empty())
    std::printf("  waiting: %s\n", s.waiting().c_str());
  if (std::string note = memoryLimitNote(service::statisticsOf(c).memoryLimit); !note.empty())
    std::printf("  %s\n", note.c_str());
  if (c.has_size_bound()) {
    const v1::SizeBound &b = c.size_bound();
    std::printf("  %s\n", sizeBoundNote({b.capacity(), b.max_capacity(), b.paths_cut()}).c_str());
  }
  if (c.has_merging())
    std::printf("  %s\n", mergingNote(service::statisticsOf(c).merging).c_str());
  if (c.address_cache_mismatches())
    std::printf("  address-aware cache: %llu answers the solver contradicts\n",
                (unsigned long long)c.address_cache_mismatches());
  for (const v1::ErrorReport &e : s.errors())
    std::printf("  %s:%u: %s (%s/%s)\n", e.file().c_str(), e.line(), e.message().c_str(), e.type().c_str(),
                e.kind().c_str());
}

bool terminal(v1::JobState s) {
  return s == v1::JOB_COMPLETED || s == v1::JOB_CANCELLED || s == v1::JOB_FAILED;
}

std::string oneJob(const Arguments &p, const char *command) {
  if (p.positional.size() != 1)
    throw UsageError(std::string("cairn ") + command + " takes one job id");
  return p.positional[0];
}

int submit(std::vector<std::string> args) {
  Connection c;
  v1::SubmitJobRequest request;
  v1::RunOptions &o = *request.mutable_options();
  ValuedOptions valued;
  FlagOptions flags;
  // Engine flags travel as text: the coordinator checks them, and the workers parse them, with
  // the code `cairn run` uses. Flags of cairn run that make no sense for a job travel too, so
  // that the coordinator says why it refuses them.
  auto forward = [&o](const std::string &flag) { o.add_extra_flags(flag); };
  forwardEngineFlags(forward, valued, flags);
  valued["--output-dir"] = [&](const std::string &v) { forward("--output-dir=" + v); };
  // The coordinator reads no file of this machine: mapped files travel as their contents, the
  // list's locations one by one.
  engine::ExecutorOptions mapped; // only its files are read
  engine::EngineFlags mappedFlags(mapped);
  valued["--file"] = [&](const std::string &v) {
    if (std::string error = mappedFlags.setValue("--file", v); !error.empty())
      throw UsageError(error);
  };
  valued["--no-transform"] = [&](const std::string &v) {
    try {
      for (const std::string &location : engine::readLocationList(v))
        forward("--no-transform-at=" + location);
    } catch (const std::exception &e) {
      throw UsageError(std::string("--no-transform: ") + e.what());
    }
  };
  for (const char *local : {"--json", "--quiet"})
    flags[local] = [forward, local] { forward(local); };
  engine::LoadOptions load;
  valued["--cflag"] = [&](const std::string &v) { load.extraCFlags.push_back(v); };
  valued["--entry"] = [&](const std::string &v) {
    request.set_entry(v);
    load.entry = v;
  };
  valued["--name"] = [&](const std::string &v) { request.set_name(v); };
  valued["--job-max-time"] = [&](const std::string &v) {
    request.mutable_limits()->set_max_time_s(parseSeconds("--job-max-time", v));
  };
  valued["--max-workers"] = [&](const std::string &v) {
    request.mutable_limits()->set_max_workers(uint32_t(parseCount("--max-workers", v)));
  };
  valued["--option"] = forward;
  addConnectionOptions(c, valued);
  Arguments p = parseArguments(args, valued, flags);
  if (p.positional.empty())
    throw UsageError("cairn submit needs a program");
  const std::string program = p.positional[0];
  const fs::path programPath(program);
  // The flags as the coordinator will read them, for what the client does itself: compiling
  // against the libc the job runs with. The coordinator reports any that is wrong.
  engine::ExecutorOptions said;
  engine::EngineFlags saidFlags(said);
  for (const std::string &flag : o.extra_flags())
    saidFlags.setText(flag);
  // A program built with `cairn cc` was compiled against musl: it runs with the full libc, as
  // under cairn run; its recorded bitcode is what goes up.
  const bool asBuilt = engine::isNativeBinary(program);
  if (asBuilt && !saidFlags.given("--libc")) {
    forward("--libc=full");
    said.posix.libc = engine::LibcKind::Full;
  }
  load.libc = said.posix.libc;
  load.linkRuntime = false; // the coordinator links the runtime into every upload
  const bool source = programPath.extension() == ".c" || programPath.extension() == ".i";
  if (!source && !load.extraCFlags.empty())
    throw UsageError("--cflag applies to C source only; " + program + " is already compiled");
  if (source || asBuilt) {
    // Compiled here, beside the user's headers and with cairn run's flags, runtime headers and
    // --cflag: the coordinator accepts bitcode only, and never compiles.
    std::unique_ptr<engine::LoadedModule> module = engine::loadProgram(program, load);
    std::unique_ptr<engine::Program> translated = engine::translateProgram(*module, load.entry); // refused here, as cairn run would
    request.set_program(engine::moduleBitcode(*module));
    if (source) // the dashboard's snippets and coverage per file
      attachSources(request, programPath, *translated);
    request.set_file_name(programPath.stem().string() + ".bc");
    if (request.name().empty())
      request.set_name(programPath.filename().string());
  } else {
    request.set_program(readFile(program));
    request.set_file_name(programPath.filename().string());
  }
  for (const engine::MappedFile &f : mapped.posix.files) {
    v1::MappedFile &m = *o.add_files();
    m.set_name(f.name);
    m.set_bytes(f.bytes);
  }
  for (size_t i = 1; i < p.positional.size(); ++i)
    request.add_program_args(p.positional[i]);
  for (const std::string &a : p.afterDashes)
    request.add_program_args(a);
  if (request.name().empty())
    request.set_name(request.file_name());
  auto stub = connect(c);
  grpc::ClientContext context;
  prepare(context, c, 300); // the upload is loaded before the answer
  v1::SubmitJobResponse response;
  check(stub->SubmitJob(&context, request, &response), c);
  std::printf("%s\n", response.job_id().c_str());
  return 0;
}

int status(std::vector<std::string> args) {
  Connection c;
  bool json = false;
  ValuedOptions valued;
  addConnectionOptions(c, valued);
  Arguments p = parseArguments(args, valued, {{"--json", [&] { json = true; }}});
  v1::GetJobRequest request;
  request.set_job_id(oneJob(p, "status"));
  auto stub = connect(c);
  grpc::ClientContext context;
  prepare(context, c);
  v1::JobStatus s;
  check(stub->GetJob(&context, request, &s), c);
  printStatus(s, json);
  return 0;
}

int wait(std::vector<std::string> args) {
  Connection c;
  bool json = false;
  double timeout = 0;
  ValuedOptions valued = {
      {"--timeout", [&](const std::string &v) { timeout = parseSeconds("--timeout", v); }}};
  addConnectionOptions(c, valued);
  Arguments p = parseArguments(args, valued, {{"--json", [&] { json = true; }}});
  v1::WatchJobRequest request;
  request.set_job_id(oneJob(p, "wait"));
  request.set_status_only(true);
  auto stub = connect(c);
  const bool live = !json && ::isatty(2);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(int64_t(timeout * 1000));
  // A stream broken by a coordinator restart is opened again.
  for (;;) {
    grpc::ClientContext context;
    prepare(context, c, 0);
    if (timeout > 0)
      context.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
    auto reader = stub->WatchJob(&context, request);
    v1::JobEvent event;
    v1::JobStatus last;
    bool any = false;
    while (reader->Read(&event)) {
      last = event.status();
      any = true;
      if (live)
        std::fprintf(stderr, "\r\033[Kcairn: job %s %s: paths %llu, tests %llu, items %u/%u, %.0f s",
                     last.job_id().c_str(), stateName(last.state()).c_str(),
                     (unsigned long long)last.counters().paths_completed(),
                     (unsigned long long)last.counters().tests(), last.items_done(), last.items_total(),
                     last.elapsed_s());
    }
    grpc::Status s = reader->Finish();
    if (live)
      std::fputs("\r\033[K", stderr);
    if (any && terminal(last.state())) {
      printStatus(last, json);
      if (last.state() != v1::JOB_COMPLETED)
        return 1;
      return failsValidation(service::statisticsOf(last.counters())) ? kJobValidationMismatchExit : 0;
    }
    if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      std::fprintf(stderr, "cairn: job %s still running after %g s\n", request.job_id().c_str(), timeout);
      return 3;
    }
    if (s.error_code() != grpc::StatusCode::UNAVAILABLE && s.error_code() != grpc::StatusCode::CANCELLED &&
        s.error_code() != grpc::StatusCode::UNKNOWN)
      check(s, c);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

int results(std::vector<std::string> args) {
  Connection c;
  std::string outputDir, sarifFile, junitFile, lcovFile, testCompDir, programFile, entry = "main";
  std::string testCompSpec = engine::kTestCompCoverBranches;
  ValuedOptions valued = {{"--output-dir", [&](const std::string &v) { outputDir = v; }},
                          {"--sarif", [&](const std::string &v) { sarifFile = v; }},
                          {"--junit", [&](const std::string &v) { junitFile = v; }},
                          {"--lcov", [&](const std::string &v) { lcovFile = v; }},
                          {"--test-comp", [&](const std::string &v) { testCompDir = v; }},
                          {"--test-comp-spec", [&](const std::string &v) { testCompSpec = v; }},
                          {"--program", [&](const std::string &v) { programFile = v; }},
                          {"--entry", [&](const std::string &v) { entry = v; }}};
  addConnectionOptions(c, valued);
  Arguments p = parseArguments(args, valued, {});
  const std::string job = oneJob(p, "results");
  if (!testCompDir.empty())
    checkTestCompDirectory(testCompDir);
  auto stub = connect(c);
  v1::JobStatus status;
  {
    grpc::ClientContext context;
    prepare(context, c);
    v1::GetJobRequest request;
    request.set_job_id(job);
    check(stub->GetJob(&context, request, &status), c);
  }
  engine::OutputDirectory out(outputDir.empty() ? "cairn-job-" + job : outputDir);
  std::vector<std::string> argv = {status.file_name()};
  argv.insert(argv.end(), status.program_args().begin(), status.program_args().end());
  out.setProgramArgs(std::move(argv)); // recorded in every test, as cairn run does
  {
    grpc::ClientContext context;
    prepare(context, c);
    v1::GetJobRequest request;
    request.set_job_id(job);
    v1::JobFiles files;
    check(stub->GetJobFiles(&context, request, &files), c);
    std::vector<engine::MappedFile> mapped;
    for (const v1::MappedFile &f : files.files())
      mapped.push_back({f.name(), "", f.bytes()});
    out.keepMappedFiles(mapped); // files/NAME, which cairn replay lays out beside each test
  }
  uint32_t fetched = 0;
  for (;;) { // a page at a time
    grpc::ClientContext context;
    prepare(context, c);
    v1::ListResultsRequest request;
    request.set_job_id(job);
    request.set_offset(fetched);
    request.set_limit(1000);
    request.set_include_tests(true);
    v1::ListResultsResponse page;
    check(stub->ListResults(&context, request, &page), c);
    for (const v1::TestResult &t : page.tests())
      out.onTest(service::fromMessage(t));
    fetched += uint32_t(page.tests_size());
    if (page.tests_size() == 0 || fetched >= page.total())
      break;
  }
  const engine::RunStatistics stats = service::statisticsOf(status);
  std::string summary = out.writeSummary(stats);
  // The reports are the coordinator's, made as cairn run makes them, with the tests in `out`.
  for (const auto &[file, format, what] : {std::tuple{sarifFile, v1::REPORT_SARIF, "SARIF report"},
                                          std::tuple{junitFile, v1::REPORT_JUNIT, "JUnit report"},
                                          std::tuple{lcovFile, v1::REPORT_LCOV, "lcov report"}}) {
    if (file.empty())
      continue;
    grpc::ClientContext context;
    prepare(context, c);
    v1::GetReportRequest request;
    request.set_job_id(job);
    request.set_format(format);
    // SARIF's base of the tests' addresses is a file URI: the directory's absolute name.
    request.set_output_dir(format == v1::REPORT_SARIF ? fs::absolute(out.path()).string() : out.path());
    v1::Report report;
    check(stub->GetReport(&context, request, &report), c);
    writeReport(file, what, report.text());
  }
  // The metadata names and hashes the program: the file given with --program, or else the
  // source the job has attached (the coordinator makes that suite).
  // The engine runs 64-bit targets: a job's architecture is 64bit.
  if (!testCompDir.empty() && !programFile.empty()) {
    writeTestCompSuite(testCompDir, engine::testCompMetadata(programFile, entry, 64, testCompSpec, CAIRN_VERSION),
                       out.path(), out.errors(), true);
  } else if (!testCompDir.empty()) {
    grpc::ClientContext context;
    prepare(context, c);
    v1::GetReportRequest request;
    request.set_job_id(job);
    request.set_format(v1::REPORT_TEST_COMP);
    request.set_test_comp_spec(testCompSpec);
    v1::Report report;
    check(stub->GetReport(&context, request, &report), c);
    std::vector<std::pair<std::string, std::string>> files;
    for (const v1::ReportFile &f : report.files())
      files.emplace_back(f.name(), f.text());
    writeTestCompFiles(testCompDir, files, {report.skipped().begin(), report.skipped().end()});
  }
  std::ofstream log(out.path() + "/run.log");
  log << "cairn results " << job << " from " << c.server << "\njob " << status.name() << ": "
      << stateName(status.state()) << (status.failure().empty() ? "" : ": " + status.failure()) << "\nitems "
      << status.items_done() << "/" << status.items_total() << "\nsummary " << summary << "\n";
  std::fprintf(stderr, "cairn: %u tests of job %s (%s) in %s\n", fetched, job.c_str(),
               stateName(status.state()).c_str(), out.path().c_str());
  return failsValidation(stats) ? kJobValidationMismatchExit : 0;
}

int cancel(std::vector<std::string> args) {
  Connection c;
  ValuedOptions valued;
  addConnectionOptions(c, valued);
  Arguments p = parseArguments(args, valued, {});
  v1::CancelJobRequest request;
  request.set_job_id(oneJob(p, "cancel"));
  auto stub = connect(c);
  grpc::ClientContext context;
  prepare(context, c);
  v1::JobStatus s;
  check(stub->CancelJob(&context, request, &s), c);
  printStatus(s, false);
  return 0;
}

} // namespace

bool isJobsCommand(const std::string &command) {
  return command == "submit" || command == "status" || command == "wait" || command == "results" ||
         command == "cancel";
}

int jobsCommand(const std::string &command, std::vector<std::string> args) {
  try {
    if (command == "submit")
      return submit(std::move(args));
    if (command == "status")
      return status(std::move(args));
    if (command == "wait")
      return wait(std::move(args));
    if (command == "results")
      return results(std::move(args));
    return cancel(std::move(args));
  } catch (const CallFailed &e) {
    std::fprintf(stderr, "cairn: %s\n", e.what());
    return 1;
  }
}

} // namespace cairn::client
