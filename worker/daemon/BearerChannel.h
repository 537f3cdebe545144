// The worker's channel to the coordinator: when the worker has a token, every call on it (those
// of today and any added later) carries `authorization: Bearer TOKEN`.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

namespace cairn::worker {

std::shared_ptr<grpc::Channel> channelWithToken(const std::string &target,
                                                std::shared_ptr<grpc::ChannelCredentials> credentials,
                                                const grpc::ChannelArguments &args, const std::string &token);

} // namespace cairn::worker
