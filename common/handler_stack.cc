#include "common/handler_stack.h"

#include <pthread.h>

#include <cstdlib>

namespace fleetcap {

void RunOnHandlerStack(const std::function<void()>& work) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kHandlerStackBytes);
  pthread_t thread;
  auto body = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  // Without its own thread the caller could not promise the size; failing to make one is fatal.
  if (pthread_create(&thread, &attributes, body, const_cast<std::function<void()>*>(&work)) != 0) std::abort();
  pthread_attr_destroy(&attributes);
  pthread_join(thread, nullptr);
}

}  // namespace fleetcap
