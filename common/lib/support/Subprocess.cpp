#include "cairn/support/Subprocess.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace cairn {

std::string ProcessResult::describeEnd() const {
  if (!started)
    return "could not be started";
  if (timedOut)
    return "was killed after its time limit";
  if (signal)
    return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exited with status " + std::to_string(exitCode);
}

ProcessResult runProcess(const std::vector<std::string> &argv,
                         const std::vector<std::string> &extraEnv, double timeoutSeconds,
                         const ProcessOptions &options) {
  ProcessResult result;
  if (argv.empty()) {
    result.output = "no program given";
    return result;
  }
  // One pipe for standard error (and output, unless it is kept apart), one for standard output.
  int errPipe[2], outPipe[2] = {-1, -1};
  if (::pipe2(errPipe, O_CLOEXEC) != 0 || (options.separateOutput && ::pipe2(outPipe, O_CLOEXEC) != 0)) {
    result.output = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, options.standardInput.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, options.separateOutput ? outPipe[1] : errPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  if (!options.workingDirectory.empty())
    posix_spawn_file_actions_addchdir_np(&actions, options.workingDirectory.c_str());

  std::vector<std::string> envStrings;
  for (char **e = environ; *e; ++e)
    envStrings.emplace_back(*e);
  envStrings.insert(envStrings.end(), extraEnv.begin(), extraEnv.end());
  std::vector<char *> envp, args;
  for (std::string &s : envStrings)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argvCopy = argv;
  if (!options.argv0.empty())
    argvCopy[0] = options.argv0;
  for (std::string &s : argvCopy)
    args.push_back(s.data());
  args.push_back(nullptr);

  pid_t pid = 0;
  int rc = 0;
  const bool dropRoot = options.unprivileged && ::geteuid() == 0;
  if (dropRoot || options.addressSpaceLimit) {
    // posix_spawn can neither change the user nor set a limit: a fork that does what the file
    // actions say, limits, drops root, and executes.
    const int in = ::open(options.standardInput.c_str(), O_RDONLY | O_CLOEXEC);
    pid = in < 0 ? -1 : ::fork();
    if (pid == 0) {
      ::dup2(in, 0);
      ::dup2(options.separateOutput ? outPipe[1] : errPipe[1], 1);
      ::dup2(errPipe[1], 2);
      const rlimit limit{options.addressSpaceLimit, options.addressSpaceLimit};
      if ((!options.workingDirectory.empty() && ::chdir(options.workingDirectory.c_str()) != 0) ||
          (options.addressSpaceLimit && ::setrlimit(RLIMIT_AS, &limit) != 0) ||
          (dropRoot && (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)))
        ::_exit(126);
      ::execve(argv[0].c_str(), args.data(), envp.data());
      ::_exit(127);
    }
    rc = pid < 0 ? errno : 0;
    if (in >= 0)
      ::close(in);
  } else {
    rc = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), envp.data());
  }
  posix_spawn_file_actions_destroy(&actions);
  ::close(errPipe[1]);
  if (outPipe[1] >= 0)
    ::close(outPipe[1]);
  if (rc != 0) {
    ::close(errPipe[0]);
    if (outPipe[0] >= 0)
      ::close(outPipe[0]);
    result.output = argv[0] + ": " + std::strerror(rc);
    return result;
  }
  result.started = true;

  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(int64_t(timeoutSeconds * 1000));
  char buffer[4096];
  pollfd pfds[2] = {{errPipe[0], POLLIN, 0}, {outPipe[0], POLLIN, 0}};
  std::string *sinks[2] = {&result.output, &result.standardOutput};
  int open = outPipe[0] >= 0 ? 2 : 1;
  while (open > 0) {
    int wait = -1;
    if (timeoutSeconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      if (left <= 0) {
        ::kill(pid, SIGKILL);
        result.timedOut = true;
        break;
      }
      wait = int(left);
    }
    int ready = ::poll(pfds, 2, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // the deadline check above ends the wait
    for (int i = 0; i < 2; ++i) {
      if (pfds[i].fd < 0 || !(pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t n = ::read(pfds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        ::close(pfds[i].fd);
        pfds[i].fd = -1; // poll skips it from now on
        --open;
        continue;
      }
      sinks[i]->append(buffer, size_t(n));
    }
  }
  for (pollfd &p : pfds)
    if (p.fd >= 0)
      ::close(p.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status) && !result.timedOut)
    result.signal = WTERMSIG(status);
  return result;
}

} // namespace cairn
