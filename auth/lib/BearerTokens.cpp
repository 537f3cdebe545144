#include "cairn/auth/BearerTokens.h"

#include <sstream>

namespace cairn::auth {

std::set<std::string> parseTokens(const std::string &text) {
  std::set<std::string> tokens;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos)
      continue;
    tokens.insert(line.substr(first, line.find_last_not_of(" \t\r") + 1 - first));
  }
  return tokens;
}

grpc::Status checkBearerToken(const grpc::ServerContextBase &context, const std::set<std::string> &tokens,
                              const std::string &refusal) {
  if (tokens.empty())
    return grpc::Status::OK;
  auto range = context.client_metadata().equal_range("authorization");
  for (auto it = range.first; it != range.second; ++it) {
    std::string value(it->second.data(), it->second.size());
    if (value.rfind("Bearer ", 0) == 0 && tokens.count(value.substr(7)))
      return grpc::Status::OK;
  }
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, refusal);
}

} // namespace cairn::auth
