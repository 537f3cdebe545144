#include "Worker.h"

#include "cairn/auth/BearerChannel.h"

#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"
#include "cairn/service/FramedResults.h"
#include "cairn/service/ServiceMessages.h"
#include "cairn/v1/coordinator.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

namespace cairn::worker {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::unique_ptr<grpc::ClientContext> contextWithin(double seconds) {
  auto c = std::make_unique<grpc::ClientContext>();
  c->set_deadline(std::chrono::system_clock::now() +
                  std::chrono::milliseconds(int64_t(seconds * 1000)));
  return c;
}

struct LoadedProgram {
  std::unique_ptr<engine::LoadedModule> module;
  std::unique_ptr<engine::Program> program;
};

} // namespace

class Worker::Impl {
public:
  explicit Impl(WorkerOptions options) : options_(std::move(options)) {
    std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
    if (!options_.tlsCa.empty()) {
      grpc::SslCredentialsOptions ssl;
      std::ifstream in(options_.tlsCa);
      ssl.pem_root_certs.assign(std::istreambuf_iterator<char>(in), {});
      credentials = grpc::SslCredentials(ssl);
    }
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(1 << 30);
    args.SetMaxSendMessageSize(1 << 30);
    stub_ = v1::Coordinator::NewStub(auth::channelWithToken(options_.server, credentials, args, options_.token));
    if (!options_.maxMemoryMB)
      options_.maxMemoryMB = defaultItemMemoryMB();
    if (options_.cacheDir.empty())
      options_.cacheDir = (fs::temp_directory_path() / ("cairn-worker-" + std::to_string(::getpid()))).string();
    fs::create_directories(options_.cacheDir);
  }

  ~Impl() {
    std::error_code ec;
    fs::remove_all(options_.cacheDir, ec);
  }

  void run() {
    std::thread beats([this] { heartbeats(); });
    std::thread watch([this] { watchInstructions(); });
    while (!stopping_) {
      std::string id = workerId();
      if (id.empty()) {
        registerWorker();
        continue;
      }
      v1::GetWorkRequest request;
      request.set_worker_id(id);
      request.set_wait_s(2);
      v1::GetWorkResponse response;
      auto context = contextWithin(15);
      grpc::Status s = stub_->GetWork(context.get(), request, &response);
      if (s.error_code() == grpc::StatusCode::NOT_FOUND ||
          s.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
        forget(id); // registering again says why, and waits
      } else if (!s.ok()) {
        pause(0.5);
      } else if (response.has_item()) {
        explore(id, response.item());
      }
    }
    {
      std::lock_guard lock(mutex_);
      beatsWake_.notify_all();
    }
    beats.join();
    watch.join();
  }

  void stop() {
    stopping_ = true;
    dropItem();
    std::lock_guard lock(mutex_);
    if (watch_)
      watch_->TryCancel();
    beatsWake_.notify_all();
    stopWake_.notify_all();
  }

private:
  // --- registration and heartbeats -----------------------------------------------------------

  std::string workerId() {
    std::lock_guard lock(mutex_);
    return workerId_;
  }

  // The coordinator no longer knows `id`: register anew (unless that happened already), and
  // drop the item received under it, which the coordinator hands out again. An item received
  // under a newer registration is that registration's, and runs on.
  void forget(const std::string &id) {
    std::lock_guard lock(mutex_);
    forgetLocked(id);
  }
  void forgetLocked(const std::string &id) {
    if (workerId_ == id)
      workerId_.clear();
    if (!itemOwner_.empty() && itemOwner_ == id)
      dropItemLocked();
  }

