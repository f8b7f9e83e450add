// The C ABI between `probdml::distributed` and libtorch's c10d engine (TCPStore, ProcessGroupGloo,
// ProcessGroupNCCL where compiled in). Every entry point catches every C++ exception and returns
// its message as a heap string (NULL on success): no exception may unwind into Rust.
//
// Tensors arrive as the `at::Tensor*` that tch's `Tensor::as_mut_ptr` exposes (torch-sys's
// `C_tensor` is `torch::Tensor`).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "nccl.hpp"

namespace {

using std::chrono::milliseconds;

// A rank that lives increments its counter at this period; a rank whose counter stands still
// over `kLostAfter` is reported lost (see probdml_dist_lost_ranks).
constexpr milliseconds kHeartbeat{250};
constexpr milliseconds kLostAfter{2000};

char* message(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out != nullptr) {
    std::memcpy(out, text.c_str(), text.size() + 1);
  }
  return out;
}

template <typename F>
char* guarded(F&& body) {
  try {
    body();
    return nullptr;
  } catch (const std::exception& e) {
    return message(e.what());
  } catch (...) {
    return message("unknown C++ exception");
  }
}

std::string heartbeat_key(int rank) {
  return "heartbeat/" + std::to_string(rank);
}

} // namespace

struct ProbdmlGroup {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::Backend> gloo;
  c10::intrusive_ptr<c10d::Backend> nccl;
  int rank = 0;
  int world = 1;
  milliseconds timeout{0};
  std::atomic<bool> stop{false};
  // Set by a failed collective: the backends may then hold worker threads blocked on a peer
  // that is gone, and their destructors would wait for them.
  std::atomic<bool> failed{false};
  std::thread heartbeat;

  c10d::Backend& backend_for(const at::Tensor& t) {
    if (t.is_cuda()) {
      if (!nccl) {
        throw std::runtime_error(
            "tensor is on CUDA but this process group has no NCCL backend (probdml was built "
            "without NCCL headers, or the group was created for the CPU)");
      }
      return *nccl;
    }
    return *gloo;
  }

  void wait(const c10::intrusive_ptr<c10d::Work>& work) {
    if (!work->wait(timeout)) {
      throw std::runtime_error("collective did not finish");
    }
  }
};

template <typename F>
char* collective(ProbdmlGroup* g, F&& body) {
  char* err = guarded(std::forward<F>(body));
  if (err != nullptr) {
    g->failed.store(true);
  }
  return err;
}

