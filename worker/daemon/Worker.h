// The cairn-worker daemon's work: registers with the coordinator, takes work items, explores
// each with the engine (rebuilding its start by replaying the prefix without the solver),
// streams the results, splits its frontier when the coordinator asks, and says when an item is
// done. Heartbeats run on their own thread; a coordinator that forgot the worker (restarted, or
// declared it lost) gets a new registration, and the item in hand is dropped: the coordinator
// hands it out again.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace cairn::worker {

struct WorkerOptions {
  std::string server = "127.0.0.1:7470";
  std::string name;                       // for the coordinator's logs
  std::vector<std::string> poolEndpoints; // solver pool replicas; empty: solve in-process
  std::string poolToken;                  // sent to them (their --token-file's); empty: none
  std::string tlsCa;                      // PEM roots: talk TLS to the coordinator
  std::string token;                      // sent as a bearer token on every call; empty: none
  std::string cacheDir;                   // where received programs are kept
  // The most memory an item may use here (--max-memory): the coordinator hands this worker only
  // items whose job's limit fits, and an item of a job without one runs under the engine's
  // default or this, the lower. 0: the default, defaultItemMemoryMB().
  uint64_t maxMemoryMB = 0;
};

// Three quarters of the memory this process may have: the machine's, or its control group's
// limit where that is lower (a container's).
uint64_t defaultItemMemoryMB();

class Worker {
public:
  explicit Worker(WorkerOptions options);
  ~Worker();
  // Works until stop() is called.
  void run();
  // Safe from any thread: the item in hand is dropped and run() returns.
  void stop();

private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace cairn::worker
