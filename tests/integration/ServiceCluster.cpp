#include "ServiceCluster.h"

#include <algorithm>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace cairn::testing {

Cluster::Cluster(fs::path dir, ClusterOptions options) : dir_(std::move(dir)), options_(std::move(options)) {
  fs::remove_all(dir_);
  fs::create_directories(dir_);
  for (size_t i = 0; i < options_.poolReplicas; ++i) {
    pool_.push_back(std::make_unique<PoolProcess>(std::vector<std::string>{"--threads", "1"}));
    poolList_ += (i ? "," : "") + pool_.back()->endpoint();
  }
  if (!startCoordinator("127.0.0.1:0", "127.0.0.1:0"))
    return;
  for (size_t i = 0; i < options_.workers; ++i)
    addWorker();
}

Cluster::~Cluster() {
  workers_.clear();
  coordinator_.reset();
  pool_.clear();
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

bool Cluster::startCoordinator(const std::string &listen, const std::string &http) {
  std::vector<std::string> argv = {CAIRN_SERVER_BIN, "--listen", listen, "--http", http,
                                   "--db", (dir_ / "jobs.db").string(), "--heartbeat", std::to_string(options_.heartbeatSeconds),
                                   "--work-dir", dir_.string(), "--log-level", "warn"};
  argv.insert(argv.end(), options_.serverArgs.begin(), options_.serverArgs.end());
  if (options_.coordinatorKnowsPool && !poolList_.empty())
    argv.insert(argv.end(), {"--solver-pool", poolList_, "--solver-pool-token-file", testPoolTokenFile()});
  const bool tls = !options_.tlsCert.empty();
  if (tls)
    argv.insert(argv.end(), {"--tls-cert", options_.tlsCert, "--tls-key", options_.tlsKey});
  coordinator_ = std::make_unique<Daemon>(argv, "listening on ", !tls);
  if (!coordinator_->ready())
    return false;
  server_ = coordinator_->endpoint();
  std::string line = coordinator_->nextLine(10);
  std::smatch m;
  if (std::regex_search(line, m, std::regex("http://([^/]+)/")))
    dashboard_ = m[1];
  return true;
}

bool Cluster::restartCoordinator() {
  coordinator_->kill();
  return startCoordinator(server_, dashboard_.empty() ? "off" : dashboard_);
}

bool Cluster::addWorker(const std::vector<std::string> &extraArgs) {
  std::vector<std::string> argv = {CAIRN_WORKER_BIN, "--server", server_, "--health-listen",
                                   "127.0.0.1:0", "--log-level", "warn"};
  if (!poolList_.empty()) {
    argv.insert(argv.end(), {"--solver-pool", poolList_, "--solver-pool-token-file", testPoolTokenFile()});
  }
  if (!options_.tlsCa.empty())
    argv.insert(argv.end(), {"--tls-ca", options_.tlsCa});
  argv.insert(argv.end(), options_.workerArgs.begin(), options_.workerArgs.end());
  argv.insert(argv.end(), extraArgs.begin(), extraArgs.end());
  // A coordinator given no worker tokens makes its own beside its job store; the workers take it.
  auto given = [](const std::vector<std::string> &args, const char *flag) {
    return std::find(args.begin(), args.end(), flag) != args.end();
  };
  if (!given(options_.workerArgs, "--token-file") && !given(options_.serverArgs, "--worker-token-file") &&
      !given(options_.serverArgs, "--open-workers"))
    argv.insert(argv.end(), {"--token-file", defaultWorkerTokenFile().string()});
  workers_.push_back(std::make_unique<Daemon>(argv, "health on "));
  return workers_.back()->ready();
}

bool Cluster::ready() const {
  if (!coordinator_ || !coordinator_->ready())
    return false;
  for (const auto &p : pool_)
    if (!p->ready())
      return false;
  for (const auto &w : workers_)
    if (!w->ready())
      return false;
  return true;
}

CommandResult runWithStderr(const std::vector<std::string> &argv) {
  std::vector<std::string> shell = {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>&1"};
  shell.insert(shell.end(), argv.begin(), argv.end());
  return runCommand(shell);
}

CommandResult Cluster::cairn(const std::string &command, const std::vector<std::string> &args) {
  std::vector<std::string> argv = {CAIRN_BIN, command, "--server", server_};
  if (!options_.tlsCa.empty())
    argv.insert(argv.end(), {"--tls-ca", options_.tlsCa});
  argv.insert(argv.end(), args.begin(), args.end());
  return runWithStderr(argv);
}

std::string Cluster::submitDfs(const std::string &program, const std::vector<std::string> &options,
                               std::string &failure) {
  std::vector<std::string> args = {"--search", "dfs"};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back(program);
  CommandResult r = cairn("submit", args);
  if (r.status != 0) {
    failure = r.output;
    return "";
  }
  return r.output.substr(0, r.output.find('\n'));
}

std::string Cluster::waitForStatus(const std::string &job, double seconds,
                                   const std::function<bool(const std::string &)> &ready) {
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(int64_t(seconds * 1000));
  std::string json;
  while (std::chrono::steady_clock::now() < end) {
    json = cairn("status", {"--json", job}).output;
    if (ready(json))
      return json;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return json;
}

std::string Cluster::runJob(const std::string &program, const std::vector<std::string> &options,
                            const fs::path &outputDir, std::string &failure, double seconds) {
  std::vector<std::string> args = options;
  args.push_back(program);
  CommandResult submitted = cairn("submit", args);
  std::string job = submitted.output.substr(0, submitted.output.find('\n'));
  if (submitted.status != 0 || job.empty()) {
    failure += "submit failed: " + submitted.output;
    return "";
  }
  CommandResult waited = cairn("wait", {"--timeout", std::to_string(seconds), job});
  if (waited.status != 0) {
    failure += "wait failed: " + waited.output;
    return "";
  }
  CommandResult fetched = cairn("results", {"--output-dir", outputDir.string(), job});
  if (fetched.status != 0) {
    failure += "results failed: " + fetched.output;
    return "";
  }
  return job;
}

namespace {
std::string field(const std::string &json, const std::string &name) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + name + "\": ([0-9]+)")))
    return "missing";
  return m[1];
}
} // namespace

