// hw_model/write_coalescer.h — WriteCoalescer: how a warp's store instructions
// become link transactions (GPU cache lines of sectors; one transaction per
// touched line per instruction; no merging across instructions unless a merge
// window is configured). This is what separates PROACT-inline (SM stores go to
// the link as issued) from decoupled transfers (full-size DMA/copy packets).
// Equations: docs/hw_model.md §2.
#pragma once

#include <cstdint>
#include <span>

#include "common/result.h"
#include "hw_model/link_model.h"
#include "hw_model/param_table.h"

namespace xferlab::hw_model {

struct CoalescingConfig {
  double line_bytes = 128;   ///< cache line: one warp instruction -> ≤1 transaction per line.
  double sector_bytes = 32;  ///< sector: a transaction carries whole touched sectors.
  int64_t merge_window_instructions = 1;  ///< consecutive store instructions of a warp whose
                                          ///< writes to the same line merge (1 = no merging).
  int64_t warp_threads = 32;              ///< threads per warp.

  Status validate() const;
  static std::span<const Param<CoalescingConfig>> params();
};

// WarpStore: one store instruction of one warp with a uniform stride.
struct WarpStore {
  int64_t active_threads = 32;  ///< threads that store (≤ warp_threads).
  double bytes_per_thread = 4;  ///< 1, 2, 4, 8 or 16.
  double stride_bytes = 4;      ///< address distance between consecutive threads.
                                ///< = bytes_per_thread: contiguous; ≥ line: scattered.
};

// StoreTransactions: the link transactions of `instructions` warp stores.
struct StoreTransactions {
  double transactions = 0;           ///< link packets.
  double bytes_per_transaction = 0;  ///< payload each carries (whole touched sectors).
  bool partial = false;              ///< bytes inside the sectors not all written -> byte enables.
  double useful_bytes = 0;           ///< bytes the program actually stored.
};

class WriteCoalescer {
 public:
  static Result<WriteCoalescer> create(const CoalescingConfig& config);
  const CoalescingConfig& config() const { return config_; }

  // coalesce: `instructions` consecutive executions of `store` by one warp,
  // each advancing the base address by the store's footprint (so merging
  // windows see adjacent data).
  StoreTransactions coalesce(const WarpStore& store, double instructions = 1) const;

  // wire: the coalesced stores on `link` (LinkModel::stores).
  WireBytes wire(const LinkModel& link, const WarpStore& store, double instructions = 1) const;

 private:
  explicit WriteCoalescer(const CoalescingConfig& config) : config_(config) {}
  CoalescingConfig config_;
};

}  // namespace xferlab::hw_model
