// Declarations only: see ../../README.md. ProcessGroupGloo.hpp holds devices and buffers by
// shared_ptr/unique_ptr, so their definitions never enter its layout.
#pragma once
namespace gloo {
namespace transport {
class Device;
class UnboundBuffer;
} // namespace transport
} // namespace gloo
