#include "SolverPoolStats.h"

#include "cairn/auth/BearerChannel.h"

#include <grpcpp/grpcpp.h>

#include <chrono>

namespace cairn::server {

SolverPoolStats::SolverPoolStats(std::vector<std::string> addresses, const std::string &token,
                                 double deadlineSeconds)
    : deadlineSeconds_(deadlineSeconds) {
  for (std::string &address : addresses) {
    Replica r;
    r.stub = v1::SolverPool::NewStub(
        auth::channelWithToken(address, grpc::InsecureChannelCredentials(), grpc::ChannelArguments(), token));
    r.address = std::move(address);
    replicas_.push_back(std::move(r));
  }
}

v1::SolverPoolView SolverPoolStats::query() {
  v1::SolverPoolView view;
  view.set_configured(!replicas_.empty());
  for (Replica &r : replicas_) {
    v1::SolverPoolReplica &out = *view.add_replicas();
    out.set_address(r.address);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::milliseconds(int64_t(deadlineSeconds_ * 1000)));
    grpc::Status s = r.stub->Stats(&context, v1::StatsRequest(), out.mutable_stats());
    out.set_reachable(s.ok());
    if (!s.ok()) {
      out.clear_stats();
      out.set_error(s.error_message());
    }
  }
  return view;
}

} // namespace cairn::server
