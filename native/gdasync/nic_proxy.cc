// native/gdasync/nic_proxy.cc — the NIC-emulating proxy thread.
#include "native/gdasync/nic_proxy.h"

#include <algorithm>

#include "native/mpi_check.h"

namespace xferlab::gdasync {

using traces::EventKind;
using traces::MpiOp;
using xferlab::halo::FlagArray;
using xferlab::halo::kFlagsPerArray;
using xferlab::halo::load_flag;
using xferlab::halo::store_flag;
using xferlab::native::host_steady_ns;

namespace {
// Proxy events use CPU thread lane 1 (the main thread is lane 0).
constexpr uint16_t kProxyLane = 1;
uint32_t flag_id(FlagArray a, int m) {
  return static_cast<uint32_t>(a) * kFlagsPerArray + m;
}
}  // namespace

NicProxy::NicProxy(xferlab::halo::HaloContext& ctx, const double* const send_base[2],
                   uint32_t total_iterations)
    : c_(ctx),
      send_base_{send_base[0], send_base[1]},
      total_(total_iterations),
      n_(ctx.num_messages()),
      recv_req_(n_, MPI_REQUEST_NULL),
      send_req_(n_, MPI_REQUEST_NULL),
      credit_recv_req_(n_, MPI_REQUEST_NULL),
      credit_send_req_(n_, MPI_REQUEST_NULL),
      recv_iter_(n_, 0),
      send_iter_(n_, 0),
      sending_iter_(n_, 0),
      credit_in_(n_, 0),
      credit_out_(n_, 0),
      credited_(n_, -1),
      doorbell_seen_ns_(n_, 0),
      credit_seen_ns_(n_, 0) {
  int provided = 0;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    c_.fail("the NIC proxy thread needs MPI_THREAD_MULTIPLE (library gave level " +
            std::to_string(provided) + ")");
  }
  // Receives (and their credits) for iteration 0 are posted before anything
  // can be sent: the receiver-ready handshake.
  for (int m = 0; m < n_; ++m) {
    post_credit_recv(m);
    post_recv(m, 0);
  }
  thread_ = std::thread([this] { run(); });
}

NicProxy::~NicProxy() {
  join();
}

void NicProxy::join() {
  if (thread_.joinable()) thread_.join();
}

void NicProxy::trace(EventKind kind, uint16_t fl, uint32_t id, uint32_t aux, uint64_t value) {
  if (c_.recorder != nullptr)
    c_.recorder->record_host(kind, fl, static_cast<uint16_t>(c_.rank), kProxyLane, id, aux, value);
}

void NicProxy::post_recv(int m, uint32_t iteration) {
  const xferlab::halo::Message& msg = c_.messages[m];
  double* base = c_.recv_buffer[iteration % 2].host();
  XF_MPI_CHECK(MPI_Irecv(base + msg.recv_offset_doubles, static_cast<int>(msg.bytes), MPI_BYTE,
                         msg.peer, msg.recv_tag, MPI_COMM_WORLD, &recv_req_[m]));
  trace(EventKind::kMpiPost, static_cast<uint16_t>(MpiOp::kIrecv), msg.peer, msg.recv_tag,
        msg.bytes);
  recv_iter_[m] = iteration;
  // Tell the sender this receive is posted (previous credit of this message
  // was sent long ago: small eager message, completes at once).
  if (credit_send_req_[m] != MPI_REQUEST_NULL)
    XF_MPI_CHECK(MPI_Wait(&credit_send_req_[m], MPI_STATUS_IGNORE));
  credit_out_[m] = iteration + 1;
  XF_MPI_CHECK(MPI_Isend(&credit_out_[m], 1, MPI_UINT32_T, msg.peer, kCreditTagBase + msg.recv_tag,
                         MPI_COMM_WORLD, &credit_send_req_[m]));
}

void NicProxy::post_credit_recv(int m) {
  const xferlab::halo::Message& msg = c_.messages[m];
  XF_MPI_CHECK(MPI_Irecv(&credit_in_[m], 1, MPI_UINT32_T, msg.peer, kCreditTagBase + msg.send_tag,
                         MPI_COMM_WORLD, &credit_recv_req_[m]));
}