long long jsonNumber(const std::string &json, const std::string &name) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + name + "\": ?\"?([0-9]+)")))
    return -1;
  return std::stoll(m[1]);
}

double jsonReal(const std::string &json, const std::string &name) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + name + "\": ?\"?([0-9.eE+-]+)")))
    return -1;
  return std::stod(m[1]);
}

RunOutcome outcomeOf(const fs::path &outputDir) {
  std::ifstream in(outputDir / "summary.json");
  std::stringstream s;
  s << in.rdbuf();
  const std::string json = s.str();
  RunOutcome o;
  o.pathsCompleted = field(json, "paths_completed");
  o.pathsPartial = field(json, "paths_partial");
  o.tests = field(json, "tests");
  o.forks = field(json, "forks");
  o.instructions = field(json, "instructions");
  std::regex error("\\{\"type\": \"([^\"]*)\", \"kind\": \"([^\"]*)\", \"file\": \"([^\"]*)\", \"line\": ([0-9]+)");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), error); it != std::sregex_iterator(); ++it)
    o.errors.insert((*it)[1].str() + "/" + (*it)[2].str() + "/" + fs::path((*it)[3].str()).filename().string() +
                    ":" + (*it)[4].str());
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(outputDir, ec))
    o.ktestFiles += e.path().extension() == ".ktest";
  return o;
}

std::string describe(const RunOutcome &o) {
  std::string d = "paths " + o.pathsCompleted + "+" + o.pathsPartial + " tests " + o.tests + " forks " + o.forks +
                  " instructions " + o.instructions + " ktests " + std::to_string(o.ktestFiles) + " errors {";
  for (const std::string &e : o.errors)
    d += " " + e;
  return d + " }";
}

HttpReply httpFetch(const std::string &address, const std::string &path, const std::string &token) {
  size_t colon = address.rfind(':');
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(uint16_t(std::stoi(address.substr(colon + 1))));
  ::inet_pton(AF_INET, address.substr(0, colon).c_str(), &to.sin_addr);
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&to), sizeof to) != 0) {
    if (fd >= 0)
      ::close(fd);
    return {};
  }
  std::string request = "GET " + path + " HTTP/1.1\r\nHost: " + address + "\r\nConnection: close\r\n" +
                        (token.empty() ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n";
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string response;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
    response.append(buf, size_t(n));
  ::close(fd);
  size_t body = response.find("\r\n\r\n");
  if (response.rfind("HTTP/1.1 ", 0) != 0 || body == std::string::npos)
    return {};
  return {std::atoi(response.c_str() + 9), response.substr(0, body), response.substr(body + 4)};
}

std::string httpGet(const std::string &address, const std::string &path, const std::string &token) {
  HttpReply reply = httpFetch(address, path, token);
  return reply.status == 200 ? reply.body : "";
}

} // namespace cairn::testing
