// The dashboard's HTTP answers without a socket: its embedded files served open, job data only
// with one of the jobs API's tokens (when it has any), /metrics without the series that name
// jobs for a request without one, and nothing but the embedded files and the JSON at any path.
#include "Dashboard.h"
#include "JobStore.h"
#include "Scheduler.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

using namespace cairn;
using namespace cairn::server;
namespace fs = std::filesystem;

namespace {

class DashboardHttpTest : public ::testing::Test {
protected:
  fs::path db = fs::temp_directory_path() / ("cairn-dashboard-http-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db");
  void TearDown() override {
    for (const char *suffix : {"", "-wal", "-shm"})
      fs::remove(db.string() + suffix);
  }
  static HttpResponse get(Dashboard &d, const std::string &path, const std::string &authorization = "") {
    return d.serve(HttpRequest{path, authorization});
  }
};

TEST_F(DashboardHttpTest, TheEmbeddedFilesAreServedAsTheyAre) {
  for (const char *name : {"index.html", "app.js", "chart.js", "style.css"}) {
    const DashboardAsset *asset = findDashboardAsset(name);
    ASSERT_NE(asset, nullptr) << name;
    EXPECT_GT(asset->size, 100u) << name;
  }
  EXPECT_EQ(findDashboardAsset("../index.html"), nullptr);
  EXPECT_EQ(findDashboardAsset("embed.cmake"), nullptr);
  JobStore store(db.string());
  Scheduler scheduler(store, SchedulerOptions{});
  Dashboard d(scheduler, DashboardOptions{{"sesame"}, {}, {}});
  HttpResponse page = get(d, "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.contentType, "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("Cairn jobs"), std::string::npos);
  const DashboardAsset *script = findDashboardAsset("app.js");
  HttpResponse js = get(d, "/app.js");
  EXPECT_EQ(js.contentType, "text/javascript; charset=utf-8");
  EXPECT_EQ(js.body, std::string(reinterpret_cast<const char *>(script->data), script->size));
  // Nothing else: no file of the coordinator's disk at any path.
  for (const char *path : {"/../../etc/passwd", "/etc/passwd", "/dashboard/app.js", "/index.html/"})
    EXPECT_EQ(get(d, path).status, 404) << path;
}

TEST_F(DashboardHttpTest, JobDataNeedsAJobsApiToken) {
  JobStore store(db.string());
  Scheduler scheduler(store, SchedulerOptions{});
  v1::SubmitJobRequest request;
  request.set_file_name("secret-program.bc");
  const std::string job = scheduler.submit(request, "BC", "digest");
  Dashboard d(scheduler, DashboardOptions{{"sesame", "other"}, {}, {}});
  for (const std::string &path : {std::string("/api/jobs"), "/api/jobs/" + job, "/api/jobs/" + job + "/detail",
                                  "/api/jobs/" + job + "/history", "/api/jobs/" + job + "/files/0",
                                  "/api/jobs/" + job + "/tests/x.ktest", std::string("/api/workers"),
                                  std::string("/api/solver-pool"), std::string("/api/nothing")}) {
    for (const std::string &authorization : {std::string(), std::string("Bearer wrong"), std::string("sesame"),
                                             std::string("Basic sesame"), std::string("Bearer sesame ")}) {
      HttpResponse r = get(d, path, authorization);
      EXPECT_EQ(r.status, 401) << path << " with '" << authorization << "'";
      EXPECT_EQ(r.body.find(job), std::string::npos) << r.body;
      EXPECT_NE(r.extraHeaders.find("WWW-Authenticate: Bearer"), std::string::npos);
    }
  }
  HttpResponse jobs = get(d, "/api/jobs", "Bearer other");
  EXPECT_EQ(jobs.status, 200);
  EXPECT_NE(jobs.body.find("secret-program.bc"), std::string::npos) << jobs.body;
  EXPECT_EQ(get(d, "/api/jobs/" + job + "/detail", "Bearer sesame").status, 200);
  EXPECT_EQ(get(d, "/api/jobs/nope/detail", "Bearer sesame").status, 404);
  EXPECT_EQ(get(d, "/api/jobs/" + job + "/files/x", "Bearer sesame").status, 404);
  EXPECT_EQ(get(d, "/api/nothing", "Bearer sesame").status, 404);
  HttpResponse pool = get(d, "/api/solver-pool", "Bearer sesame");
  EXPECT_EQ(pool.status, 200);
  EXPECT_NE(pool.body.find("\"configured\":false"), std::string::npos) << pool.body;

  // /healthz is open; /metrics is, without the series that name jobs.
  EXPECT_EQ(get(d, "/healthz").body, "ok\n");
  HttpResponse anonymous = get(d, "/metrics");
  EXPECT_EQ(anonymous.status, 200);
  EXPECT_NE(anonymous.body.find("cairn_jobs{state=\"queued\"} 1"), std::string::npos) << anonymous.body;
  EXPECT_EQ(anonymous.body.find(job), std::string::npos) << anonymous.body;
  EXPECT_NE(get(d, "/metrics", "Bearer sesame").body.find("cairn_job_tests{job=\"" + job + "\"}"), std::string::npos);

  // Without tokens, everything is open, as the jobs API is.
  Dashboard open(scheduler, DashboardOptions{});
  EXPECT_EQ(get(open, "/api/jobs/" + job).status, 200);
  EXPECT_NE(get(open, "/metrics").body.find(job), std::string::npos);
}

} // namespace
