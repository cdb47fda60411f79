// native/halo/variants.cc — the host-driven exchange strategies: baseline
// (Comb "fused kernel + MPI"), and the two notification approaches of Elis et
// al. (stream: pack/unpack kernels on two streams; stacked: one cooperative
// kernel), which share the CPU polling loop below.
#include <mpi.h>

#include "native/halo/halo_context.h"
#include "native/mpi_check.h"

namespace xferlab::halo {
namespace {

using traces::EventKind;
using traces::MpiOp;

uint32_t flag_id(FlagArray a, int m) {
  return static_cast<uint32_t>(a) * kFlagsPerArray + m;
}

// wait_all: a bounded Waitall timed as `phase`.
void wait_all(HaloContext& c, std::vector<MPI_Request>& reqs, bool receives, Phase phase) {
  c.phase_begin(phase);
  c.wait_requests(reqs, receives);
  c.phase_end(phase);
}

// HostDriven: Irecv all -> compute + fused pack -> sync -> Isend all -> wait ->
// fused unpack -> sync -> wait sends. Comb ("baseline") computes the whole
// block before the pack; HPGMG-FV (gdasync "host") computes the boundary
// there and the interior between the Isends and the wait.
class HostDriven : public VariantRunner {
 public:
  HostDriven(HaloContext& c, bool overlap_interior) : c_(c), overlap_(overlap_interior) {}
  void iteration(uint32_t t) override {
    c_.phase_begin(Phase::kTotal);
    c_.phase_begin(Phase::kPostRecv);
    c_.post_recvs(c_.recv_buffer[0].host());
    c_.phase_end(Phase::kPostRecv);
    // Comb launches the compute and the pack and synchronizes once: pack
    // includes this iteration's (boundary) compute kernel.
    c_.phase_begin(Phase::kPack);
    c_.compute(t, overlap_ ? Region::kBoundary : Region::kAll);
    launch_pack_fused(c_.send_table, c_.layout, c_.field(t), c_.send_buffer.device(),
                      c_.stream_compute, c_.device_trace());
    c_.wait_stream(c_.stream_compute,
                   overlap_ ? "boundary compute + pack" : "compute + fused pack");
    c_.phase_end(Phase::kPack);
    c_.phase_begin(Phase::kPostSend);
    for (int m = 0; m < c_.num_messages(); ++m) c_.post_send(m, c_.send_buffer.host());
    c_.phase_end(Phase::kPostSend);
    if (overlap_) c_.compute(t, Region::kInterior);
    wait_all(c_, c_.recv_req, true, Phase::kWaitRecv);
    c_.phase_begin(Phase::kUnpack);
    launch_unpack_fused(c_.recv_table, c_.layout, c_.recv_buffer[0].device(), c_.field(t),
                        c_.stream_compute, c_.device_trace());
    c_.verify(t, c_.stream_compute);
    c_.wait_stream(c_.stream_compute, overlap_ ? "interior compute + unpack" : "fused unpack");
    c_.phase_end(Phase::kUnpack);
    wait_all(c_, c_.send_req, false, Phase::kWaitSend);
    c_.phase_end(Phase::kTotal);
  }
  void drain() override { c_.wait_stream(c_.stream_compute, "drain"); }

 private:
  HaloContext& c_;
  const bool overlap_;
};

// Notification: shared CPU side of the stream and stacked approaches. The GPU
// sets send_ready[m] when message m is packed; the CPU Isends it, tests the
// receives and sets unpack_ready[m] when message m has arrived.
//
// Order of the CPU's work (everything it does is on the critical path, the
// GPU's pack usually finishes before the CPU starts polling):
//   1. enqueue compute + pack (stream) / compute + stacked kernel, so the GPU
//      computes while the CPU posts the receives (data arriving before its
//      Irecv is matched later by MPI; the buffer hazard argument in
//      docs/halo.md does not depend on when the Irecv is posted);
//   2. poll: post every send whose flag is set, re-scanning the flags right
//      away after a send was posted (pack CTAs finish in bursts) before
//      calling into MPI progress (Testsome), so no send waits behind it;
//   3. once all sends are posted, enqueue what follows the pack (stream: the
//      unpack kernel, its check and the event the next compute waits on;
//      stacked: the check) while waiting for the receives, instead of before
//      the first poll. An unpack CTA launched after its flag was set proceeds
//      at once (epochs only grow).
class Notification : public VariantRunner {
 public:
  Notification(HaloContext& c, bool stacked)
      : c_(c),
        stacked_(stacked),
        sent_(c.num_messages()),
        received_(c.num_messages()),
        idx_(c.num_messages()) {
    XF_CUDA_CHECK(cudaEventCreateWithFlags(&unpacked_, cudaEventDisableTiming));
  }
  ~Notification() override { cudaEventDestroy(unpacked_); }

