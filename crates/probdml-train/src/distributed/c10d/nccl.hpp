// The NCCL backend, kept in its own translation unit: it needs the CUDA and NCCL headers, which
// build.rs finds only beside a CUDA build of libtorch (then it defines PROBDML_NCCL).
#pragma once

#include <chrono>

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

namespace probdml {

bool nccl_compiled();

c10::intrusive_ptr<c10d::Backend> make_nccl(
    const c10::intrusive_ptr<c10d::Store>& store,
    int rank,
    int world,
    std::chrono::milliseconds timeout);

} // namespace probdml
