#include "JobStore.h"

#include <sqlite3.h>

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
  Statement &bind(int i, const std::string &blob) {
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
       " state INTEGER, counters BLOB, coverage BLOB)");
  // One B-tree, in the order results arrive: an insert touches nothing else (the coordinator
  // keeps the path ids it deduplicates by, and finds a test's sequence number by them).
  exec("CREATE TABLE IF NOT EXISTS tests(job BLOB, seq INTEGER, path_id BLOB, result BLOB,"
       " PRIMARY KEY(job, seq)) WITHOUT ROWID");
  // A store written before: its results table (keyed by path id, indexed by seq) moves over.
  bool older = Statement(db_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'results'").step();
  if (older) {
    exec("BEGIN");
    exec("INSERT OR IGNORE INTO tests SELECT job, seq, path_id, result FROM results");
    exec("DROP TABLE results");
    exec("COMMIT");
  }
}

JobStore::~JobStore() {
  sqlite3_finalize(insertResult_);
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
  Statement s(db_, "INSERT OR REPLACE INTO jobs VALUES(?,?,?,?,?,?,?,?,?,?)");
  s.bind(1, j.id).bind(2, j.seq).bind(3, j.request.SerializeAsString()).bind(4, j.bitcode);
  s.bind(5, j.digest).bind(6, int64_t(j.state)).bind(7, j.failure).bind(8, j.submittedAt);
  s.bind(9, j.startedAt).bind(10, j.finishedAt);
  s.step();
}

void JobStore::putItem(const StoredItem &i) {
  Statement s(db_, "INSERT OR REPLACE INTO items VALUES(?,?,?,?,?,?,?)");
  s.bind(1, i.id).bind(2, i.jobId).bind(3, i.parentId).bind(4, i.prefix.SerializeAsString());
  s.bind(5, int64_t(i.state)).bind(6, i.counters.SerializeAsString());
  s.bind(7, i.coverage.SerializeAsString());
  s.step();
}

void JobStore::addResult(const std::string &jobId, int64_t seq, const v1::TestResult &r) {
  // Prepared once: a job adds tens of thousands of results.
  if (!insertResult_ && sqlite3_prepare_v2(db_, "INSERT INTO tests VALUES(?,?,?,?)", -1, &insertResult_,
                                           nullptr) != SQLITE_OK)
    throw StoreError(std::string("job store: ") + sqlite3_errmsg(db_));
  Statement s(db_, insertResult_);
  s.bind(1, jobId).bind(2, seq).bind(3, r.path_id()).bind(4, r.SerializeAsString());
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
    out.push_back(std::move(i));
  }
  return out;
}

void JobStore::forEachResult(const std::string &jobId, int64_t offset, int64_t limit,
                             const std::function<void(int64_t, const v1::TestResult &)> &f) {
  // Sequence numbers run from 1 without gaps: the offset is a key, not rows to skip.
  Statement s(db_, "SELECT seq, result FROM tests WHERE job = ? AND seq > ? ORDER BY seq LIMIT ?");
  s.bind(1, jobId).bind(2, offset).bind(3, limit > 0 ? limit : int64_t(-1));
  while (s.step()) {
    v1::TestResult r;
    r.ParseFromString(s.blob(1));
    f(s.integer(0), r);
  }
}

std::optional<v1::TestResult> JobStore::result(const std::string &jobId, int64_t seq) {
  Statement s(db_, "SELECT result FROM tests WHERE job = ? AND seq = ?");
  s.bind(1, jobId).bind(2, seq);
  if (!s.step())
    return std::nullopt;
  v1::TestResult r;
  r.ParseFromString(s.blob(0));
  return r;
}

JobStore::Batch::Batch(JobStore &store) : store_(store) { store_.exec("BEGIN"); }

JobStore::Batch::~Batch() {
  if (open_)
    sqlite3_exec(store_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void JobStore::Batch::commit() {
  store_.exec("COMMIT");
  open_ = false;
}

} // namespace cairn::server