void NicProxy::run() {
  uint64_t last_progress = host_steady_ns();
  while (recvs_completed_ < total_ || sends_completed_ < total_) {
    const uint64_t pass_start = host_steady_ns();
    bool progress = false;
    for (int m = 0; m < n_; ++m) {
      // Receive side; credits from the receiver of this message; send side:
      // in-flight send, then the next doorbell.
      progress |= poll_recv(m);
      progress |= poll_credit(m);
      progress |= poll_send(m);
      progress |= poll_doorbell(m);
    }
    const uint64_t now = host_steady_ns();
    stats_.passes++;
    stats_.pass_ns_sum += static_cast<double>(now - pass_start);
    if (progress) {
      last_progress = now;
    } else {
      stats_.idle_ns_sum += static_cast<double>(now - pass_start);
      c_.check_fault();
      if (now - last_progress > c_.options.timeout_ns) timeout(now - last_progress);
    }
  }
  for (int m = 0; m < n_; ++m) {
    if (credit_send_req_[m] != MPI_REQUEST_NULL)
      XF_MPI_CHECK(MPI_Wait(&credit_send_req_[m], MPI_STATUS_IGNORE));
  }
}

void NicProxy::count_completion(uint64_t seen_ns) {
  const double lat = static_cast<double>(host_steady_ns() - seen_ns);
  stats_.completions++;
  stats_.complete_latency_ns_sum += lat;
  stats_.complete_latency_ns_max = std::max(stats_.complete_latency_ns_max, lat);
}

bool NicProxy::poll_recv(int m) {
  if (recv_req_[m] == MPI_REQUEST_NULL) return false;
  int done = 0;
  XF_MPI_CHECK(MPI_Test(&recv_req_[m], &done, MPI_STATUS_IGNORE));
  if (!done) return false;
  const xferlab::halo::Message& msg = c_.messages[m];
  const uint64_t seen = host_steady_ns();
  const uint32_t it = recv_iter_[m];
  trace(EventKind::kMpiComplete, static_cast<uint16_t>(MpiOp::kIrecv), msg.peer, msg.recv_tag,
        msg.bytes);
  store_flag(c_.flag(FlagArray::kRecvComplete, m), it + 1);
  if (++recv_done_[it % 2] == static_cast<uint32_t>(n_)) {
    recv_done_[it % 2] = 0;
    store_flag(c_.flag(FlagArray::kRecvAll, kRecvAllIndex), it + 1);
    trace(EventKind::kFlagSet, 0, flag_id(FlagArray::kRecvAll, kRecvAllIndex), kRecvAllIndex,
          it + 1);
    ++recvs_completed_;
  }
  count_completion(seen);
  trace(EventKind::kFlagSet, 0, flag_id(FlagArray::kRecvComplete, m), m, it + 1);
  if (it + 1 < total_) post_recv(m, it + 1);
  return true;
}

bool NicProxy::poll_credit(int m) {
  if (credit_recv_req_[m] == MPI_REQUEST_NULL) return false;
  int done = 0;
  XF_MPI_CHECK(MPI_Test(&credit_recv_req_[m], &done, MPI_STATUS_IGNORE));
  if (!done) return false;
  credited_[m] = static_cast<int64_t>(credit_in_[m]) - 1;
  credit_seen_ns_[m] = host_steady_ns();
  if (credit_in_[m] < total_) post_credit_recv(m);
  return true;
}

bool NicProxy::poll_send(int m) {
  if (send_req_[m] == MPI_REQUEST_NULL) return false;
  int done = 0;
  XF_MPI_CHECK(MPI_Test(&send_req_[m], &done, MPI_STATUS_IGNORE));
  if (!done) return false;
  const xferlab::halo::Message& msg = c_.messages[m];
  const uint64_t seen = host_steady_ns();
  const uint32_t it = sending_iter_[m];
  trace(EventKind::kMpiComplete, static_cast<uint16_t>(MpiOp::kIsend), msg.peer, msg.send_tag,
        msg.bytes);
  store_flag(c_.flag(FlagArray::kSendComplete, m), it + 1);
  if (++send_done_[it % 2] == static_cast<uint32_t>(n_)) {
    send_done_[it % 2] = 0;
    store_flag(c_.flag(FlagArray::kRecvAll, kSendAllIndex), it + 1);
    ++sends_completed_;
  }
  count_completion(seen);
  return true;
}

