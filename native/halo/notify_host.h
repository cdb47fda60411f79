// native/halo/notify_host.h — host side of the notification flags: pinned,
// mapped host arrays the GPU reads and writes directly, acquire/release
// accessors for flags, and the deadline every CPU spin-wait is bounded by.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "native/clock_sync.h"
#include "native/cuda_check.h"

namespace xferlab::halo {

// PinnedArray: `count` zeroed elements of pinned host memory, mapped into the
// device address space (cudaHostAllocMapped | cudaHostAllocPortable).
template <typename T>
class PinnedArray {
 public:
  PinnedArray() = default;
  explicit PinnedArray(size_t count) : count_(count) {
    if (count_ == 0) return;
    XF_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_), count_ * sizeof(T),
                                cudaHostAllocMapped | cudaHostAllocPortable));
    std::memset(static_cast<void*>(host_), 0, count_ * sizeof(T));
    XF_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0));
  }
  ~PinnedArray() {
    if (host_ != nullptr) cudaFreeHost(host_);
  }
  PinnedArray(PinnedArray&& o) noexcept { swap(o); }
  PinnedArray& operator=(PinnedArray&& o) noexcept {
    swap(o);
    return *this;
  }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;

  T* host() const { return host_; }
  T* device() const { return device_; }
  size_t size() const { return count_; }
  T& operator[](size_t i) const { return host_[i]; }

 private:
  void swap(PinnedArray& o) {
    std::swap(host_, o.host_);
    std::swap(device_, o.device_);
    std::swap(count_, o.count_);
  }
  T* host_ = nullptr;
  T* device_ = nullptr;
  size_t count_ = 0;
};

// load_flag / store_flag: CPU side of a flag shared with the GPU (acquire:
// data written before the flag is visible after it; release: data written
// before the store, e.g. a received MPI buffer, is visible to the GPU reader).
inline uint32_t load_flag(const uint32_t& flag) {
  return std::atomic_ref<const uint32_t>(flag).load(std::memory_order_acquire);
}
inline void store_flag(uint32_t& flag, uint32_t value) {
  std::atomic_ref<uint32_t>(flag).store(value, std::memory_order_release);
}

// Deadline: bounds a CPU spin-wait; expired() reads the clock every 256 calls
// so the polling loop stays cheap.
class Deadline {
 public:
  explicit Deadline(uint64_t timeout_ns)
      : start_ns_(xferlab::native::host_steady_ns()), timeout_ns_(timeout_ns) {}
  bool expired() {
    if ((++calls_ & 255u) != 0) return false;
    return xferlab::native::host_steady_ns() - start_ns_ > timeout_ns_;
  }
  uint64_t elapsed_ns() const { return xferlab::native::host_steady_ns() - start_ns_; }

 private:
  uint64_t start_ns_;
  uint64_t timeout_ns_;
  uint32_t calls_ = 0;
};

}  // namespace xferlab::halo
