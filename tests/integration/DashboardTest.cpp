// The dashboard as people see it: a coordinator with jobs API tokens, two workers and a solver
// pool replica on loopback run a program with errors (many_paths.c: 4096 paths in about two
// seconds, split across the workers, two error locations); headless Chromium renders the job page, an
// error's page and the workers page, each checked against the JSON API for the same job and
// photographed into the build tree (tests/dashboard-screenshots/). And attached sources: hostile
// names are refused, and the coordinator serves nothing of its own disk for a path the debug
// information names.
#include "ServiceCluster.h"

#include "cairn/v1/jobs.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>

using namespace cairn;
using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

std::string chromiumPath() {
  std::string chromium = "/usr/bin/chromium";
  if (const char *env = std::getenv("CAIRN_CHROMIUM"); env && *env)
    chromium = env;
  return ::access(chromium.c_str(), X_OK) == 0 ? chromium : "";
}

class DashboardTest : public ::testing::Test {
protected:
  fs::path dir = fs::path(::testing::TempDir()) / ("cairn-dashboard-" + std::to_string(::getpid()));
  void SetUp() override {
    fs::create_directories(dir);
    std::ofstream(dir / "tokens") << "sesame\n";
  }
  void TearDown() override { fs::remove_all(dir); }

  // Chromium with a profile of its own for this call only (in memory when /dev/shm is there),
  // its complaints (no D-Bus in a container, ...) kept out of the output.
  static CommandResult chromium(const std::vector<std::string> &mode, const std::string &url) {
    std::string base = fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path().string();
    std::string profile = base + "/cairn-chromium-XXXXXX";
    if (!::mkdtemp(profile.data()))
      return {};
    std::vector<std::string> argv = {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>/dev/null", chromiumPath(), "--headless",
                                     "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                                     "--user-data-dir=" + profile, "--window-size=1280,1600",
                                     "--virtual-time-budget=5000"};
    argv.insert(argv.end(), mode.begin(), mode.end());
    argv.push_back(url);
    CommandResult r = runCommand(argv);
    std::error_code ec;
    fs::remove_all(profile, ec);
    return r;
  }

  // Each `data-field="NAME"` element's text, in page order.
  static std::vector<std::string> fields(const std::string &dom, const std::string &name) {
    std::vector<std::string> out;
    std::regex re("data-field=\"" + name + "\"[^>]*>([^<]*)<");
    for (std::sregex_iterator it(dom.begin(), dom.end(), re), end; it != end; ++it)
      out.push_back(std::regex_replace((*it)[1].str(), std::regex(","), ""));
    return out;
  }
  static std::string field(const std::string &dom, const std::string &name) {
    std::vector<std::string> all = fields(dom, name);
    return all.empty() ? "(none)" : all.front();
  }
  static std::string jsonText(const std::string &json, const std::string &name) {
    std::smatch m;
    return std::regex_search(json, m, std::regex("\"" + name + "\": *\"([^\"]*)\"")) ? m[1].str() : "";
  }
  static size_t count(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
      ++n;
    return n;
  }

