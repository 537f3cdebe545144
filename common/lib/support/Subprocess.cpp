#include "cairn/support/Subprocess.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
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
                         const std::vector<std::string> &extraEnv, double timeoutSeconds) {
  ProcessResult result;
  if (argv.empty()) {
    result.output = "no program given";
    return result;
  }
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
    result.output = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 2);

  std::vector<std::string> envStrings;
  for (char **e = environ; *e; ++e)
    envStrings.emplace_back(*e);
  envStrings.insert(envStrings.end(), extraEnv.begin(), extraEnv.end());
  std::vector<char *> envp, args;
  for (std::string &s : envStrings)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argvCopy = argv;
  for (std::string &s : argvCopy)
    args.push_back(s.data());
  args.push_back(nullptr);

  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipeFds[1]);
  if (rc != 0) {
    ::close(pipeFds[0]);
    result.output = argv[0] + ": " + std::strerror(rc);
    return result;
  }
  result.started = true;

  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(int64_t(timeoutSeconds * 1000));
  char buffer[4096];
  while (true) {
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
    pollfd pfd{pipeFds[0], POLLIN, 0};
    int ready = ::poll(&pfd, 1, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // the deadline check above ends the wait
    ssize_t n = ::read(pipeFds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    result.output.append(buffer, size_t(n));
  }
  ::close(pipeFds[0]);
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
