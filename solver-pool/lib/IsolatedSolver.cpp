// A core solver in a child process: a crash of the solver (a segfault or abort inside Z3 or
// cvc5) or a hang past its time limit ends the child, not the caller, and the query is answered
// Unknown with the reason. The next query starts a fresh child.
//
// Queries and answers cross a Unix socket pair as length-prefixed protobuf messages.
#include "cairn/solver/IsolatedSolver.h"

#include "CoreSolverName.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/v1/expr.pb.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cairn {

namespace {

bool sendAll(int fd, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size) {
    ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

bool sendMessage(int fd, const std::string &bytes) {
  uint64_t size = bytes.size();
  return sendAll(fd, &size, sizeof size) && sendAll(fd, bytes.data(), bytes.size());
}

// Reads exactly `size` bytes, waiting at most until `deadline` (none when it is max()) or until
// `wake` (when given) becomes readable.
enum class ReadStatus { Ok, Closed, TimedOut, Woken };
ReadStatus readAll(int fd, void *data, size_t size, std::chrono::steady_clock::time_point deadline,
                   int wake = -1) {
  char *p = static_cast<char *>(data);
  while (size) {
    int wait = -1;
    if (deadline != std::chrono::steady_clock::time_point::max()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        return ReadStatus::TimedOut;
      wait = int(std::min<int64_t>(left.count(), 1 << 30));
    }
    pollfd pfd[2] = {{fd, POLLIN, 0}, {wake, POLLIN, 0}};
    int ready = ::poll(pfd, wake >= 0 ? 2 : 1, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      return ReadStatus::TimedOut;
    if (wake >= 0 && (pfd[1].revents & POLLIN))
      return ReadStatus::Woken;
    ssize_t n = ::recv(fd, p, size, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return ReadStatus::Closed;
    p += n;
    size -= size_t(n);
  }
  return ReadStatus::Ok;
}

ReadStatus readMessage(int fd, std::string &out, std::chrono::steady_clock::time_point deadline,
                       int wake = -1) {
  uint64_t size = 0;
  ReadStatus s = readAll(fd, &size, sizeof size, deadline, wake);
  if (s != ReadStatus::Ok)
    return s;
  if (size > (uint64_t(1) << 32))
    return ReadStatus::Closed;
  out.resize(size);
  return readAll(fd, out.data(), size, deadline, wake);
}

// Empties the wake pipe: an interrupt() between queries must not end the next one.
void drain(int fd) {
  char buffer[64];
  while (::read(fd, buffer, sizeof buffer) > 0) {
  }
}

// The child's loop: answer queries until the parent closes the socket.
[[noreturn]] void serve(int fd, CoreSolverKind kind) {
  ExprContext ctx;
  std::unique_ptr<Solver> solver = createCoreSolver(kind, 0);
  const auto forever = std::chrono::steady_clock::time_point::max();
  std::string bytes;
  while (readMessage(fd, bytes, forever) == ReadStatus::Ok) {
    v1::Query query;
    v1::QueryResponse response;
    try {
      if (!query.ParseFromString(bytes))
        throw std::invalid_argument("unreadable query message");
      bool wantModel = false;
      Query q = deserializeQuery(query, ctx, &wantModel);
      solver->setTimeout(query.timeout_s());
      serializeResponse(solver->check(q, wantModel), response);
    } catch (const std::exception &e) {
      response.set_result(v1::QueryResponse::RESULT_UNKNOWN);
      response.set_reason(e.what());
    }
    if (!sendMessage(fd, response.SerializeAsString()))
      break;
  }
  ::_exit(0);
}

// Prepares a fresh child to live on `fd` alone; returns the descriptor it is now under. The
// parent's other descriptors would otherwise stay open here: another solver process's socket
// (which then never sees its end of file, so destroying that solver hangs) or a server's
// listening socket. Its end is its parent's to decide (end of file, or SIGKILL), so the
// interrupt and termination signals a terminal or a service manager sends to the whole group are
// ignored, and signals a server blocked for sigwait are unblocked.
int detachFromParent(int fd) {
  const int kept = 3;
  if (fd != kept && ::dup2(fd, kept) < 0)
    ::_exit(1);
  if (::close_range(kept + 1, ~0U, 0) != 0) // kernels before 5.9
    for (long i = kept + 1, n = std::min(::sysconf(_SC_OPEN_MAX), 1L << 16); i < n; ++i)
      ::close(int(i));
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_IGN);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  return kept;
}

} // namespace

IsolatedSolver::IsolatedSolver(CoreSolverKind kind, double timeoutSeconds)
    : kind_(kind), timeout_(timeoutSeconds) {
  stats_.layer = std::string("isolated-") + coreName(kind);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) { // without it, interrupt() does nothing
    wakeRead_ = fds[0];
    wakeWrite_ = fds[1];
  }
}

IsolatedSolver::~IsolatedSolver() {
  stopChild(false);
  if (wakeRead_ >= 0) {
    ::close(wakeRead_);
    ::close(wakeWrite_);
  }
}

void IsolatedSolver::interrupt() {
  if (wakeWrite_ >= 0) {
    char byte = 1;
    [[maybe_unused]] ssize_t n = ::write(wakeWrite_, &byte, 1); // a full pipe is woken already
  }
}

std::string IsolatedSolver::name() const { return std::string("isolated(") + coreName(kind_) + ")"; }

bool IsolatedSolver::startChild() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return false;
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0)
    serve(detachFromParent(fds[1]), kind_);
  ::close(fds[1]);
  socket_ = fds[0];
  child_ = pid;
  return true;
}

