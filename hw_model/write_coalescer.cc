// hw_model/write_coalescer.cc — warp stores -> link transactions
// (docs/hw_model.md §2).
#include "hw_model/write_coalescer.h"

#include <algorithm>
#include <cmath>

namespace xferlab::hw_model {
namespace {

using C = CoalescingConfig;
const Param<C> kCoalescingParams[] = {
    {"line", Unit::kSizeBytes, "cache line: at most one transaction per line per instruction",
     &C::line_bytes},
    {"sector", Unit::kSizeBytes, "sector: writes covering whole sectors need no byte enables",
     &C::sector_bytes},
    {"merge_window_instructions", Unit::kNone,
     "consecutive store instructions of a warp merged per line (1 = none)",
     &C::merge_window_instructions},
    {"warp_threads", Unit::kNone, "threads per warp", &C::warp_threads},
};

}  // namespace

std::span<const Param<CoalescingConfig>> CoalescingConfig::params() {
  return kCoalescingParams;
}

Status CoalescingConfig::validate() const {
  if (!(line_bytes > 0)) return make_error("key 'line': must be > 0");
  if (!(sector_bytes > 0)) return make_error("key 'sector': must be > 0");
  if (std::fmod(line_bytes, sector_bytes) != 0)
    return make_error("key 'sector': line is not a whole number of sectors");
  if (merge_window_instructions < 1)
    return make_error("key 'merge_window_instructions': must be >= 1");
  if (warp_threads < 1) return make_error("key 'warp_threads': must be >= 1");
  return Status::Ok();
}

Result<WriteCoalescer> WriteCoalescer::create(const CoalescingConfig& config) {
  Status status = config.validate();
  if (!status.ok()) return status.error();
  return WriteCoalescer(config);
}

StoreTransactions WriteCoalescer::coalesce(const WarpStore& store, double instructions) const {
  StoreTransactions out;
  double threads =
      static_cast<double>(std::clamp<int64_t>(store.active_threads, 0, config_.warp_threads));
  double bytes = store.bytes_per_thread;
  if (threads <= 0 || bytes <= 0 || instructions <= 0) return out;
  double stride = std::max(store.stride_bytes, bytes);
  // A merge window of W instructions acts like one wider instruction:
  // contiguous warps walk the array (W x more threads), strided threads walk
  // their own rows (W x more bytes per thread, up to the stride).
  double window = std::min(static_cast<double>(config_.merge_window_instructions), instructions);
  window = std::max(1.0, std::floor(window));
  if (stride == bytes) {
    threads *= window;
  } else {
    bytes = std::min(bytes * window, stride);
    if (bytes == stride) stride = bytes;
  }
  const double line = config_.line_bytes;
  double per_group = 0;
  double span_bytes = 0;
  if (stride >= line) {
    // Every thread in lines of its own.
    double lines_per_thread = std::ceil(bytes / line);
    per_group = threads * lines_per_thread;
    span_bytes = bytes / lines_per_thread;
  } else {
    double threads_per_line = std::min(threads, std::floor(line / stride));
    per_group = std::ceil(threads / threads_per_line);
    span_bytes = std::min(line, (threads_per_line - 1) * stride + bytes);
  }
  out.transactions = per_group * instructions / window;
  out.bytes_per_transaction = span_bytes;
  // Holes inside a transaction (threads sharing a line with gaps) or a span
  // that is not whole sectors need byte enables.
  bool holes = stride < line && stride > bytes;
  out.partial = holes || std::fmod(span_bytes, config_.sector_bytes) != 0;
  out.useful_bytes =
      static_cast<double>(std::min<int64_t>(store.active_threads, config_.warp_threads)) *
      store.bytes_per_thread * instructions;
  return out;
}

WireBytes WriteCoalescer::wire(const LinkModel& link, const WarpStore& store,
                               double instructions) const {
  StoreTransactions t = coalesce(store, instructions);
  if (t.transactions <= 0) return WireBytes{};
  // A line larger than the link's max payload leaves the SM as several packets.
  double pieces = std::ceil(t.bytes_per_transaction / link.format().max_payload_bytes);
  WireBytes w = link.stores(t.transactions * pieces, t.bytes_per_transaction / pieces, t.partial);
  w.payload_bytes = t.useful_bytes;  // Holes in partial writes are not payload.
  return w;
}

}  // namespace xferlab::hw_model