extern "C" {

int probdml_dist_has_nccl() {
  return probdml::nccl_compiled() ? 1 : 0;
}

// `agent_store` != 0: every rank is a client of a store someone else hosts (torchrun's agent,
// TORCHELASTIC_USE_AGENT_STORE=True); otherwise rank 0 hosts it, as torch.distributed does.
char* probdml_dist_init(
    const char* host,
    uint16_t port,
    int rank,
    int world,
    int64_t timeout_ms,
    int agent_store,
    int want_nccl,
    ProbdmlGroup** out) {
  *out = nullptr;
  ProbdmlGroup* group = nullptr;
  char* err = guarded([&] {
    auto g = std::make_unique<ProbdmlGroup>();
    g->rank = rank;
    g->world = world;
    g->timeout = milliseconds(timeout_ms);
    c10d::TCPStoreOptions opts;
    opts.port = port;
    opts.isServer = agent_store == 0 && rank == 0;
    opts.numWorkers = static_cast<std::size_t>(world);
    opts.waitWorkers = false;
    opts.timeout = g->timeout;
    opts.multiTenant = true;
    auto tcp = c10::make_intrusive<c10d::TCPStore>(std::string(host), opts);
    g->store = c10::make_intrusive<c10d::PrefixStore>("probdml/", tcp);

    auto gloo_opts = c10d::ProcessGroupGloo::Options::create_default(g->timeout);
    gloo_opts->timeout = g->timeout;
    g->gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(
        c10::make_intrusive<c10d::PrefixStore>("gloo/", g->store), rank, world, gloo_opts);
    if (want_nccl != 0) {
      g->nccl = probdml::make_nccl(
          c10::make_intrusive<c10d::PrefixStore>("nccl/", g->store), rank, world, g->timeout);
    }

    // Heartbeat on its own connection (TCPStore::clone), so that a collective blocked on the
    // main thread never delays it. Errors are swallowed: the store goes away at shutdown.
    auto beat_store = c10::make_intrusive<c10d::PrefixStore>("probdml/", tcp->clone());
    auto* raw = g.get();
    raw->heartbeat = std::thread([raw, beat_store] {
      const std::string key = heartbeat_key(raw->rank);
      while (!raw->stop.load()) {
        try {
          beat_store->add(key, 1);
        } catch (...) {
        }
        for (int i = 0; i < 5 && !raw->stop.load(); ++i) {
          std::this_thread::sleep_for(kHeartbeat / 5);
        }
      }
    });
    group = g.release();
  });
  *out = group;
  return err;
}

void probdml_dist_free(ProbdmlGroup* group) {
  if (group == nullptr) {
    return;
  }
  group->stop.store(true);
  if (group->heartbeat.joinable()) {
    group->heartbeat.join();
  }
  if (group->failed.load()) {
    // The process is about to exit with the error; leaking is cheaper than a blocked join.
    return;
  }
  try {
    delete group;
  } catch (...) {
  }
}

void probdml_dist_free_message(char* text) {
  std::free(text);
}

char* probdml_dist_all_reduce_sum(ProbdmlGroup* g, at::Tensor* t) {
  return collective(g, [&] {
    std::vector<at::Tensor> tensors{*t};
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::SUM;
    opts.timeout = g->timeout;
    g->wait(g->backend_for(*t).allreduce(tensors, opts));
  });
}

char* probdml_dist_broadcast(ProbdmlGroup* g, at::Tensor* t, int root) {
  return collective(g, [&] {
    std::vector<at::Tensor> tensors{*t};
    c10d::BroadcastOptions opts;
    opts.rootRank = root;
    opts.timeout = g->timeout;
    g->wait(g->backend_for(*t).broadcast(tensors, opts));
  });
}

// `*out` receives a new tensor of shape [world, ...input.shape], row r from rank r.
char* probdml_dist_all_gather(ProbdmlGroup* g, at::Tensor* input, at::Tensor** out) {
  *out = nullptr;
  return collective(g, [&] {
    std::vector<at::Tensor> rows;
    rows.reserve(g->world);
    for (int r = 0; r < g->world; ++r) {
      rows.push_back(at::empty_like(*input));
    }
    std::vector<std::vector<at::Tensor>> outputs{rows};
    std::vector<at::Tensor> inputs{*input};
    c10d::AllgatherOptions opts;
    opts.timeout = g->timeout;
    g->wait(g->backend_for(*input).allgather(outputs, inputs, opts));
    *out = new at::Tensor(at::stack(outputs[0]));
  });
}

char* probdml_dist_barrier(ProbdmlGroup* g) {
  return collective(g, [&] {
    c10d::BarrierOptions opts;
    opts.timeout = g->timeout;
    g->wait(g->gloo->barrier(opts));
  });
}

// After a failed collective: which ranks stopped beating. Writes up to `cap` ranks into `lost`
// and returns their count, or -1 when the store itself cannot be reached (its host is gone).
int probdml_dist_lost_ranks(ProbdmlGroup* g, int* lost, int cap) {
  try {
    auto store = g->store;
    std::vector<int64_t> before(g->world, 0);
    for (int r = 0; r < g->world; ++r) {
      before[r] = store->add(heartbeat_key(r), 0);
    }
    std::this_thread::sleep_for(kLostAfter);
    int n = 0;
    for (int r = 0; r < g->world; ++r) {
      if (r != g->rank && store->add(heartbeat_key(r), 0) == before[r] && n < cap) {
        lost[n++] = r;
      }
    }
    return n;
  } catch (...) {
    return -1;
  }
}

} // extern "C"
