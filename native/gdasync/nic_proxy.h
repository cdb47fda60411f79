// native/gdasync/nic_proxy.h — NicProxy: a CPU thread that emulates an
// InfiniBand NIC driven by GPUDirect Async, with the same contract:
//   * the GPU rings a doorbell per message (doorbell[m] = iteration + 1) in
//     pinned host memory, from a stream memory operation (SA) or a kernel (KI);
//   * the "NIC" (this thread) sees the doorbell, performs the transfer (MPI,
//     host buffers) and writes completions the GPU waits on: recv_complete[m],
//     send_complete[m], and the aggregates recv_all / send_all;
//   * receiver-ready credits: a receive is posted (and a credit sent to the
//     sender) before the matching send may start, which then uses
//     MPI_Irsend (ready send: legal only because the receive is known posted),
//     like an RDMA write into a pre-registered receive buffer.
// It measures its own latency (doorbell seen -> MPI posted, MPI completion
// seen -> flag written) so the simulator can subtract the emulation cost.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "native/halo/halo_context.h"

namespace xferlab::gdasync {

// ProxyStats: the proxy's own costs (host clock, ns).
struct ProxyStats {
  uint64_t posts = 0;
  double post_latency_ns_sum = 0;  ///< doorbell (and credit) seen -> MPI_Irsend returned.
  double post_latency_ns_max = 0;
  uint64_t completions = 0;
  double complete_latency_ns_sum = 0;  ///< MPI_Test saw completion -> flag stored.
  double complete_latency_ns_max = 0;
  uint64_t passes = 0;
  double pass_ns_sum = 0;     ///< one polling pass over all messages (detection granularity).
  uint64_t credit_waits = 0;  ///< doorbells that had to wait for the receiver's credit.
  double idle_ns_sum = 0;     ///< passes that found nothing to do (the thread's CPU idle time).
};

class NicProxy {
 public:
  // Aggregate completion flags live in FlagArray::kRecvAll: index 0 = all
  // receives of an iteration done, index 1 = all sends done.
  static constexpr int kRecvAllIndex = 0;
  static constexpr int kSendAllIndex = 1;
  // Credit messages use tag kCreditTagBase + the data message's tag.
  static constexpr int kCreditTagBase = 100;

  // Starts the thread. send_base[p]: host send buffer of iteration parity p;
  // receives land in ctx.recv_buffer[p]. Runs `total_iterations` iterations.
  NicProxy(xferlab::halo::HaloContext& ctx, const double* const send_base[2],
           uint32_t total_iterations);
  ~NicProxy();  ///< joins (the thread ends when every iteration is done).
  // join: waits for the thread (after the GPU finished the last iteration).
  void join();
  NicProxy(const NicProxy&) = delete;
  NicProxy& operator=(const NicProxy&) = delete;

  // stats: valid after the thread finished (or between iterations: racy reads
  // of counters are acceptable for a progress report only).
  ProxyStats stats() const;
  // metrics: stats as named values (avg/max in ns) for the run report.
  std::vector<std::pair<std::string, double>> metrics() const;

 private:
  void run();
  void post_recv(int m, uint32_t iteration);
  void post_credit_recv(int m);
  // One pass's steps for message m; each returns whether it made progress.
  bool poll_recv(int m);                    ///< a receive completed: flags set, next one posted.
  bool poll_credit(int m);                  ///< a credit arrived from m's receiver.
  bool poll_send(int m);                    ///< the in-flight send completed.
  bool poll_doorbell(int m);                ///< the GPU rang m's doorbell; sent once credited.
  void count_completion(uint64_t seen_ns);  ///< stats of a completion seen at seen_ns.
  [[noreturn]] void timeout(uint64_t waited_ns);
  void trace(traces::EventKind kind, uint16_t flags, uint32_t id, uint32_t aux, uint64_t value);

  xferlab::halo::HaloContext& c_;
  const double* send_base_[2];
  const uint32_t total_;
  const int n_;
  // Per message.
  std::vector<MPI_Request> recv_req_, send_req_, credit_recv_req_, credit_send_req_;
  std::vector<uint32_t> recv_iter_;     ///< iteration of the posted receive.
  std::vector<uint32_t> send_iter_;     ///< next iteration to send.
  std::vector<uint32_t> sending_iter_;  ///< iteration of the send in flight.
  std::vector<uint32_t> credit_in_;     ///< landing slot: receiver posted iteration (value - 1).
  std::vector<uint32_t> credit_out_;    ///< credit being sent (must live until sent).
  std::vector<int64_t> credited_;       ///< highest iteration the receiver has posted.
  std::vector<uint64_t> doorbell_seen_ns_, credit_seen_ns_;
  uint32_t recv_done_[2] = {0, 0}, send_done_[2] = {0, 0};
  uint32_t recvs_completed_ = 0;  ///< iterations whose receives all completed.
  uint32_t sends_completed_ = 0;
  ProxyStats stats_;
  std::thread thread_;
};

}  // namespace xferlab::gdasync