  void iteration(uint32_t t) override {
    const int p = t % 2;
    c_.phase_begin(Phase::kTotal);
    // pack: enqueue compute and the pack / stacked kernel (no synchronization).
    c_.phase_begin(Phase::kPack);
    const NotifyArgs args = c_.notify_args(t);
    c_.compute(t);
    if (stacked_) {
      launch_stacked(c_.send_table, c_.recv_table, c_.layout, c_.field(t), c_.send_buffer.device(),
                     c_.recv_buffer[p].device(), c_.options.stacked_long_bytes, args,
                     c_.stream_compute);
    } else {
      launch_pack_notify(c_.send_table, c_.layout, c_.field(t), c_.send_buffer.device(), args,
                         c_.stream_compute);
    }
    c_.phase_end(Phase::kPack);
    c_.phase_begin(Phase::kPostRecv);
    c_.post_recvs(c_.recv_buffer[p].host());
    c_.phase_end(Phase::kPostRecv);
    poll(t, args);
    c_.phase_end(Phase::kTotal);
  }

  void drain() override {
    c_.wait_stream(c_.stream_compute, "drain compute stream");
    c_.wait_stream(c_.stream_unpack, "drain unpack stream");
  }

 private:
  // enqueue_after_pack: the GPU work of exchange t that follows the pack
  // (timed as the unpack phase: the CPU's cost of enqueueing the unpack).
  void enqueue_after_pack(uint32_t t, const NotifyArgs& args) {
    const uint64_t s0 = xferlab::native::host_steady_ns();
    if (stacked_) {
      c_.verify(t, c_.stream_compute);  // nothing else was enqueued there since the kernel.
    } else {
      c_.guard_ghosts(t, c_.stream_unpack);
      launch_unpack_notify(c_.recv_table, c_.layout, c_.recv_buffer[t % 2].device(), c_.field(t),
                           args, c_.stream_unpack);
      c_.verify(t, c_.stream_unpack);
      // The next compute reads the ghosts this unpack writes.
      XF_CUDA_CHECK(cudaEventRecord(unpacked_, c_.stream_unpack));
      XF_CUDA_CHECK(cudaStreamWaitEvent(c_.stream_compute, unpacked_, 0));
    }
    c_.add_phase_ns(Phase::kUnpack, xferlab::native::host_steady_ns() - s0);
  }

