#include "Dashboard.h"
#include "ZipArchive.h"

#include <google/protobuf/util/json_util.h>

#include <cstdio>

namespace cairn::server {

namespace {

const std::string kJson = "application/json";

std::string toJson(const google::protobuf::Message &m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, options);
  return out;
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      out += {'\\', char(c)};
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else
      out += char(c);
  }
  return out + "\"";
}

HttpResponse jsonError(int status, const std::string &message) {
  return {status, kJson, "{\"error\": " + jsonString(message) + "}\n", ""};
}

HttpResponse fromStatus(const grpc::Status &s, const google::protobuf::Message &m) {
  if (!s.ok())
    return jsonError(s.error_code() == grpc::StatusCode::NOT_FOUND ? 404 : 500, s.error_message());
  return {200, kJson, toJson(m), ""};
}

std::string contentTypeOf(const std::string &name) {
  auto ends = [&](const char *ext) {
    const std::string e(ext);
    return name.size() >= e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

} // namespace

Dashboard::Dashboard(Scheduler &scheduler, DashboardOptions options)
    : scheduler_(scheduler), tokens_(std::move(options.tokens)), pool_(std::move(options.solverPool), options.solverPoolToken) {}

bool Dashboard::authorized(const HttpRequest &request) const {
  if (tokens_.empty())
    return true;
  const std::string &value = request.authorization;
  return value.rfind("Bearer ", 0) == 0 && tokens_.count(value.substr(7));
}

HttpResponse Dashboard::serve(const HttpRequest &request) {
  const std::string &path = request.path;
  if (path == "/healthz")
    return {200, "text/plain; charset=utf-8", "ok\n", ""};
  if (path == "/metrics")
    return {200, "text/plain; version=0.0.4; charset=utf-8", scheduler_.metrics(authorized(request)), ""};
  if (path.rfind("/api/", 0) == 0) {
    if (!authorized(request)) {
      HttpResponse refused = jsonError(401, "a valid bearer token is required (Authorization: Bearer TOKEN)");
      refused.extraHeaders = "WWW-Authenticate: Bearer realm=\"cairn\"\r\n";
      return refused;
    }
    if (path == "/api/jobs") {
      v1::ListJobsResponse jobs;
      scheduler_.listJobs(jobs);
      return {200, kJson, toJson(jobs), ""};
    }
    if (path == "/api/workers") {
      v1::ListWorkersResponse workers;
      scheduler_.workers(workers);
      return {200, kJson, toJson(workers), ""};
    }
    if (path == "/api/solver-pool")
      return {200, kJson, toJson(pool_.query()), ""};
    if (path.rfind("/api/jobs/", 0) == 0)
      return job(path.substr(10));
    return jsonError(404, "no such endpoint");
  }
  const std::string name = path == "/" ? "index.html" : path.substr(1);
  if (const DashboardAsset *asset = findDashboardAsset(name))
    return {200, contentTypeOf(name), std::string(reinterpret_cast<const char *>(asset->data), asset->size), ""};
  return {404, "text/plain; charset=utf-8", "not found\n", ""};
}

// /api/jobs/ID, /api/jobs/ID/detail, .../history, .../files/N, .../tests/TESTID.ktest,
// .../coverage.lcov, .../report.sarif, .../report.junit.xml, .../test-suite.zip
HttpResponse Dashboard::job(const std::string &rest) {
  const size_t slash = rest.find('/');
  const std::string id = rest.substr(0, slash);
  const std::string what = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (what.empty()) {
    v1::JobStatus status;
    return fromStatus(scheduler_.status(id, status), status);
  }
  if (what == "detail") {
    v1::JobDetail detail;
    return fromStatus(scheduler_.detail(id, detail), detail);
  }
  if (what == "history") {
    v1::JobHistory history;
    return fromStatus(scheduler_.history(id, history), history);
  }
  if (what == "coverage.lcov" || what == "report.sarif" || what == "report.junit.xml") {
    const v1::ReportFormat format = what == "report.sarif"       ? v1::REPORT_SARIF
                                    : what == "report.junit.xml" ? v1::REPORT_JUNIT
                                                                 : v1::REPORT_LCOV;
    v1::Report report;
    grpc::Status s = scheduler_.report(id, format, "", report);
    if (!s.ok())
      return jsonError(404, s.error_message());
    const std::string type = report.media_type() == "text/plain" ? "text/plain; charset=utf-8" : report.media_type();
    return {200, type, std::move(*report.mutable_text()),
            "Content-Disposition: attachment; filename=\"" + report.file_name() + "\"\r\n"};
  }
  if (what == "test-suite.zip") { // Test-Comp's suite, as its archives hold it: test-suite/...
    v1::Report report;
    grpc::Status s = scheduler_.report(id, v1::REPORT_TEST_COMP, "", report);
    if (!s.ok())
      return jsonError(s.error_code() == grpc::StatusCode::FAILED_PRECONDITION ? 409 : 404, s.error_message());
    std::vector<std::pair<std::string, std::string>> files;
    for (v1::ReportFile &f : *report.mutable_files())
      files.emplace_back("test-suite/" + f.name(), std::move(*f.mutable_text()));
    try {
      return {200, "application/zip", zipArchive(files),
              "Content-Disposition: attachment; filename=\"" + report.file_name() + "\"\r\n"};
    } catch (const std::length_error &e) {
      return jsonError(413, std::string(e.what()) + ": cairn results --test-comp DIR writes the suite as files");
    }
  }
  if (what.rfind("files/", 0) == 0) {
    const std::string number = what.substr(6);
    if (number.empty() || number.size() > 9 || number.find_first_not_of("0123456789") != std::string::npos)
      return jsonError(404, "no such file");
    v1::FileCoverage file;
    return fromStatus(scheduler_.file(id, uint32_t(std::stoul(number)), file), file);
  }
  const std::string ktest = ".ktest";
  if (what.rfind("tests/", 0) == 0 && what.size() > 6 + ktest.size() &&
      what.compare(what.size() - ktest.size(), ktest.size(), ktest) == 0) {
    std::string bytes, name;
    grpc::Status s = scheduler_.ktest(id, what.substr(6, what.size() - 6 - ktest.size()), bytes, name);
    if (!s.ok())
      return jsonError(404, s.error_message());
    return {200, "application/octet-stream", std::move(bytes),
            "Content-Disposition: attachment; filename=\"" + name + "\"\r\n"};
  }
  return jsonError(404, "no such endpoint");
}

} // namespace cairn::server
