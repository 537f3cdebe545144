// The portfolio: races Z3 and cvc5 on each query and answers with the first definite result.
//
// Each racer ("lane") is a backend with its own thread and its own expression context, fed the
// query in serialized form: expression contexts are single-threaded, so the lanes never touch
// the caller's nodes. A lane that loses keeps running until its own timeout ends it (cvc5 1.0
// cannot be interrupted); later queries use another idle lane, up to kMaxLanesPerBackend each.
#include "cairn/solver/Backends.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/solver/SolverChain.h"

#include "cairn/v1/expr.pb.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace cairn {

namespace {

// Where the lanes of one query post their answers.
struct Race {
  std::mutex mutex;
  std::condition_variable done;
  int running = 0;
  bool decided = false;
  bool interrupted = false; // the caller stopped waiting (Solver::interrupt)
  v1::QueryResponse winner;
  std::string winnerName;
  std::string reasons; // of the lanes that could not decide
};

class Lane {
public:
  explicit Lane(CoreSolverKind kind) : kind_(kind), thread_([this] { run(); }) {}
  ~Lane() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  const char *name() const { return kind_ == CoreSolverKind::Z3 ? "z3" : "cvc5"; }

  bool tryStart(std::shared_ptr<const v1::Query> query, std::shared_ptr<Race> race) {
    std::lock_guard lock(mutex_);
    if (query_)
      return false;
    query_ = std::move(query);
    race_ = std::move(race);
    wake_.notify_one();
    return true;
  }

  // Interrupts the lane's query (a Z3 lane's ends; a cvc5 lane's runs on to its time limit).
  void interrupt() {
    std::lock_guard lock(mutex_);
    if (query_ && solver_)
      solver_->interrupt();
  }

  void waitIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return !query_; });
  }

private:
  void run() {
    ExprContext ctx;
    std::unique_ptr<Solver> solver = createCoreSolver(kind_, 0);
    {
      std::lock_guard lock(mutex_);
      solver_ = solver.get();
    }
    while (true) {
      std::shared_ptr<const v1::Query> query;
      std::shared_ptr<Race> race;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || query_; });
        if (stop_) {
          solver_ = nullptr;
          return;
        }
        query = query_;
        race = race_;
      }
      v1::QueryResponse response;
      try {
        bool wantModel = false;
        Query q = deserializeQuery(*query, ctx, &wantModel);
        solver->setTimeout(query->timeout_s());
        serializeResponse(solver->check(q, wantModel), response);
      } catch (const std::exception &e) {
        response.set_result(v1::QueryResponse::RESULT_UNKNOWN);
        response.set_reason(std::string(name()) + ": " + e.what());
      }
      {
        std::lock_guard lock(race->mutex);
        --race->running;
        if (response.result() != v1::QueryResponse::RESULT_UNKNOWN && !race->decided) {
          race->decided = true;
          race->winner = std::move(response);
          race->winnerName = name();
        } else if (response.result() == v1::QueryResponse::RESULT_UNKNOWN) {
          race->reasons += (race->reasons.empty() ? "" : "; ") + response.reason();
        }
      }
      race->done.notify_all();
      {
        std::lock_guard lock(mutex_);
        query_.reset();
        race_.reset();
      }
      idle_.notify_all();
    }
  }

  CoreSolverKind kind_;
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::shared_ptr<const v1::Query> query_;
  std::shared_ptr<Race> race_;
  Solver *solver_ = nullptr; // the thread's own, for interrupt()
  bool stop_ = false;
  std::thread thread_; // last: starts after the members it uses exist
};

class PortfolioSolver final : public Solver {
public:
  explicit PortfolioSolver(double timeoutSeconds) : timeout_(timeoutSeconds) {
    stats_.layer = "portfolio";
    for (CoreSolverKind k : {CoreSolverKind::Z3, CoreSolverKind::Cvc5}) {
      Backend &b = backends_.emplace_back();
      b.kind = k;
      b.stats.layer = k == CoreSolverKind::Z3 ? "portfolio-z3" : "portfolio-cvc5";
    }
  }

  std::string name() const override { return "portfolio(z3,cvc5)"; }

