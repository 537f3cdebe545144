#include "cairn/auth/BearerChannel.h"

#include <grpcpp/support/client_interceptor.h>

namespace cairn::auth {

namespace {

namespace gx = grpc::experimental;

class BearerInterceptor final : public gx::Interceptor {
public:
  explicit BearerInterceptor(const std::string &token) : header_("Bearer " + token) {}
  void Intercept(gx::InterceptorBatchMethods *methods) override {
    if (methods->QueryInterceptionHookPoint(gx::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA))
      methods->GetSendInitialMetadata()->insert({"authorization", header_});
    methods->Proceed();
  }

private:
  std::string header_;
};

class BearerInterceptorFactory final : public gx::ClientInterceptorFactoryInterface {
public:
  explicit BearerInterceptorFactory(std::string token) : token_(std::move(token)) {}
  gx::Interceptor *CreateClientInterceptor(gx::ClientRpcInfo *) override { return new BearerInterceptor(token_); }

private:
  std::string token_;
};

} // namespace

std::shared_ptr<grpc::Channel> channelWithToken(const std::string &target,
                                                std::shared_ptr<grpc::ChannelCredentials> credentials,
                                                const grpc::ChannelArguments &args, const std::string &token) {
  if (token.empty())
    return grpc::CreateCustomChannel(target, credentials, args);
  std::vector<std::unique_ptr<gx::ClientInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(std::make_unique<BearerInterceptorFactory>(token));
  return gx::CreateCustomChannelWithInterceptors(target, credentials, args, std::move(interceptors));
}

} // namespace cairn::auth
