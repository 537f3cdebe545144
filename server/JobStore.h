// The coordinator's persistent state in SQLite (write-ahead log): jobs with their program,
// work items with their prefixes and counters, and results in runs of consecutive numbers.
// Every change is written through, so a restarted coordinator finds what it had. Not
// thread-safe: the coordinator calls it under its lock.
#pragma once

#include "cairn/v1/dashboard.pb.h"
#include "cairn/v1/jobs.pb.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace cairn::server {

struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct StoredJob {
  std::string id;
  int64_t seq = 0;                 // submission order
  v1::SubmitJobRequest request;    // without the program: `bitcode` is what runs
  std::string bitcode;
  std::string digest;
  v1::JobState state = v1::JOB_QUEUED;
  std::string failure;
  double submittedAt = 0, startedAt = 0, finishedAt = 0;
  v1::ProgramLines lines; // the program's line table, for coverage per file
};

enum class ItemState : int { Pending = 0, Running = 1, Done = 2, Cancelled = 3 };

struct StoredItem {
  std::string id, jobId;
  std::string parentId; // the item it was split off, if any
  v1::PathPrefix prefix;
  v1::PathPrefixes morePrefixes; // the item's further start states (a split of a wide frontier)
  ItemState state = ItemState::Pending;
  v1::Counters counters;
  v1::Coverage coverage;
};

class JobStore {
public:
  explicit JobStore(const std::string &path); // throws StoreError
  ~JobStore();
  JobStore(const JobStore &) = delete;
  JobStore &operator=(const JobStore &) = delete;

  void putJob(const StoredJob &job);   // insert or replace
  void putItem(const StoredItem &item); // insert or replace
  // Adds the job's results numbered first, first + 1, ... (numbers run from 1 in the order
  // results are kept) as one row: a worker's batch is one insert, not one per result.
  void addResults(const std::string &jobId, int64_t first, const std::vector<const v1::TestResult *> &results);
  // The same, the results already framed as a worker sends them (FramedResults.h).
  void addFramedResults(const std::string &jobId, int64_t first, int64_t count, std::string_view framed);

  std::vector<StoredJob> jobs();
  std::vector<StoredItem> items();
  // The job's results in the order they were added, from number offset + 1.
  void forEachResult(const std::string &jobId, int64_t offset, int64_t limit,
                     const std::function<void(int64_t seq, const v1::TestResult &)> &f);
  std::optional<v1::TestResult> result(const std::string &jobId, int64_t seq);

private:
  void exec(const char *sql);
  void moveOver(const char *olderTable);
  sqlite3 *db_ = nullptr;
  sqlite3_stmt *insertRun_ = nullptr;
  std::string runBuffer_; // addResults' framing, kept between calls
};

} // namespace cairn::server