std::string IsolatedSolver::stopChild(bool kill) {
  if (child_ <= 0)
    return {};
  if (kill)
    ::kill(child_, SIGKILL);
  ::close(socket_); // a healthy child sees EOF and exits
  socket_ = -1;
  int status = 0;
  while (::waitpid(child_, &status, 0) < 0 && errno == EINTR) {
  }
  child_ = -1;
  if (WIFSIGNALED(status))
    return std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status))
    return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

SolverResponse IsolatedSolver::check(const Query &q, bool wantModel) {
  ScopedSolverTimer timer(stats_);
  ++stats_.queries;
  SolverResponse r = ask(q, wantModel);
  if (r.result == SatResult::Unknown)
    ++stats_.unknown;
  return r;
}

SolverResponse IsolatedSolver::ask(const Query &q, bool wantModel) {
  const std::string who = coreName(kind_);
  if (child_ <= 0 && !startChild())
    return SolverResponse::unknown(who + ": could not start a solver process: " +
                                   std::strerror(errno));
  if (wakeRead_ >= 0)
    drain(wakeRead_);
  v1::Query message;
  serializeQuery(q, wantModel, timeout_, message);
  if (!sendMessage(socket_, message.SerializeAsString()))
    return SolverResponse::unknown(who + " process " + stopChild(true) + " before the query");

  // The solver enforces the time limit itself; the grace period covers a solver that does not
  // (cvc5 bit-blasting a float query checks its limit rarely: one ran 273 s past 15 s).
  auto deadline = std::chrono::steady_clock::time_point::max();
  if (timeout_ > 0)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(int64_t(timeout_ * 1250) + 1000);
  std::string bytes;
  switch (readMessage(socket_, bytes, deadline, wakeRead_)) {
  case ReadStatus::Ok: break;
  case ReadStatus::Woken:
    stopChild(true);
    return SolverResponse::unknown("interrupted");
  case ReadStatus::TimedOut:
    stopChild(true);
    return SolverResponse::unknown(who + " did not answer within its time limit; process killed");
  case ReadStatus::Closed:
    return SolverResponse::unknown(who + " process " + stopChild(true) + " while solving");
  }
  v1::QueryResponse response;
  ExprContext *ctx = contextOf(q);
  if (!response.ParseFromString(bytes) || !ctx)
    return SolverResponse::unknown(who + " process sent an unreadable answer");
  try {
    return deserializeResponse(response, *ctx);
  } catch (const std::exception &e) {
    return SolverResponse::unknown(who + " process sent an invalid answer: " + e.what());
  }
}

} // namespace cairn