  void poll(uint32_t t, const NotifyArgs& args) {
    const uint32_t epoch = t + 1;
    const int n = c_.num_messages();
    std::fill(sent_.begin(), sent_.end(), 0);
    std::fill(received_.begin(), received_.end(), 0);
    int to_send = n, to_recv = n;
    bool enqueued = false;
    Deadline deadline(c_.options.timeout_ns);
    uint64_t t0 = xferlab::native::host_steady_ns();
    c_.trace(EventKind::kPhaseBegin, 0, static_cast<int>(Phase::kWaitRecv), t, 0);
    while (to_send > 0 || to_recv > 0 || !enqueued) {
      const uint64_t pass_start = xferlab::native::host_steady_ns();
      bool posted = false;
      for (int m = 0; m < n && to_send > 0; ++m) {
        if (sent_[m] || load_flag(c_.flag(FlagArray::kSendReady, m)) < epoch) continue;
        c_.trace(EventKind::kFlagObserved, 0, flag_id(FlagArray::kSendReady, m), m, epoch);
        const uint64_t s0 = xferlab::native::host_steady_ns();
        c_.post_send(m, c_.send_buffer.host());
        c_.add_phase_ns(Phase::kPostSend, xferlab::native::host_steady_ns() - s0);
        sent_[m] = 1;
        --to_send;
        posted = true;
      }
      // More flags are likely set by now: post those sends before MPI progress.
      if (posted && to_send > 0) continue;
      bool progress = posted;
      if (to_recv > 0) {
        int count = 0;
        XF_MPI_CHECK(MPI_Testsome(n, c_.recv_req.data(), &count, idx_.data(), MPI_STATUSES_IGNORE));
        for (int i = 0; i < count && count != MPI_UNDEFINED; ++i) {
          const int m = idx_[i];
          const Message& msg = c_.messages[m];
          c_.trace(EventKind::kMpiComplete, static_cast<uint16_t>(MpiOp::kIrecv), msg.peer,
                   msg.recv_tag, msg.bytes);
          store_flag(c_.flag(FlagArray::kUnpackReady, m), epoch);
          c_.trace(EventKind::kFlagSet, 0, flag_id(FlagArray::kUnpackReady, m), m, epoch);
          received_[m] = 1;
          --to_recv;
          progress = true;
        }
        if (to_recv == 0) {
          c_.trace(EventKind::kPhaseEnd, 0, static_cast<int>(Phase::kWaitRecv), t, 0);
          c_.add_phase_ns(Phase::kWaitRecv, xferlab::native::host_steady_ns() - t0);
        }
      }
      if (to_send == 0 && !enqueued) {
        enqueue_after_pack(t, args);
        enqueued = true;
        progress = true;
      }
      if (!progress) {
        c_.add_idle_ns(xferlab::native::host_steady_ns() - pass_start);
        c_.check_fault();
        if (deadline.expired()) timeout(epoch);
      }
    }
    c_.mark_phase_used(Phase::kPostSend);
    c_.mark_phase_used(Phase::kWaitRecv);
    // Sends must finish before the next pack overwrites the send buffer.
    wait_all(c_, c_.send_req, false, Phase::kWaitSend);
  }

  [[noreturn]] void timeout(uint32_t epoch) {
    for (int m = 0; m < c_.num_messages(); ++m) {
      if (!sent_[m]) {
        c_.fail("timeout after " + std::to_string(c_.options.timeout_ns / 1000000) +
                " ms waiting for send_ready flag of " + c_.describe_message(m) + " to reach " +
                std::to_string(epoch) + " (saw " +
                std::to_string(load_flag(c_.flag(FlagArray::kSendReady, m))) +
                "): the pack kernel did not publish it");
      }
    }
    for (int m = 0; m < c_.num_messages(); ++m) {
      if (!received_[m]) {
        c_.fail("timeout after " + std::to_string(c_.options.timeout_ns / 1000000) +
                " ms waiting for MPI receive of " + c_.describe_message(m) + " in iteration " +
                std::to_string(epoch - 1) + " (lost message or stalled peer)");
      }
    }
    c_.fail("timeout in the notification loop");
  }

  HaloContext& c_;
  bool stacked_;
  std::vector<char> sent_, received_;
  std::vector<int> idx_;  ///< MPI_Testsome's completed indices.
  cudaEvent_t unpacked_ = nullptr;
};

}  // namespace

std::unique_ptr<VariantRunner> make_host_driven(HaloContext& c, bool overlap_interior) {
  return std::make_unique<HostDriven>(c, overlap_interior);
}

std::vector<Variant> builtin_variants() {
  return {
      {"baseline", "fused pack, sync, MPI_Isend/Irecv, wait, fused unpack, sync (Comb cuda+mpi)",
       [](HaloContext& c) { return make_host_driven(c, false); }},
      {"stream", "persistent pack/unpack kernels on two streams, flags in pinned memory",
       [](HaloContext& c) { return std::unique_ptr<VariantRunner>(new Notification(c, false)); }},
      {"stacked", "one cooperative persistent kernel on all SMs, flags in pinned memory",
       [](HaloContext& c) { return std::unique_ptr<VariantRunner>(new Notification(c, true)); },
       /*occupies_gpu=*/true},
  };
}

}  // namespace xferlab::halo
