// Declarations only: see ../../README.md. ProcessGroupGloo.hpp derives its inline GlooStore from
// gloo::rendezvous::Store and overrides these four members, so the base must be complete with
// them virtual. The shim never constructs a GlooStore (libtorch_cpu does, with gloo's own
// definition), so this class's layout is never used.
#pragma once
#include <chrono>
#include <string>
#include <vector>
namespace gloo {
namespace rendezvous {
class Store {
 public:
  virtual ~Store() = default;
  virtual void set(const std::string& key, const std::vector<char>& data) = 0;
  virtual std::vector<char> get(const std::string& key) = 0;
  virtual void wait(const std::vector<std::string>& keys) = 0;
  virtual void wait(
      const std::vector<std::string>& keys,
      const std::chrono::milliseconds& timeout) = 0;
};
} // namespace rendezvous
} // namespace gloo