bool NicProxy::poll_doorbell(int m) {
  if (send_req_[m] != MPI_REQUEST_NULL || send_iter_[m] >= total_) return false;
  const xferlab::halo::Message& msg = c_.messages[m];
  const uint32_t it = send_iter_[m];
  bool progress = false;
  if (doorbell_seen_ns_[m] == 0) {
    if (load_flag(c_.flag(FlagArray::kDoorbell, m)) >= it + 1) {
      doorbell_seen_ns_[m] = host_steady_ns();
      trace(EventKind::kFlagObserved, 0, flag_id(FlagArray::kDoorbell, m), m, it + 1);
      if (credited_[m] < static_cast<int64_t>(it)) stats_.credit_waits++;
      progress = true;
    }
  }
  if (doorbell_seen_ns_[m] != 0 && credited_[m] >= static_cast<int64_t>(it)) {
    const uint64_t ready = std::max(doorbell_seen_ns_[m], credit_seen_ns_[m]);
    XF_MPI_CHECK(MPI_Irsend(send_base_[it % 2] + msg.send_offset_doubles,
                            static_cast<int>(msg.bytes), MPI_BYTE, msg.peer, msg.send_tag,
                            MPI_COMM_WORLD, &send_req_[m]));
    const double lat = static_cast<double>(host_steady_ns() - ready);
    trace(EventKind::kMpiPost, static_cast<uint16_t>(MpiOp::kIsend), msg.peer, msg.send_tag,
          msg.bytes);
    stats_.posts++;
    stats_.post_latency_ns_sum += lat;
    stats_.post_latency_ns_max = std::max(stats_.post_latency_ns_max, lat);
    sending_iter_[m] = it;
    send_iter_[m] = it + 1;
    doorbell_seen_ns_[m] = 0;
    progress = true;
  }
  return progress;
}

void NicProxy::timeout(uint64_t waited_ns) {
  const std::string after =
      "NIC proxy: no progress for " + std::to_string(waited_ns / 1000000) + " ms: ";
  for (int m = 0; m < n_; ++m) {
    if (recv_req_[m] != MPI_REQUEST_NULL && recv_iter_[m] < recvs_completed_ + 1) {
      c_.fail(after + "receive of " + c_.describe_message(m) + " for iteration " +
              std::to_string(recv_iter_[m]) + " not completed (lost message or stalled peer)");
    }
  }
  for (int m = 0; m < n_; ++m) {
    if (send_req_[m] == MPI_REQUEST_NULL && send_iter_[m] < total_) {
      const uint32_t it = send_iter_[m];
      if (doorbell_seen_ns_[m] == 0) {
        c_.fail(after + "doorbell flag of " + c_.describe_message(m) + " did not reach " +
                std::to_string(it + 1) + " (saw " +
                std::to_string(load_flag(c_.flag(FlagArray::kDoorbell, m))) +
                "): the GPU did not ring it");
      }
      c_.fail(after + "no receiver credit for " + c_.describe_message(m) + " iteration " +
              std::to_string(it) + " (the peer never posted the receive)");
    }
    if (send_req_[m] != MPI_REQUEST_NULL) {
      c_.fail(after + "send of " + c_.describe_message(m) + " iteration " +
              std::to_string(sending_iter_[m]) + " not completed");
    }
  }
  c_.fail(after + "receives pending");
}

ProxyStats NicProxy::stats() const {
  return stats_;
}

std::vector<std::pair<std::string, double>> NicProxy::metrics() const {
  const ProxyStats s = stats_;
  auto avg = [](double sum, uint64_t n) { return n ? sum / static_cast<double>(n) : 0.0; };
  return {{"proxy_post_latency_avg", avg(s.post_latency_ns_sum, s.posts)},
          {"proxy_post_latency_max", s.post_latency_ns_max},
          {"proxy_complete_latency_avg", avg(s.complete_latency_ns_sum, s.completions)},
          {"proxy_complete_latency_max", s.complete_latency_ns_max},
          {"proxy_pass_avg", avg(s.pass_ns_sum, s.passes)},
          {"proxy_credit_waits", static_cast<double>(s.credit_waits)},
          // Per iteration (warm-up included), like the cpu_idle phase of the main thread.
          {"proxy_cpu_idle", avg(s.idle_ns_sum, total_)}};
}

}  // namespace xferlab::gdasync
