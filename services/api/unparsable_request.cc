#include "services/api/unparsable_request.h"

namespace fleetcap::api {
namespace {

class UnparsableRequestInterceptor : public grpc::experimental::Interceptor {
 public:
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status status = methods->GetSendStatus();
      if (status.error_code() == grpc::StatusCode::INTERNAL &&
          (status.error_message().empty() || status.error_message() == "No payload")) {
        methods->ModifySendStatus(
            grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                         "request: not a valid message of this method (is every string field valid UTF-8?)"));
      }
    }
    methods->Proceed();
  }
};

class UnparsableRequestFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo*) override {
    return new UnparsableRequestInterceptor();
  }
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> UnparsableRequestInterceptors() {
  return std::make_unique<UnparsableRequestFactory>();
}

}  // namespace fleetcap::api
