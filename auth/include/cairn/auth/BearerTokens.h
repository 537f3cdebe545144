// Bearer tokens on Cairn's gRPC services (the coordinator's, the solver pool's): the token files
// (one token a line) and the check of a call's `authorization: Bearer TOKEN` metadata.
#pragma once

#include <grpcpp/grpcpp.h>

#include <set>
#include <string>

namespace cairn::auth {

// The tokens of a token file's text: each line without surrounding spaces, blank lines skipped.
std::set<std::string> parseTokens(const std::string &text);

// OK when `tokens` is empty (no authentication) or the call carries one of them; otherwise
// UNAUTHENTICATED with `refusal` as the message.
grpc::Status checkBearerToken(const grpc::ServerContextBase &context, const std::set<std::string> &tokens,
                              const std::string &refusal);

} // namespace cairn::auth
