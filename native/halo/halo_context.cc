// native/halo/halo_context.cc — per-rank state, MPI posting, timers, tracing
// and the bounded waits / fault reports shared by every variant.
#include "native/halo/halo_context.h"

#include <cstdio>
#include <cstdlib>

#include "native/mpi_check.h"

namespace xferlab::halo {

using traces::EventKind;
using traces::MpiOp;

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::kPostRecv: return "post_recv";
    case Phase::kPack: return "pack";
    case Phase::kPostSend: return "post_send";
    case Phase::kWaitRecv: return "wait_recv";
    case Phase::kUnpack: return "unpack";
    case Phase::kWaitSend: return "wait_send";
    case Phase::kCompute: return "compute";
    case Phase::kTotal: return "total";
    case Phase::kCpuIdle: return "cpu_idle";
    case Phase::kVerify: return "verify";
    case Phase::kNumPhases: break;
  }
  return "?";
}

HaloContext::HaloContext(const Decomposition& d, int rank_, int device_, RunOptions options_,
                         xferlab::native::TraceRecorder* recorder_)
    : decomposition(d),
      rank(rank_),
      device(device_),
      options(std::move(options_)),
      layout(d.layout()),
      origin(d.origin(rank_)),
      messages(d.messages(rank_)),
      send_table(make_table(messages, true)),
      recv_table(make_table(messages, false)),
      send_buffer(d.buffer_doubles()),
      recv_buffer{PinnedArray<double>(d.buffer_doubles()), PinnedArray<double>(d.buffer_doubles())},
      flags(static_cast<size_t>(FlagArray::kNumArrays) * kFlagsPerArray * kFlagStrideWords),
      fault(1),
      recv_req(messages.size(), MPI_REQUEST_NULL),
      send_req(messages.size(), MPI_REQUEST_NULL),
      recorder(recorder_) {
  const size_t bytes = layout.total_doubles() * sizeof(double);
  for (double*& f : d_field_) {
    XF_CUDA_CHECK(cudaMalloc(&f, bytes));
    XF_CUDA_CHECK(cudaMemset(f, 0, bytes));
  }
  XF_CUDA_CHECK(cudaMalloc(&d_result, bytes));
  XF_CUDA_CHECK(cudaMalloc(&d_verify, sizeof(VerifyReport)));
  XF_CUDA_CHECK(cudaMemset(d_verify, 0, sizeof(VerifyReport)));
  XF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_compute, cudaStreamNonBlocking));
  XF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_unpack, cudaStreamNonBlocking));
  XF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_verify, cudaStreamNonBlocking));
  XF_CUDA_CHECK(cudaMalloc(&d_device_ready, kFlagsPerArray * kFlagStrideWords * sizeof(uint32_t)));
  XF_CUDA_CHECK(
      cudaMemset(d_device_ready, 0, kFlagsPerArray * kFlagStrideWords * sizeof(uint32_t)));
  for (VerifySlot& slot : verify_slots_) {
    XF_CUDA_CHECK(cudaEventCreateWithFlags(&slot.unpacked, cudaEventDisableTiming));
    XF_CUDA_CHECK(cudaEventCreate(&slot.begin));
    XF_CUDA_CHECK(cudaEventCreate(&slot.end));
  }
}

HaloContext::~HaloContext() {
  cudaStreamDestroy(stream_compute);
  cudaStreamDestroy(stream_unpack);
  cudaStreamDestroy(stream_verify);
  for (VerifySlot& slot : verify_slots_) {
    cudaEventDestroy(slot.unpacked);
    cudaEventDestroy(slot.begin);
    cudaEventDestroy(slot.end);
  }
  cudaFree(d_device_ready);
  for (double* f : d_field_) cudaFree(f);
  cudaFree(d_result);
  cudaFree(d_verify);
}

NotifyArgs HaloContext::notify_args(uint32_t t) const {
  NotifyArgs a{};
  a.send_ready = flag_device(FlagArray::kSendReady, 0);
  a.unpack_ready = flag_device(FlagArray::kUnpackReady, 0);
  a.device_ready = d_device_ready;
  a.epoch = t + 1;
  // The GPU gives up a little after the CPU, so the CPU's report (which names
  // the MPI side) comes first when the CPU is the one waiting.
  a.timeout_ns = options.timeout_ns + options.timeout_ns / 4;
  a.fault = fault.device();
  a.trace = device_trace();
  return a;
}