  void registerWorker() {
    v1::RegisterWorkerRequest request;
    char host[256] = "";
    ::gethostname(host, sizeof host - 1);
    request.set_name(options_.name.empty() ? std::string(host) + ":" + std::to_string(::getpid()) : options_.name);
    request.set_slots(1);
    request.set_max_memory_mb(options_.maxMemoryMB);
    v1::RegisterWorkerResponse response;
    auto context = contextWithin(5);
    grpc::Status s = stub_->RegisterWorker(context.get(), request, &response);
    if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
      // A wrong or missing token stays wrong until someone changes it: say so once, ask seldom.
      if (!warnedRefused_)
        spdlog::error("coordinator {} refused this worker: {}; retrying every {} s", options_.server,
                      s.error_message(), kRefusedRetrySeconds);
      warnedRefused_ = true;
      pause(kRefusedRetrySeconds);
      return;
    }
    if (!s.ok()) {
      if (!warnedUnreachable_)
        spdlog::warn("coordinator {} unreachable ({}): retrying", options_.server, s.error_message());
      warnedUnreachable_ = true;
      pause(0.5);
      return;
    }
    warnedUnreachable_ = false;
    if (warnedRefused_)
      spdlog::info("coordinator {} took this worker's token", options_.server);
    warnedRefused_ = false;
    std::lock_guard lock(mutex_);
    workerId_ = response.worker_id();
    interval_ = response.heartbeat_interval_s() > 0 ? response.heartbeat_interval_s() : 1;
    spdlog::info("registered with {} as {}", options_.server, workerId_);
    // The heartbeat thread waits out the interval it knew: it beats now, at the coordinator's.
    beatsWake_.notify_all();
  }

  void heartbeats() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      beatsWake_.wait_for(lock, std::chrono::milliseconds(int64_t(interval_ * 1000)));
      if (stopping_ || workerId_.empty())
        continue;
      v1::HeartbeatRequest request;
      request.set_worker_id(workerId_);
      if (executor_) {
        request.set_queue_length(executor_->liveStates());
        request.add_running_items(itemId_);
        v1::ItemProgress *p = request.add_progress();
        p->set_item_id(itemId_);
        *p->mutable_counters() = progress_;
      }
      lock.unlock();
      v1::HeartbeatResponse response;
      auto context = contextWithin(std::max(2.0, interval_));
      grpc::Status s = stub_->Heartbeat(context.get(), request, &response);
      lock.lock();
      if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
        // Forgotten (the coordinator restarted, or took us for lost): the item in hand is
        // handed out again by the coordinator, so this engine's copy stops.
        spdlog::warn("the coordinator does not know this worker any more: registering again");
        forgetLocked(request.worker_id());
        continue;
      }
      for (const v1::WorkerInstruction &i : response.instructions())
        applyLocked(i);
    }
  }

  void applyLocked(const v1::WorkerInstruction &i) {
    if (i.has_split())
      spdlog::debug("split {} off item {} asked (running: {})", i.split().count(), i.split().item_id(),
                    executor_ ? itemId_ : "nothing");
    if (i.has_split() && executor_ && i.split().item_id() == itemId_)
      executor_->requestSplit(i.split().count());
    else if (i.has_split()) // the item's engine is not running yet: the request waits for it
      earlySplit_ = i.split();
    else if (i.has_cancel() && i.cancel().item_id() == itemId_)
      dropItemLocked();
  }

  // Keeps the coordinator's instruction stream open, so that a split request reaches the engine
  // within milliseconds rather than at the next heartbeat (which also carries them).
  void watchInstructions() {
    while (!stopping_) {
      std::string id = workerId();
      if (id.empty()) {
        pause(0.1);
        continue;
      }
      grpc::ClientContext context;
      {
        std::lock_guard lock(mutex_);
        if (stopping_)
          break;
        watch_ = &context;
      }
      v1::WatchInstructionsRequest request;
      request.set_worker_id(id);
      auto reader = stub_->WatchInstructions(&context, request);
      for (v1::WorkerInstruction i; reader->Read(&i);) {
        std::lock_guard lock(mutex_);
        applyLocked(i);
      }
      grpc::Status s = reader->Finish();
      {
        std::lock_guard lock(mutex_);
        watch_ = nullptr;
      }
      if (s.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
        spdlog::info("the coordinator has no instruction stream: instructions come with heartbeats");
        return;
      }
      if (s.error_code() == grpc::StatusCode::NOT_FOUND)
        forget(id);
      if (!stopping_)
        pause(0.2);
    }
  }

  // --- the item in hand -------------------------------------------------------------------

  void dropItem() {
    std::lock_guard lock(mutex_);
    dropItemLocked();
  }
  void dropItemLocked() {
    dropped_ = true;
    stopItem_ = 1;
  }

  bool dropped() {
    std::lock_guard lock(mutex_);
    return dropped_;
  }

  const engine::Program *program(const v1::WorkItem &item, engine::LibcKind libc, std::string &failure) {
    auto it = programs_.find(item.program_digest());
    if (it != programs_.end())
      return it->second.program.get();
    if (item.bitcode().empty()) {
      failure = "the worker has not received program " + item.program_digest();
      return nullptr;
    }
    fs::path file = fs::path(options_.cacheDir) / (item.program_digest() + ".bc");
    {
      std::ofstream out(file, std::ios::binary);
      out << item.bitcode();
    }
    try {
      engine::LoadOptions load;
      load.linkRuntime = false; // the coordinator linked it
      load.entry = item.entry();
      // Under the full libc the coordinator linked the POSIX model's start, which calls the entry.
      const std::string start = libc == engine::LibcKind::Full ? engine::kPosixStart : item.entry();
      LoadedProgram loaded;
      loaded.module = engine::loadProgram(file.string(), load);
      loaded.program = engine::translateProgram(*loaded.module, start);
      if (programs_.size() >= 8)
        programs_.erase(programs_.begin());
      return (programs_[item.program_digest()] = std::move(loaded)).program.get();
    } catch (const std::exception &e) {
      failure = e.what();
      return nullptr;
    }
  }

  // Results go to the coordinator in batches, sent by a thread of their own: the engine goes on
  // exploring while the coordinator stores a batch, instead of waiting a round trip for each.
  // A batch that does not get through is sent again, and after kAttempts failures in a row the
  // item is dropped (the coordinator hands it out again; what arrived stays, deduplicated).
  class Stream final : public engine::ResultSink {
  public:
    Stream(Impl &worker, std::string workerId, std::string itemId)
        : worker_(worker), workerId_(std::move(workerId)), itemId_(std::move(itemId)),
          sender_([this] { sendBatches(); }) {}
    ~Stream() {
      {
        std::lock_guard lock(mutex_);
        closing_ = true;
      }
      changed_.notify_all();
      sender_.join();
    }

    void onTest(const engine::TestCase &test) override {
      if (worker_.dropped())
        return;
      service::appendFramed(*pending_.mutable_framed_results(), service::toMessage(test));
      if (++pendingCount_ >= kBatch || Clock::now() - lastQueued_ > std::chrono::milliseconds(250))
        queuePending();
    }

    // Waits until every result is delivered; false when they could not be.
    bool finish() {
      queuePending();
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return failed_ || (queued_.empty() && !sending_); });
      return !failed_;
    }

  private:
    // Each batch costs the coordinator an RPC and a stored row, whatever its size; a quarter
    // of a second bounds how late a slow run's results arrive.
    static constexpr size_t kBatch = 256;
    // Batches waiting to be sent before the engine waits too: a coordinator that falls behind
    // slows exploration down rather than filling the worker's memory.
    static constexpr size_t kMaxQueued = 4;
    static constexpr int kAttempts = 20;

    void queuePending() {
      lastQueued_ = Clock::now();
      if (pendingCount_ == 0)
        return;
      pendingCount_ = 0;
      pending_.set_worker_id(workerId_);
      pending_.set_item_id(itemId_);
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return failed_ || queued_.size() < kMaxQueued; });
      if (!failed_)
        queued_.push_back(std::move(pending_));
      pending_.Clear();
      changed_.notify_all();
    }

    void sendBatches() {
      std::unique_lock lock(mutex_);
      int failures = 0;
      for (;;) {
        changed_.wait(lock, [&] { return closing_ || (!queued_.empty() && !failed_); });
        if (closing_ || failed_)
          return;
        const v1::ReportResultsRequest &batch = queued_.front(); // only the sender removes batches
        sending_ = true;
        lock.unlock();
        const bool sent = worker_.dropped() || send(batch); // a dropped item's results are not wanted
        lock.lock();
        sending_ = false;
        if (sent) {
          queued_.pop_front();
          failures = 0;
        } else if (++failures == kAttempts || worker_.stopping_) {
          failed_ = true;
          spdlog::warn("item {}: results not delivered: dropping the item", itemId_);
          worker_.dropItem();
        } else {
          lock.unlock();
          worker_.pause(0.5);
          lock.lock();
        }
        changed_.notify_all();
      }
    }

    bool send(const v1::ReportResultsRequest &batch) {
      v1::ReportResultsResponse response;
      auto context = contextWithin(10);
      return worker_.stub_->ReportResults(context.get(), batch, &response).ok();
    }

    Impl &worker_;
    const std::string workerId_, itemId_;
    v1::ReportResultsRequest pending_; // the engine's, not yet queued: its results framed
    size_t pendingCount_ = 0;
    Clock::time_point lastQueued_ = Clock::now();

    std::mutex mutex_; // guards what follows
    std::condition_variable changed_;
    std::deque<v1::ReportResultsRequest> queued_;
    bool sending_ = false, failed_ = false, closing_ = false;
    std::thread sender_; // last: starts once the rest is built
  };

  void explore(const std::string &workerId, const v1::WorkItem &item) {
    spdlog::info("item {} of job {}: {} choices to replay", item.item_id(), item.job_id(),
                 item.prefix().choices_size());
    v1::ItemDoneRequest done;
    done.set_worker_id(workerId);
    done.set_item_id(item.item_id());
    engine::ExecutorOptions options;
    std::string failure = service::toExecutorOptions(item.options(), options);
    const engine::Program *prog = failure.empty() ? program(item, options.posix.libc, failure) : nullptr;
    if (!failure.empty()) {
      spdlog::error("item {}: {}", item.item_id(), failure);
      done.set_failure(failure);
      finish(done);
      return;
    }
    limitMemory(item, options);
    options.solver.poolEndpoints = options_.poolEndpoints;
    options.solver.poolToken = options_.poolToken;
    options.programArgs.assign(item.program_args().begin(), item.program_args().end());
    options.posix.programName = item.program_name();
    options.starts.push_back(service::fromMessage(item.prefix()));
    for (const v1::PathPrefix &p : item.more_prefixes())
      options.starts.push_back(service::fromMessage(p));
    for (const v1::PathPrefix &p : item.excluded())
      options.excluded.push_back(service::fromMessage(p));
    options.stopRequested = &stopItem_;
    options.onProgress = [this](const engine::RunStatistics &s, size_t) {
      std::lock_guard lock(mutex_);
      progress_ = service::countersOf(s);
    };
    Stream stream(*this, workerId, item.item_id());
    bool splitLost = false;
    // Sent even with no prefix: the answer lets the coordinator ask again.
    options.onSplit = [&](std::vector<engine::PathPrefix> prefixes) {
      if (dropped())
        return;
      v1::SplitOffRequest request;
      request.set_worker_id(workerId);
      request.set_item_id(item.item_id());
      for (const engine::PathPrefix &p : prefixes)
        *request.add_prefixes() = service::toMessage(p);
      v1::SplitOffResponse response;
      auto context = contextWithin(10);
      const auto asked = std::chrono::steady_clock::now();
      grpc::Status s = stub_->SplitOff(context.get(), request, &response);
      spdlog::debug("item {}: {} states split off ({:.1f} ms to hand over)", item.item_id(), prefixes.size(),
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count());
      if (!s.ok() && !prefixes.empty()) {
        // The states left this engine but no item holds them: this run is no longer the whole
        // item, so it is dropped and the coordinator hands the item out again.
        spdlog::warn("item {}: split not taken ({}): dropping the item", item.item_id(), s.error_message());
        splitLost = true;
        dropItem();
      }
    };
    engine::RunStatistics stats;
    {
      engine::Executor executor(*prog, options, stream);
      {
        std::lock_guard lock(mutex_);
        // Forgotten since the item came (workerId_ no longer the id it came under), the item
        // is already someone else's; stopping, it is left to the coordinator.
        dropped_ = workerId_ != workerId || stopping_;
        stopItem_ = dropped_;
        executor_ = &executor;
        itemId_ = item.item_id();
        itemOwner_ = workerId;
        progress_.Clear();
        if (earlySplit_.item_id() == itemId_)
          executor.requestSplit(earlySplit_.count());
        earlySplit_.Clear();
      }
      stats = executor.run();
      std::lock_guard lock(mutex_);
      executor_ = nullptr;
      itemId_.clear();
      itemOwner_.clear();
    }
    if (dropped() || splitLost) {
      spdlog::info("item {} dropped", item.item_id());
      return;
    }
    if (!stream.finish())
      return; // the stream said why, and dropped the item
    *done.mutable_counters() = service::countersOf(stats);
    done.mutable_coverage()->mutable_lines()->Add(stats.coveredLines.begin(), stats.coveredLines.end());
    done.mutable_coverage()->set_lines_total(uint32_t(stats.linesTotal));
    for (uint32_t b = 0; b < stats.branchesTaken.size(); ++b)
      if (stats.branchesTaken[b])
        done.mutable_coverage()->add_branches(b);
    spdlog::info("item {} done: {} paths, {} instructions", item.item_id(), stats.pathsCompleted,
                 stats.instructions);
    finish(done);
  }

  // The item's memory limit, within this worker's: a job without one runs under the engine's
  // default or the worker's, the lower. A coordinator that matches limits to workers never
  // sends one over; an older one may, and the item then runs under this worker's.
  void limitMemory(const v1::WorkItem &item, engine::ExecutorOptions &options) const {
    const uint64_t asked = service::askedMemoryMB(item.options());
    if (asked > options_.maxMemoryMB)
      spdlog::warn("item {}: its job's memory limit of {} MB is over this worker's {} MB: the item runs under {} MB",
                   item.item_id(), asked, options_.maxMemoryMB, options_.maxMemoryMB);
    if (!options.maxMemoryMB || options.maxMemoryMB > options_.maxMemoryMB)
      options.maxMemoryMB = options_.maxMemoryMB;
  }

  void finish(const v1::ItemDoneRequest &done) {
    for (int attempt = 0; attempt < 20 && !stopping_; ++attempt) {
      v1::ItemDoneResponse response;
      auto context = contextWithin(10);
      grpc::Status s = stub_->ItemDone(context.get(), done, &response);
      if (s.ok() || s.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
          s.error_code() == grpc::StatusCode::NOT_FOUND)
        return;
      pause(0.5);
    }
  }

  void pause(double seconds) {
    std::unique_lock lock(mutex_);
    stopWake_.wait_for(lock, std::chrono::milliseconds(int64_t(seconds * 1000)), [&] { return stopping_.load(); });
  }

  WorkerOptions options_;
  std::unique_ptr<v1::Coordinator::Stub> stub_;
  std::map<std::string, LoadedProgram> programs_;
  std::atomic<bool> stopping_{false};
  bool warnedUnreachable_ = false;
  bool warnedRefused_ = false;
  static constexpr double kRefusedRetrySeconds = 10;

  std::mutex mutex_; // guards what follows
  std::condition_variable beatsWake_, stopWake_;
  std::string workerId_;
  double interval_ = 1;
  engine::Executor *executor_ = nullptr;
  std::string itemId_;
  std::string itemOwner_; // the registration the item in hand came under
  v1::Counters progress_;
  bool dropped_ = false;
  grpc::ClientContext *watch_ = nullptr; // the open instruction stream, cancelled by stop()
  // A split request that came before its item's engine started (the coordinator asks as soon
  // as it hands the item out).
  v1::WorkerInstruction::Split earlySplit_;
  volatile std::sig_atomic_t stopItem_ = 0;
};

uint64_t defaultItemMemoryMB() {
  uint64_t bytes = uint64_t(::sysconf(_SC_PHYS_PAGES)) * uint64_t(::sysconf(_SC_PAGESIZE));
  // cgroup v2, then v1: "max" or a number of bytes.
  for (const char *file : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(file);
    uint64_t limit = 0;
    if (in >> limit && limit > 0 && limit < bytes)
      bytes = limit;
  }
  return std::max<uint64_t>(bytes / 4 * 3 >> 20, 1);
}

Worker::Worker(WorkerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Worker::~Worker() = default;
void Worker::run() { impl_->run(); }
void Worker::stop() { impl_->stop(); }

} // namespace cairn::worker