  void interrupt() override {
    std::lock_guard current(currentMutex_);
    if (!current_)
      return;
    {
      std::lock_guard lock(current_->mutex);
      current_->interrupted = true;
    }
    current_->done.notify_all();
    for (Backend &b : backends_)
      for (auto &lane : b.lanes)
        lane->interrupt();
  }
  void setTimeout(double seconds) override { timeout_ = seconds; }
  void collectStats(std::vector<SolverLayerStats> &out) const override {
    out.push_back(stats_);
    for (const Backend &b : backends_)
      out.push_back(b.stats); // queries: races entered; answered: races won
  }

  SolverResponse check(const Query &q, bool wantModel) override {
    ScopedSolverTimer timer(stats_);
    ++stats_.queries;
    auto message = std::make_shared<v1::Query>();
    serializeQuery(q, wantModel, timeout_, *message);
    auto race = std::make_shared<Race>();
    std::vector<std::pair<Backend *, Lane *>> started;
    {
      std::lock_guard current(currentMutex_); // lanes are added here
      std::lock_guard lock(race->mutex);
      for (Backend &b : backends_)
        if (Lane *lane = startOn(b, message, race)) {
          ++race->running;
          started.push_back({&b, lane});
        }
    }
    if (started.empty()) {
      // Every lane is still busy with an earlier loser: wait for the first Z3 lane.
      Lane &lane = *backends_.front().lanes.front();
      lane.waitIdle();
      std::lock_guard lock(race->mutex);
      if (lane.tryStart(message, race)) {
        ++race->running;
        started.push_back({&backends_.front(), &lane});
      }
    }
    for (auto &[b, lane] : started)
      ++b->stats.queries;

    {
      std::lock_guard lock(currentMutex_);
      current_ = race;
    }
    {
      std::unique_lock lock(race->mutex);
      race->done.wait(lock, [&] { return race->decided || race->running == 0 || race->interrupted; });
    }
    { // not under race->mutex: interrupt() takes currentMutex_ first
      std::lock_guard current(currentMutex_);
      current_.reset();
    }
    std::lock_guard lock(race->mutex);
    if (!race->decided && race->interrupted) {
      ++stats_.unknown;
      return SolverResponse::unknown("interrupted");
    }
    if (!race->decided) {
      ++stats_.unknown;
      return SolverResponse::unknown(race->reasons.empty() ? "no solver answered"
                                                           : race->reasons);
    }
    ++stats_.answered;
    for (Backend &b : backends_)
      if (race->winnerName == (b.kind == CoreSolverKind::Z3 ? "z3" : "cvc5"))
        ++b.stats.answered;
    ExprContext *ctx = contextOf(q);
    if (!ctx) // nothing to assign: the answer alone matters
      return {race->winner.result() == v1::QueryResponse::RESULT_SAT ? SatResult::Sat
                                                                     : SatResult::Unsat,
              {}, {}};
    return deserializeResponse(race->winner, *ctx);
  }

private:
  static constexpr size_t kMaxLanesPerBackend = 2;

  struct Backend {
    CoreSolverKind kind;
    std::vector<std::unique_ptr<Lane>> lanes;
    SolverLayerStats stats;
  };

  Lane *startOn(Backend &b, const std::shared_ptr<const v1::Query> &message,
                const std::shared_ptr<Race> &race) {
    for (auto &lane : b.lanes)
      if (lane->tryStart(message, race))
        return lane.get();
    if (b.lanes.size() >= kMaxLanesPerBackend)
      return nullptr;
    Lane *lane = b.lanes.emplace_back(std::make_unique<Lane>(b.kind)).get();
    lane->tryStart(message, race);
    return lane;
  }

  double timeout_;
  SolverLayerStats stats_;
  std::vector<Backend> backends_; // lanes added under currentMutex_, which interrupt() holds
  std::mutex currentMutex_;
  std::shared_ptr<Race> current_; // the race the caller waits on, for interrupt()
};

} // namespace

std::unique_ptr<Solver> createPortfolioSolver(double timeoutSeconds) {
  return std::make_unique<PortfolioSolver>(timeoutSeconds);
}

} // namespace cairn