void HaloContext::post_recvs(double* recv_base) {
  for (int m = 0; m < num_messages(); ++m) {
    const Message& msg = messages[m];
    XF_MPI_CHECK(MPI_Irecv(recv_base + msg.recv_offset_doubles, static_cast<int>(msg.bytes),
                           MPI_BYTE, msg.peer, msg.recv_tag, MPI_COMM_WORLD, &recv_req[m]));
    trace(EventKind::kMpiPost, static_cast<uint16_t>(MpiOp::kIrecv), msg.peer, msg.recv_tag,
          msg.bytes);
  }
}

void HaloContext::post_send(int m, const double* send_base) {
  const Message& msg = messages[m];
  XF_MPI_CHECK(MPI_Isend(send_base + msg.send_offset_doubles, static_cast<int>(msg.bytes), MPI_BYTE,
                         msg.peer, msg.send_tag, MPI_COMM_WORLD, &send_req[m]));
  trace(EventKind::kMpiPost, static_cast<uint16_t>(MpiOp::kIsend), msg.peer, msg.send_tag,
        msg.bytes);
}

void HaloContext::compute(uint32_t t, Region region, cudaStream_t stream) {
  if (stream == nullptr) stream = stream_compute;
  guard_ghosts(t, stream);
  launch_compute(layout, origin, region, field(t + 1), d_result, field(t), t, stream,
                 device_trace());
}

void HaloContext::verify(uint32_t t, cudaStream_t after) {
  if (!options.verify) return;
  VerifySlot& slot = verify_slots_[t % kVerifySlots];
  collect_slot(slot);  // 8 exchanges old: finished long ago.
  XF_CUDA_CHECK(cudaEventRecord(slot.unpacked, after));
  XF_CUDA_CHECK(cudaStreamWaitEvent(stream_verify, slot.unpacked, 0));
  XF_CUDA_CHECK(cudaEventRecord(slot.begin, stream_verify));
  launch_verify(recv_table, layout, origin, field(t), t, d_verify, stream_verify);
  XF_CUDA_CHECK(cudaEventRecord(slot.end, stream_verify));
  slot.pending = true;
  slot.timed = timing;
  if (timing) used_[static_cast<int>(Phase::kVerify)] = true;
}

void HaloContext::guard_ghosts(uint32_t t, cudaStream_t stream) {
  if (!options.verify || t < 2) return;
  const VerifySlot& slot = verify_slots_[(t - 2) % kVerifySlots];
  if (slot.pending) XF_CUDA_CHECK(cudaStreamWaitEvent(stream, slot.end, 0));
}

void HaloContext::collect_slot(VerifySlot& slot) {
  if (!slot.pending) return;
  XF_CUDA_CHECK(cudaEventSynchronize(slot.end));
  if (slot.timed) {
    float ms = 0;
    XF_CUDA_CHECK(cudaEventElapsedTime(&ms, slot.begin, slot.end));
    phase_ns_[static_cast<int>(Phase::kVerify)] += static_cast<uint64_t>(ms * 1e6);
  }
  slot.pending = false;
}

void HaloContext::collect_verify_times() {
  for (VerifySlot& slot : verify_slots_) collect_slot(slot);
}

void HaloContext::phase_begin(Phase phase) {
  const int p = static_cast<int>(phase);
  used_[p] = true;
  phase_start_[p] = xferlab::native::host_steady_ns();
  trace(EventKind::kPhaseBegin, 0, p, 0, 0);
}

void HaloContext::phase_end(Phase phase) {
  const int p = static_cast<int>(phase);
  const uint64_t now = xferlab::native::host_steady_ns();
  if (timing) phase_ns_[p] += now - phase_start_[p];
  trace(EventKind::kPhaseEnd, 0, p, 0, 0);
}