  // A PNG of the window's size with more than a few bytes of picture in it.
  static void expectScreenshot(const fs::path &png) {
    ASSERT_TRUE(fs::exists(png)) << png;
    std::ifstream in(png, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(bytes.size(), 24u) << png;
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << png;
    auto be32 = [&](size_t at) {
      return uint32_t(uint8_t(bytes[at])) << 24 | uint32_t(uint8_t(bytes[at + 1])) << 16 |
             uint32_t(uint8_t(bytes[at + 2])) << 8 | uint32_t(uint8_t(bytes[at + 3]));
    };
    EXPECT_EQ(be32(16), 1280u) << png; // IHDR's width and height
    EXPECT_EQ(be32(20), 1600u) << png;
    // A blank or error page compresses to a few kilobytes; a page of tables and charts does not.
    EXPECT_GT(bytes.size(), 40000u) << png;
  }
};

TEST_F(DashboardTest, JobErrorAndWorkersPagesInChromiumShowTheJsonApisNumbers) {
  if (chromiumPath().empty())
    GTEST_SKIP() << "no Chromium (/usr/bin/chromium or $CAIRN_CHROMIUM): deploy/bootstrap.sh test installs "
                    "Debian's chromium package when it can";
  ClusterOptions options;
  options.workers = 2;
  options.poolReplicas = 1;
  options.coordinatorKnowsPool = true;
  options.serverArgs = {"--token-file", (dir / "tokens").string()};
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  const std::string token = "--token-file=" + (dir / "tokens").string();
  const std::string program = std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c";
  CommandResult submitted = cluster.cairn("submit", {token, "--name", "many-paths", program});
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
  CommandResult waited = cluster.cairn("wait", {token, "--timeout", "60", job});
  ASSERT_EQ(waited.status, 0) << waited.output;

  const std::string dash = cluster.dashboard();
  const std::string detail = httpGet(dash, "/api/jobs/" + job + "/detail", "sesame");
  ASSERT_NE(detail.find("JOB_COMPLETED"), std::string::npos) << detail;
  const long long paths = jsonNumber(detail, "pathsCompleted"), tests = jsonNumber(detail, "tests");
  const long long covered = jsonNumber(detail, "linesCovered");
  const size_t errors = count(detail, "\"replayCommand\"");
  EXPECT_EQ(paths, 4096);
  EXPECT_EQ(errors, 2u);
  EXPECT_GT(covered, 0);
  const std::string firstFile = fs::path(jsonText(detail, "file")).filename().string();
  const long long firstLine = jsonNumber(detail, "line");
  const std::string firstReplay = jsonText(detail, "replayCommand");
  EXPECT_EQ(firstReplay.rfind("cairn replay many_paths.c test", 0), 0u) << firstReplay;
  EXPECT_EQ(firstFile, "many_paths.c") << detail;
  EXPECT_NE(detail.find("\"sourceName\":\"many_paths.c\""), std::string::npos) << detail;
  // Samples at the start, at each heartbeat interval (0.3 s here) and at the end.
  const std::string history = httpGet(dash, "/api/jobs/" + job + "/history", "sesame");
  EXPECT_GE(count(history, "\"tS\""), 3u) << history;

  const fs::path shots = CAIRN_DASHBOARD_SCREENSHOTS_DIR;
  fs::create_directories(shots);
  const std::string site = "http://" + dash + "/";

  // The job page: its numbers are the API's.
  const std::string jobUrl = site + "#/jobs/" + job + "?token=sesame";
  CommandResult page = chromium({"--dump-dom"}, jobUrl);
  ASSERT_EQ(page.status, 0) << page.output;
  EXPECT_EQ(field(page.output, "paths"), std::to_string(paths)) << page.output;
  EXPECT_EQ(field(page.output, "tests"), std::to_string(tests)) << page.output;
  EXPECT_EQ(field(page.output, "errors"), std::to_string(errors)) << page.output;
  EXPECT_EQ(field(page.output, "covered"), std::to_string(covered)) << page.output;
  std::vector<std::string> locations = fields(page.output, "error-location");
  ASSERT_EQ(locations.size(), errors) << page.output;
  EXPECT_EQ(locations.front(), firstFile + ":" + std::to_string(firstLine));
  EXPECT_NE(page.output.find("<svg"), std::string::npos) << page.output; // the charts
  EXPECT_NE(page.output.find(firstReplay), std::string::npos) << page.output;
  std::smatch link;
  ASSERT_TRUE(std::regex_search(page.output, link, std::regex("href=\"(/api/jobs/[^\"]+\\.ktest)\""))) << page.output;
  HttpReply ktest = httpFetch(dash, link[1].str(), "sesame");
  EXPECT_EQ(ktest.status, 200);
  EXPECT_EQ(ktest.body.substr(0, 5), "KTEST");
  EXPECT_NE(ktest.head.find("attachment; filename=\"test"), std::string::npos) << ktest.head;
  EXPECT_EQ(httpFetch(dash, link[1].str()).status, 401); // a test is job data too
  // The coverage download the page links: lcov whose line hits are the page's covered count.
  std::smatch lcovLink;
  ASSERT_TRUE(std::regex_search(page.output, lcovLink, std::regex("href=\"(/api/jobs/[^\"]+/coverage\\.lcov)\"")))
      << page.output;
  HttpReply lcov = httpFetch(dash, lcovLink[1].str(), "sesame");
  EXPECT_EQ(lcov.status, 200);
  EXPECT_NE(lcov.head.find("attachment; filename=\"" + job + ".lcov\""), std::string::npos) << lcov.head;
  size_t linesHit = 0;
  for (size_t at = 0; (at = lcov.body.find("\nLH:", at)) != std::string::npos; at += 4)
    linesHit += std::stoul(lcov.body.substr(at + 4));
  EXPECT_EQ(linesHit, covered) << lcov.body;
  EXPECT_NE(lcov.body.find("BRDA:"), std::string::npos) << lcov.body;
  EXPECT_EQ(httpFetch(dash, lcovLink[1].str()).status, 401);
  // The findings for CI systems the page links: a SARIF result and a JUnit failure per error
  // location, naming the tests as cairn results does.
  std::smatch sarifLink, junitLink;
  ASSERT_TRUE(std::regex_search(page.output, sarifLink, std::regex("href=\"(/api/jobs/[^\"]+/report\\.sarif)\"")))
      << page.output;
  ASSERT_TRUE(std::regex_search(page.output, junitLink, std::regex("href=\"(/api/jobs/[^\"]+/report\\.junit\\.xml)\"")))
      << page.output;
  HttpReply sarif = httpFetch(dash, sarifLink[1].str(), "sesame");
  EXPECT_EQ(sarif.status, 200);
  EXPECT_NE(sarif.head.find("application/sarif+json"), std::string::npos) << sarif.head;
  EXPECT_NE(sarif.head.find("attachment; filename=\"" + job + ".sarif\""), std::string::npos) << sarif.head;
  EXPECT_EQ(count(sarif.body, "\"ruleId\""), errors) << sarif.body;
  EXPECT_NE(sarif.body.find("the directory of the tests: cairn-job-" + job + "/"), std::string::npos) << sarif.body;
  HttpReply junit = httpFetch(dash, junitLink[1].str(), "sesame");
  EXPECT_EQ(junit.status, 200);
  EXPECT_NE(junit.head.find("attachment; filename=\"" + job + ".junit.xml\""), std::string::npos) << junit.head;
  EXPECT_NE(junit.body.find("failures=\"" + std::to_string(errors) + "\""), std::string::npos) << junit.body;
  EXPECT_EQ(httpFetch(dash, sarifLink[1].str()).status, 401);
  EXPECT_EQ(httpFetch(dash, junitLink[1].str()).status, 401);
  ASSERT_EQ(chromium({"--screenshot=" + (shots / "job.png").string()}, jobUrl).status, 0);
  expectScreenshot(shots / "job.png");

  // The first error's page: its location, the source line, the stack and the replay command.
  const std::string errorUrl = site + "#/jobs/" + job + "/errors/0?token=sesame";
  page = chromium({"--dump-dom"}, errorUrl);
  ASSERT_EQ(page.status, 0) << page.output;
  EXPECT_EQ(field(page.output, "error-location"), firstFile + ":" + std::to_string(firstLine)) << page.output;
  std::smatch hit;
  ASSERT_TRUE(std::regex_search(page.output, hit, std::regex("<tr class=\"hit\"><th scope=\"row\" class=\"ln\">([0-9]+)</th>")))
      << page.output;
  EXPECT_EQ(hit[1].str(), std::to_string(firstLine));
  EXPECT_NE(page.output.find("class=\"stack\""), std::string::npos) << page.output;
  EXPECT_NE(page.output.find(firstReplay), std::string::npos) << page.output;
  ASSERT_EQ(chromium({"--screenshot=" + (shots / "error.png").string()}, errorUrl).status, 0);
  expectScreenshot(shots / "error.png");

  // The workers page: the worker of /api/workers with its items done, and the pool's cache.
  const std::string workers = httpGet(dash, "/api/workers", "sesame");
  const std::string workerId = jsonText(workers, "workerId");
  ASSERT_FALSE(workerId.empty()) << workers;
  const std::string workersUrl = site + "#/workers?token=sesame";
  page = chromium({"--dump-dom"}, workersUrl);
  ASSERT_EQ(page.status, 0) << page.output;
  EXPECT_NE(page.output.find("data-worker=\"" + workerId + "\""), std::string::npos) << page.output;
  EXPECT_EQ(field(page.output, "items-done"), std::to_string(jsonNumber(workers, "itemsDone"))) << page.output;
  const std::string pool = httpGet(dash, "/api/solver-pool", "sesame");
  EXPECT_NE(pool.find("\"reachable\":true"), std::string::npos) << pool;
  EXPECT_NE(field(page.output, "pool-hit-rate"), "(none)") << page.output;
  ASSERT_EQ(chromium({"--screenshot=" + (shots / "workers.png").string()}, workersUrl).status, 0);
  expectScreenshot(shots / "workers.png");

  // Without a token the page asks for one and shows no job.
  page = chromium({"--dump-dom"}, site + "#/jobs/" + job);
  ASSERT_EQ(page.status, 0) << page.output;
  EXPECT_NE(page.output.find("id=\"token-form\""), std::string::npos) << page.output;
  EXPECT_EQ(page.output.find("many-paths"), std::string::npos) << page.output;
}

// The dashboard with the keyboard alone (tests/integration/dashboard_keyboard.py presses the
// keys in Chromium over the DevTools protocol): the sign-in field has focus and takes the token;
// the skip link is the first stop and moves to the content; every link and control of the job
// page is a Tab stop, ringed and on screen, in reading order; focus stays put while the numbers
// update; Enter on an error's link opens its page with focus on its heading, and Shift+Tab,
// Enter leads back to the job. And the page's accessibility tree, what a screen reader reads.
TEST_F(DashboardTest, TheJobPageWorksWithTheKeyboardAlone) {
  if (chromiumPath().empty())
    GTEST_SKIP() << "no Chromium (/usr/bin/chromium or $CAIRN_CHROMIUM)";
  if (runCommand({"/usr/bin/python3", "-c", "import websocket"}).status != 0)
    GTEST_SKIP() << "no python3-websocket (deploy/bootstrap.sh test installs it)";
  ClusterOptions options;
  options.workers = 2;
  options.poolReplicas = 0;
  options.serverArgs = {"--token-file", (dir / "tokens").string()};
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  const std::string token = "--token-file=" + (dir / "tokens").string();
  CommandResult submitted = cluster.cairn(
      "submit", {token, "--name", "many-paths", std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c"});
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
  ASSERT_EQ(cluster.cairn("wait", {token, "--timeout", "60", job}).status, 0);
  const std::string detail = httpGet(cluster.dashboard(), "/api/jobs/" + job + "/detail", "sesame");
  ASSERT_EQ(count(detail, "\"replayCommand\""), 2u) << detail;

  CommandResult used = runCommand({"/usr/bin/python3", std::string(CAIRN_INTEGRATION_DIR) + "/dashboard_keyboard.py",
                                   chromiumPath(), "http://" + cluster.dashboard() + "/", job, "sesame"});
  ASSERT_EQ(used.status, 0) << used.output;
  const std::string &facts = used.output;
  auto fact = [&](const std::string &name, const std::string &value) {
    EXPECT_NE(facts.find("\"" + name + "\": " + value), std::string::npos) << name << " is not " << value << ": " << facts;
  };
  fact("signin_focus", "\"input#token-input\"");
  fact("signin_ring", "true");
  fact("signin_loaded", "true");
  fact("skip_first", "\"Skip to content\"");
  fact("skip_ring", "true");
  fact("skip_on_screen", "true");
  fact("skip_after", "\"main#main\"");
  fact("stops_without_ring", "[]");
  fact("stops_off_screen", "[]");
  fact("kept", "\"dl-sarif\"");
  // What a screen reader meets: the four landmarks, a name for every link, table, text field and
  // chart (the four charts are images with their numbers as the name), and the sections' headings.
  fact("landmarks", "[\"banner\", \"contentinfo\", \"main\", \"navigation\"]");
  fact("unnamed", "[]");
  fact("images", "4");
  EXPECT_GE(jsonNumber(facts, "headings"), 6) << facts;
  // The job page's links, in reading order: the crumb, each error's location and test, the
  // reports, the file, the coverage download.
  const std::string api = "/api/jobs/" + job, route = "#/jobs/" + job;
  size_t at = facts.find("\"stops\": [");
  ASSERT_NE(at, std::string::npos) << facts;
  for (const std::string &stop : {std::string("#/"), route + "/errors/0", api + "/tests/", route + "/errors/1",
                                  api + "/tests/", api + "/report.sarif", api + "/report.junit.xml",
                                  api + "/test-suite.zip", route + "/files/0", api + "/coverage.lcov"}) {
    const size_t next = facts.find("\"" + stop, at);
    ASSERT_NE(next, std::string::npos) << "no Tab stop " << stop << " after the ones before it: " << facts;
    at = next + 1;
  }
  fact("opened_link", "\"" + route + "/errors/1\"");
  fact("opened_hash", "\"" + route + "/errors/1\"");
  fact("opened_focus", "\"h1#error-title\"");
  fact("back_link", "\"" + route + "\"");
  fact("back_hash", "\"" + route + "\"");
  fact("back_focus", "\"h1#job-title\"");
}

// Attached sources are names the client chose, never paths the coordinator opens: absolute and
// `..` names are refused (with nothing of the named file in the answer), and a program whose debug
// information names a host file gets no text for it.
TEST_F(DashboardTest, HostileSourceNamesAreRefusedAndNothingOfTheHostIsServed) {
  ClusterOptions options;
  options.workers = 1;
  options.poolReplicas = 0;
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  auto stub = v1::Jobs::NewStub(grpc::CreateChannel(cluster.server(), grpc::InsecureChannelCredentials()));
  std::ifstream passwd("/etc/passwd");
  std::string firstLine;
  std::getline(passwd, firstLine);
  for (const char *name : {"/etc/passwd", "../../../../../../etc/passwd", "src/../../etc/passwd", "a\\..\\b.c"}) {
    v1::SubmitJobRequest request;
    request.set_file_name("prog.bc");
    request.set_program("BC\xc0\xde not loaded: the sources are checked first");
    v1::SourceFile &source = *request.add_sources();
    source.set_name(name);
    grpc::ClientContext context;
    v1::SubmitJobResponse response;
    grpc::Status s = stub->SubmitJob(&context, request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
    EXPECT_NE(s.error_message().find("attached source"), std::string::npos) << s.error_message();
    if (!firstLine.empty()) {
      EXPECT_EQ(s.error_message().find(firstLine), std::string::npos) << s.error_message();
    }
  }

  // The debug information says the program is /etc/passwd: the dashboard lists that path, with
  // no text (cairn submit attached only the program's own file, which is not that path).
  const fs::path prog = dir / "pretender.c";
  std::ofstream(prog) << "#line 1 \"/etc/passwd\"\nint main(void) {\n  return 0;\n}\n";
  CommandResult submitted = cluster.cairn("submit", {prog.string()});
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
  ASSERT_EQ(cluster.cairn("wait", {"--timeout", "60", job}).status, 0);
  const std::string detail = httpGet(cluster.dashboard(), "/api/jobs/" + job + "/detail");
  EXPECT_NE(detail.find("\"path\":\"/etc/passwd\""), std::string::npos) << detail;
  const std::string file = httpGet(cluster.dashboard(), "/api/jobs/" + job + "/files/0");
  EXPECT_NE(file.find("\"path\":\"/etc/passwd\""), std::string::npos) << file;
  EXPECT_NE(file.find("\"text\":\"\""), std::string::npos) << file;
  if (!firstLine.empty()) {
    EXPECT_EQ(file.find(firstLine.substr(0, firstLine.find(':') + 1)), std::string::npos) << file;
  }
  // Paths of the API that are not job numbers or names are not files either.
  for (const std::string &path : {"/api/jobs/" + job + "/files/..%2F..%2Fetc%2Fpasswd", std::string("/../../etc/passwd"),
                                  std::string("/etc/passwd"), "/api/jobs/" + job + "/files/-1"}) {
    HttpReply r = httpFetch(cluster.dashboard(), path);
    EXPECT_EQ(r.status, 404) << path;
    if (!firstLine.empty()) {
      EXPECT_EQ(r.body.find(firstLine), std::string::npos) << path;
    }
  }
}

} // namespace
