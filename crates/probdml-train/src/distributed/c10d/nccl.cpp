#include "nccl.hpp"

#include <stdexcept>

#ifdef PROBDML_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace probdml {

#ifdef PROBDML_NCCL

bool nccl_compiled() {
  return true;
}

c10::intrusive_ptr<c10d::Backend> make_nccl(
    const c10::intrusive_ptr<c10d::Store>& store,
    int rank,
    int world,
    std::chrono::milliseconds timeout) {
  auto opts = c10d::ProcessGroupNCCL::Options::create();
  opts->timeout = timeout;
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world, opts);
}

#else

bool nccl_compiled() {
  return false;
}

c10::intrusive_ptr<c10d::Backend> make_nccl(
    const c10::intrusive_ptr<c10d::Store>&,
    int,
    int,
    std::chrono::milliseconds) {
  throw std::runtime_error(
      "probdml was built without NCCL (no libtorch_cuda, nccl.h or cuda_runtime_api.h beside "
      "the libtorch it was built against); CUDA tensors cannot be reduced");
}

#endif

} // namespace probdml
