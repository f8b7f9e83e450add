// Declarations only: see ../README.md. ProcessGroupGloo.hpp holds gloo::Context by shared_ptr;
// its inline `setTimeout` override calls this member, which the shim never emits (the class's
// vtable and that function live in libtorch_cpu).
#pragma once
#include <chrono>
namespace gloo {
class Context {
 public:
  void setTimeout(std::chrono::milliseconds timeout);
};
} // namespace gloo
