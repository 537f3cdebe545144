#include "JobStore.h"

#include "cairn/service/FramedResults.h"

#include <sqlite3.h>

#include <cstdint>

namespace cairn::server {

namespace {

// One prepared statement, finalized on scope exit (or, when borrowed from the store's cache,
// reset for its next use); binds and reads by column index.
class Statement {
public:
  Statement(sqlite3 *db, const char *sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      throw StoreError(std::string("job store: ") + sqlite3_errmsg(db));
  }
  Statement(sqlite3 *db, sqlite3_stmt *cached) : db_(db), stmt_(cached), owned_(false) {}
  ~Statement() {
    if (owned_) {
      sqlite3_finalize(stmt_);
    } else {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }
  Statement &bind(int i, std::string_view blob) {
    sqlite3_bind_blob(stmt_, i, blob.data(), int(blob.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement &bind(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Statement &bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  // True while there is a row.
  bool step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    throw StoreError(std::string("job store: ") + sqlite3_errmsg(db_));
  }
  std::string blob(int i) {
    const void *p = sqlite3_column_blob(stmt_, i);
    return p ? std::string(static_cast<const char *>(p), size_t(sqlite3_column_bytes(stmt_, i)))
             : std::string();
  }
  int64_t integer(int i) { return sqlite3_column_int64(stmt_, i); }
  double real(int i) { return sqlite3_column_double(stmt_, i); }

private:
  sqlite3 *db_;
  sqlite3_stmt *stmt_ = nullptr;
  bool owned_ = true;
};

} // namespace

JobStore::JobStore(const std::string &path) {
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw StoreError("cannot open job store " + path + ": " + why);
  }
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA journal_mode=WAL");
  exec("PRAGMA synchronous=NORMAL");
  exec("CREATE TABLE IF NOT EXISTS jobs(id BLOB PRIMARY KEY, seq INTEGER, request BLOB, bitcode BLOB,"
       " digest BLOB, state INTEGER, failure BLOB, submitted REAL, started REAL, finished REAL)");
  exec("CREATE TABLE IF NOT EXISTS items(id BLOB PRIMARY KEY, job BLOB, parent BLOB, prefix BLOB,"
       " state INTEGER, counters BLOB, coverage BLOB, more BLOB)");
  // Stores written before items had several start states lack the column: none had more.
  if (!Statement(db_, "SELECT 1 FROM pragma_table_info('items') WHERE name = 'more'").step())
    exec("ALTER TABLE items ADD COLUMN more BLOB");
  // Stores written before the dashboard showed coverage per file lack the program's line table.
  if (!Statement(db_, "SELECT 1 FROM pragma_table_info('jobs') WHERE name = 'lines'").step())
    exec("ALTER TABLE jobs ADD COLUMN lines BLOB");
  // A worker's batch of results is one row, its results framed as consecutive length-delimited
  // TestResults: a result costs no insert of its own. A test is found by its number through the
  // run holding it (the coordinator keeps the path ids it deduplicates by, and their numbers).
  exec("CREATE TABLE IF NOT EXISTS test_runs(job BLOB, first INTEGER, count INTEGER, results BLOB,"
       " PRIMARY KEY(job, first))");
  // Stores written before keep results one per row, in `tests` or, older, in `results`.
  moveOver("results");
  moveOver("tests");
}

// Moves an older store's one-result-per-row table (job, seq, path_id, result) into runs.
void JobStore::moveOver(const char *olderTable) {
  std::string exists = std::string("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '") + olderTable + "'";
  if (!Statement(db_, exists.c_str()).step())
    return;
  exec("BEGIN");
  {
    std::string select = std::string("SELECT job, seq, result FROM ") + olderTable + " ORDER BY job, seq";
    Statement rows(db_, select.c_str());
    std::string job;
    int64_t first = 0, next = 0;
    std::vector<v1::TestResult> run;
    auto flush = [&] {
      std::vector<const v1::TestResult *> pointers;
      for (const v1::TestResult &r : run)
        pointers.push_back(&r);
      if (!run.empty())
        addResults(job, first, pointers);
      run.clear();
    };
    while (rows.step()) {
      std::string rowJob = rows.blob(0);
      int64_t seq = rows.integer(1);
      if (rowJob != job || seq != next || run.size() == 256) {
        flush();
        job = rowJob;
        first = seq;
      }
      next = seq + 1;
      run.emplace_back().ParseFromString(rows.blob(2));
    }
    flush();
  }
  exec((std::string("DROP TABLE ") + olderTable).c_str());
  exec("COMMIT");
}

JobStore::~JobStore() {
  sqlite3_finalize(insertRun_);
  sqlite3_close(db_);
}

void JobStore::exec(const char *sql) {
  char *error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::string why = error ? error : "unknown error";
    sqlite3_free(error);
    throw StoreError("job store: " + why);
  }
}

void JobStore::putJob(const StoredJob &j) {
  Statement s(db_, "INSERT OR REPLACE INTO jobs VALUES(?,?,?,?,?,?,?,?,?,?,?)");
  s.bind(1, j.id).bind(2, j.seq).bind(3, j.request.SerializeAsString()).bind(4, j.bitcode);
  s.bind(5, j.digest).bind(6, int64_t(j.state)).bind(7, j.failure).bind(8, j.submittedAt);
  s.bind(9, j.startedAt).bind(10, j.finishedAt).bind(11, j.lines.SerializeAsString());
  s.step();
}

void JobStore::putItem(const StoredItem &i) {
  Statement s(db_, "INSERT OR REPLACE INTO items VALUES(?,?,?,?,?,?,?,?)");
  s.bind(1, i.id).bind(2, i.jobId).bind(3, i.parentId).bind(4, i.prefix.SerializeAsString());
  s.bind(5, int64_t(i.state)).bind(6, i.counters.SerializeAsString());
  s.bind(7, i.coverage.SerializeAsString()).bind(8, i.morePrefixes.SerializeAsString());
  s.step();
}

void JobStore::addResults(const std::string &jobId, int64_t first,
                          const std::vector<const v1::TestResult *> &results) {
  // Framed into a buffer the store keeps: a run is tens of kilobytes, and growing or freeing
  // one per batch costs the allocator more than writing it.
  runBuffer_.clear();
  for (const v1::TestResult *r : results)
    service::appendFramed(runBuffer_, *r);
  addFramedResults(jobId, first, int64_t(results.size()), runBuffer_);
}

void JobStore::addFramedResults(const std::string &jobId, int64_t first, int64_t count, std::string_view framed) {
  // Prepared once: a job adds a run per batch a worker sends.
  if (!insertRun_ && sqlite3_prepare_v2(db_, "INSERT INTO test_runs VALUES(?,?,?,?)", -1, &insertRun_,
                                        nullptr) != SQLITE_OK)
    throw StoreError(std::string("job store: ") + sqlite3_errmsg(db_));
  Statement s(db_, insertRun_);
  s.bind(1, jobId).bind(2, first).bind(3, count).bind(4, framed);
  s.step();
}

std::vector<StoredJob> JobStore::jobs() {
  std::vector<StoredJob> out;
  Statement s(db_, "SELECT * FROM jobs ORDER BY seq");
  while (s.step()) {
    StoredJob j;
    j.id = s.blob(0);
    j.seq = s.integer(1);
    j.request.ParseFromString(s.blob(2));
    j.bitcode = s.blob(3);
    j.digest = s.blob(4);
    j.state = v1::JobState(s.integer(5));
    j.failure = s.blob(6);
    j.submittedAt = s.real(7);
    j.startedAt = s.real(8);
    j.finishedAt = s.real(9);
    j.lines.ParseFromString(s.blob(10));
    out.push_back(std::move(j));
  }
  return out;
}

std::vector<StoredItem> JobStore::items() {
  std::vector<StoredItem> out;
  Statement s(db_, "SELECT * FROM items ORDER BY rowid");
  while (s.step()) {
    StoredItem i;
    i.id = s.blob(0);
    i.jobId = s.blob(1);
    i.parentId = s.blob(2);
    i.prefix.ParseFromString(s.blob(3));
    i.state = ItemState(s.integer(4));
    i.counters.ParseFromString(s.blob(5));
    i.coverage.ParseFromString(s.blob(6));
    i.morePrefixes.ParseFromString(s.blob(7));
    out.push_back(std::move(i));
  }
  return out;
}

namespace {

// Calls f(seq, result) for each result of a run numbered from `first`, while it returns true.
bool forEachInRun(int64_t first, const std::string &framed,
                  const std::function<bool(int64_t, v1::TestResult &)> &f) {
  service::FramedReader reader(framed);
  std::string_view whole, body;
  for (int64_t seq = first; reader.next(whole, body); ++seq) {
    v1::TestResult r;
    if (!r.ParseFromArray(body.data(), int(body.size())))
      throw StoreError("job store: a stored result does not parse");
    if (!f(seq, r))
      return false;
  }
  if (reader.failed())
    throw StoreError("job store: a run of results is cut short");
  return true;
}

} // namespace

void JobStore::forEachResult(const std::string &jobId, int64_t offset, int64_t limit,
                             const std::function<void(int64_t, const v1::TestResult &)> &f) {
  // From the run holding number offset + 1 on: numbers run from 1 without gaps, so the offset
  // is a key, not rows to skip.
  Statement s(db_, "SELECT first, results FROM test_runs WHERE job = ?1 AND first >= "
                   "(SELECT IFNULL(MAX(first), 0) FROM test_runs WHERE job = ?1 AND first <= ?2) ORDER BY first");
  s.bind(1, jobId).bind(2, offset + 1);
  int64_t left = limit > 0 ? limit : INT64_MAX;
  while (left > 0 && s.step()) {
    forEachInRun(s.integer(0), s.blob(1), [&](int64_t seq, v1::TestResult &r) {
      if (seq <= offset)
        return true;
      f(seq, r);
      return --left > 0;
    });
  }
}

std::optional<v1::TestResult> JobStore::result(const std::string &jobId, int64_t seq) {
  Statement s(db_, "SELECT first, results FROM test_runs WHERE job = ? AND first <= ? ORDER BY first DESC LIMIT 1");
  s.bind(1, jobId).bind(2, seq);
  std::optional<v1::TestResult> found;
  if (s.step())
    forEachInRun(s.integer(0), s.blob(1), [&](int64_t at, v1::TestResult &r) {
      if (at == seq)
        found = std::move(r);
      return at < seq;
    });
  return found;
}

} // namespace cairn::server
