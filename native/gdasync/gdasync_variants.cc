// native/gdasync/gdasync_variants.cc — host, SA and KI variants (see header).
#include "native/gdasync/gdasync_variants.h"

#include <mpi.h>

#include <memory>

#include "native/gdasync/ki_kernel.h"
#include "native/gdasync/nic_proxy.h"
#include "native/mpi_check.h"
#include "native/stream_memops.h"

namespace xferlab::gdasync {
namespace {

using xferlab::halo::FlagArray;
using xferlab::halo::HaloContext;
using xferlab::halo::Phase;
using xferlab::halo::PinnedArray;
using xferlab::halo::Region;
using xferlab::halo::Variant;
using xferlab::halo::VariantRunner;

// memops: the stream memory operations, loaded once; a driver without them
// ends the job with the loader's one-line report.
const xferlab::native::StreamMemOps& memops(const HaloContext& c) {
  static const auto ops = xferlab::native::load_stream_memops();
  if (!ops.ok()) c.fail(ops.error().message);
  return *ops;
}

// check: a failed stream memory operation ends the job (no rank left hanging).
void check(const HaloContext& c, const Status& st) {
  if (!st.ok()) c.fail(st.error().message);
}

uint32_t total_iterations(const HaloContext& c) {
  return static_cast<uint32_t>(c.options.warmup_iterations + c.options.iterations);
}

// Shared by SA and KI: the proxy, a second send buffer (sends of iteration t
// may still be in flight while t + 1 packs), and the flag addresses.
class ProxyDriven : public VariantRunner {
 public:
  explicit ProxyDriven(HaloContext& c)
      : c_(c), send_odd_(c.send_buffer.size()), total_(total_iterations(c)) {
    const double* bases[2] = {c_.send_buffer.host(), send_odd_.host()};
    proxy_ = std::make_unique<NicProxy>(c_, bases, total_);
    for (int m = 0; m < c_.num_messages(); ++m)
      doorbells_.push_back(c_.flag_device(FlagArray::kDoorbell, m));
  }
  void drain() override {
    c_.wait_stream(c_.stream_compute, "drain (waits on proxy completions)");
    if (enqueued_ == total_) proxy_->join();
  }
  std::vector<std::pair<std::string, double>> extra_metrics() const override {
    return proxy_->metrics();
  }

 protected:
  double* send_device(uint32_t t) const {
    return t % 2 == 0 ? c_.send_buffer.device() : send_odd_.device();
  }
  // Stream waits for sends of iteration t - 2 (same send buffer parity).
  void wait_send_buffer(uint32_t t) {
    if (t >= 2)
      check(c_, memops(c_).wait_geq32(c_.stream_compute,
                                      c_.flag_device(FlagArray::kRecvAll, NicProxy::kSendAllIndex),
                                      t - 1));
  }

  HaloContext& c_;
  PinnedArray<double> send_odd_;
  const uint32_t total_;
  uint32_t enqueued_ = 0;
  std::vector<uint32_t*> doorbells_;
  std::unique_ptr<NicProxy> proxy_;
};

// Stream-async: the CPU only enqueues; the stream rings and waits.
class StreamAsync : public ProxyDriven {
 public:
  explicit StreamAsync(HaloContext& c) : ProxyDriven(c) {}
  void iteration(uint32_t t) override {
    const xferlab::native::StreamMemOps& ops = memops(c_);
    c_.phase_begin(Phase::kTotal);
    c_.phase_begin(Phase::kPostSend);  // all of it is enqueueing (CPU cost).
    wait_send_buffer(t);
    c_.compute(t, Region::kBoundary);
    launch_pack_fused(c_.send_table, c_.layout, c_.field(t), send_device(t), c_.stream_compute,
                      c_.device_trace());
    check(c_, ops.write32_batch(c_.stream_compute, doorbells_.data(), c_.num_messages(), t + 1));
    c_.compute(t, Region::kInterior);
    check(c_, ops.wait_geq32(c_.stream_compute,
                             c_.flag_device(FlagArray::kRecvAll, NicProxy::kRecvAllIndex), t + 1));
    launch_unpack_fused(c_.recv_table, c_.layout, c_.recv_buffer[t % 2].device(), c_.field(t),
                        c_.stream_compute, c_.device_trace());
    c_.verify(t, c_.stream_compute);
    c_.phase_end(Phase::kPostSend);
    c_.phase_end(Phase::kTotal);
    ++enqueued_;
  }
};

// Kernel-initiated: one kernel per iteration after the boundary compute.
class KernelInitiated : public ProxyDriven {
 public:
  explicit KernelInitiated(HaloContext& c) : ProxyDriven(c) {
    XF_CUDA_CHECK(cudaMalloc(&d_ticket_, sizeof(unsigned int)));
    XF_CUDA_CHECK(cudaMemset(d_ticket_, 0, sizeof(unsigned int)));
    unpackers_ = c.num_messages();
    senders_ = ki_default_senders(c.num_messages(), unpackers_);
  }
  ~KernelInitiated() override { cudaFree(d_ticket_); }
  void iteration(uint32_t t) override {
    c_.phase_begin(Phase::kTotal);
    c_.phase_begin(Phase::kPostSend);
    wait_send_buffer(t);
    c_.compute(t, Region::kBoundary);
    KiArgs a{};
    a.send = c_.send_table;
    a.recv = c_.recv_table;
    a.layout = c_.layout;
    a.origin = c_.origin;
    a.in = c_.field(t + 1);
    a.field = c_.field(t);
    a.result = c_.d_result;
    a.send_buffer = send_device(t);
    a.recv_buffer = c_.recv_buffer[t % 2].device();
    a.doorbell = c_.flag_device(FlagArray::kDoorbell, 0);
    a.recv_complete = c_.flag_device(FlagArray::kRecvComplete, 0);
    a.device_ready = c_.d_device_ready;
    a.ticket = d_ticket_;
    a.iteration = t;
    a.senders = senders_;
    a.unpackers = unpackers_;
    a.timeout_ns = c_.options.timeout_ns + c_.options.timeout_ns / 4;
    a.fault = c_.fault.device();
    a.trace = c_.device_trace();
    launch_ki(a, c_.stream_compute);
    c_.verify(t, c_.stream_compute);
    c_.phase_end(Phase::kPostSend);
    c_.phase_end(Phase::kTotal);
    ++enqueued_;
  }

 private:
  unsigned int* d_ticket_ = nullptr;
  int senders_ = 0, unpackers_ = 0;
};

}  // namespace

std::vector<Variant> gdasync_variants() {
  return {
      {"host", "HPGMG exchangeBoundaries: Irecv, pack, sync, Isend, interior, Waitall, unpack",
       // HPGMG's host-driven exchangeBoundaries: the interior compute overlaps
       // the MPI wait (the baseline SA and KI are measured against).
       [](HaloContext& c) { return xferlab::halo::make_host_driven(c, true); }},
      {"sa", "GPUDirect Async stream-async, NIC emulated by a CPU proxy thread",
       [](HaloContext& c) { return std::unique_ptr<VariantRunner>(new StreamAsync(c)); }},
      {"ki", "GPUDirect Async kernel-initiated, NIC emulated by a CPU proxy thread",
       [](HaloContext& c) { return std::unique_ptr<VariantRunner>(new KernelInitiated(c)); }},
  };
}

}  // namespace xferlab::gdasync