xferlab::native::DeviceTrace HaloContext::device_trace() const {
  return recorder != nullptr ? recorder->device_trace(device) : xferlab::native::DeviceTrace{};
}

void HaloContext::trace(EventKind kind, uint16_t fl, uint32_t id, uint32_t aux, uint64_t value) {
  if (recorder != nullptr) {
    recorder->record_host(kind, fl, static_cast<uint16_t>(rank), 0, id, aux, value);
  }
}

std::string HaloContext::describe_message(int m) const {
  const Message& msg = messages[m];
  return "message " + std::to_string(m) + " (direction " + std::to_string(msg.direction) + ", " +
         message_kind_name(msg.kind) + ", peer " + std::to_string(msg.peer) + ", send tag " +
         std::to_string(msg.send_tag) + ", recv tag " + std::to_string(msg.recv_tag) + ", " +
         std::to_string(msg.bytes) + " B)";
}

void HaloContext::fail(const std::string& what) const {
  std::fprintf(stderr, "halo: rank %d: %s\n", rank, what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

void HaloContext::check_fault() const {
  const DeviceFault& f = fault[0];
  if (load_flag(f.code) == 0) return;
  fail("GPU spin-wait timed out after " + std::to_string(f.waited_ns / 1000000) + " ms: CTA " +
       std::to_string(f.block) + " waited for " +
       flag_array_name(static_cast<FlagArray>(f.flag_array)) + " flag of " +
       (f.message < messages.size() ? describe_message(static_cast<int>(f.message))
                                    : "message " + std::to_string(f.message)) +
       " to reach " + std::to_string(f.expected) + " (iteration " + std::to_string(f.expected - 1) +
       "), saw " + std::to_string(f.seen) + " (lost message or stalled peer)");
}

void HaloContext::check_verification() const {
  XF_CUDA_CHECK(cudaDeviceSynchronize());
  VerifyReport r{};
  XF_CUDA_CHECK(cudaMemcpy(&r, d_verify, sizeof r, cudaMemcpyDeviceToHost));
  if (r.mismatches == 0) return;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "verification failed: %llu ghost values wrong; first at iteration %u, %s, var %d, "
                "cell (%d,%d,%d): got %.17g, owner has %.17g",
                r.mismatches, r.iteration, describe_message(r.message).c_str(), r.var, r.i, r.j,
                r.k, r.got, r.want);
  fail(buf);
}

void HaloContext::wait_requests(std::vector<MPI_Request>& reqs, bool receives) {
  Deadline deadline(options.timeout_ns);
  const uint64_t start = xferlab::native::host_steady_ns();
  int done = 0;
  while (!done) {
    XF_MPI_CHECK(
        MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &done, MPI_STATUSES_IGNORE));
    if (!done && deadline.expired()) {
      for (size_t m = 0; m < reqs.size(); ++m) {
        if (reqs[m] != MPI_REQUEST_NULL) {
          fail("timeout after " + std::to_string(options.timeout_ns / 1000000) +
               " ms waiting for MPI " + (receives ? "receive of " : "send of ") +
               describe_message(static_cast<int>(m)) + " (lost message or stalled peer)");
        }
      }
    }
  }
  add_idle_ns(xferlab::native::host_steady_ns() - start);
  for (int m = 0; m < num_messages(); ++m) {
    const Message& msg = messages[m];
    trace(EventKind::kMpiComplete, static_cast<uint16_t>(receives ? MpiOp::kIrecv : MpiOp::kIsend),
          msg.peer, receives ? msg.recv_tag : msg.send_tag, msg.bytes);
  }
}

void HaloContext::wait_stream(cudaStream_t stream, const char* what) {
  Deadline deadline(options.timeout_ns);
  const uint64_t start = xferlab::native::host_steady_ns();
  for (;;) {
    cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) XF_CUDA_CHECK(e);
    check_fault();
    if (deadline.expired()) {
      fail(std::string("timeout after ") + std::to_string(options.timeout_ns / 1000000) +
           " ms waiting for the GPU stream (" + what + ")");
    }
  }
  add_idle_ns(xferlab::native::host_steady_ns() - start);
}

}  // namespace xferlab::halo
