// A client's channel to a Cairn service (a worker's to the coordinator, an engine's to the solver
// pool): when the client has a token, every call on it (those of today and any added later)
// carries `authorization: Bearer TOKEN`.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

namespace cairn::auth {

std::shared_ptr<grpc::Channel> channelWithToken(const std::string &target,
                                                std::shared_ptr<grpc::ChannelCredentials> credentials,
                                                const grpc::ChannelArguments &args, const std::string &token);

} // namespace cairn::auth
