#include "Process.h"

#include "cairn/v1/solver_pool.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "cairn/support/TokenFile.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <chrono>
#include <csignal>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace cairn::testing {

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Starts argv[0] with its standard output on a pipe; returns the pid and the pipe's read end.
pid_t spawnWithStdout(const std::vector<std::string> &args, int &readEnd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw std::runtime_error("cannot start " + args[0]);
  }
  readEnd = fds[0];
  return pid;
}

// One line from `fd`, waiting until `deadline`; empty when none arrives.
std::string readLine(int fd, Clock::time_point deadline) {
  std::string line;
  char c;
  while (Clock::now() < deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd p{fd, POLLIN, 0};
    int ready = ::poll(&p, 1, int(std::max<int64_t>(1, left.count())));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      break;
    ssize_t n = ::read(fd, &c, 1);
    if (n <= 0)
      break;
    if (c == '\n')
      return line;
    line += c;
  }
  return {};
}

} // namespace

const std::string &testPoolTokenFile() {
  // Removed when the test process ends.
  struct OwnFile {
    std::string path = "/tmp/cairn-test-pool-token-" + std::to_string(::getpid());
    OwnFile() {
      ::unlink(path.c_str());
      tokenFileOrCreate(path);
    }
    ~OwnFile() { ::unlink(path.c_str()); }
  };
  static const OwnFile file;
  return file.path;
}

const std::string &testPoolToken() {
  static const std::string token = tokenFromFile(testPoolTokenFile());
  return token;
}

namespace {
std::vector<std::string> poolCommand(std::vector<std::string> args) {
  std::vector<std::string> argv = {CAIRN_SOLVER_POOL_BIN, "--listen", "127.0.0.1:0",
                                   "--log-level", "warn"};
  if (std::find(args.begin(), args.end(), "--token-file") == args.end() &&
      std::find(args.begin(), args.end(), "--open-clients") == args.end())
    argv.insert(argv.end(), {"--token-file", testPoolTokenFile()});
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}
} // namespace

PoolProcess::PoolProcess(std::vector<std::string> args) : Daemon(poolCommand(std::move(args))) {}

Daemon::Daemon(const std::vector<std::string> &argv, const std::string &readyPrefix, bool checkHealth) {
  pid_ = spawnWithStdout(argv, stdout_);
  // Generous: on a loaded machine the start (Z3 contexts, gRPC) can take seconds.
  const Clock::time_point deadline = after(30);
  std::string line;
  do
    line = readLine(stdout_, deadline);
  while (!line.empty() && line.rfind(readyPrefix, 0) != 0);
  if (line.empty())
    return;
  const std::string endpoint = line.substr(readyPrefix.size());
  if (!checkHealth) {
    endpoint_ = endpoint;
    return;
  }
  const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
  if (waitServing(endpoint, "", std::max(left, 1.0)) == 1)
    endpoint_ = endpoint;
}

std::string Daemon::nextLine(double seconds) { return readLine(stdout_, after(seconds)); }

Daemon::~Daemon() {
  if (pid_ > 0)
    kill();
  if (stdout_ >= 0)
    ::close(stdout_);
}

void Daemon::signal(int sig) {
  if (pid_ > 0)
    ::kill(pid_, sig);
}

int Daemon::wait(double seconds) {
  const Clock::time_point deadline = after(seconds);
  while (pid_ > 0) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      return status;
    }
    if (Clock::now() >= deadline)
      return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

void Daemon::kill() {
  if (pid_ <= 0)
    return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

v1::StatsResponse PoolProcess::stats() const {
  auto stub = v1::SolverPool::NewStub(
      grpc::CreateChannel(endpoint(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext call;
  call.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  call.AddMetadata("authorization", "Bearer " + testPoolToken());
  v1::StatsResponse out;
  grpc::Status s = stub->Stats(&call, v1::StatsRequest{}, &out);
  if (!s.ok())
    throw std::runtime_error("Stats failed: " + s.error_message());
  return out;
}

int waitServing(const std::string &endpoint, const std::string &service, double seconds) {
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(endpoint, grpc::InsecureChannelCredentials()));
  const Clock::time_point deadline = after(seconds);
  int last = -1;
  while (true) {
    grpc::ClientContext call;
    call.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(1));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    if (stub->Check(&call, request, &response).ok()) {
      last = int(response.status());
      if (response.status() == grpc::health::v1::HealthCheckResponse::SERVING)
        return last;
    }
    if (Clock::now() >= deadline)
      return last;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

CommandResult runCommand(const std::vector<std::string> &argv) {
  CommandResult result;
  int out = -1;
  pid_t pid = spawnWithStdout(argv, out);
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(out, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      result.output.append(buffer, size_t(n));
  ::close(out);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

CommandResult shell(const std::string &command) { return runCommand({"/bin/sh", "-c", command + " 2>&1"}); }

std::string readText(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace cairn::testing
