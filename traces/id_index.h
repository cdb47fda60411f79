// traces/id_index.h — IdIndex: constant-time lookups by id into one of
// Metadata's name tables (chunks, kernels, flags, ...).
//
// Metadata::find_* suit a few lookups; code that looks up an id per event
// (the replay adapter, `trace check`) builds an IdIndex once instead, so a
// trace with many chunks is not read in time quadratic in its table.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace xferlab::traces {

// IdIndex: refers to `table` (which must outlive it and not change); find()
// returns what Metadata::find_* would: the first entry with that id.
template <typename T>
class IdIndex {
 public:
  explicit IdIndex(const std::vector<T>& table) : table_(&table) {
    uint64_t max_id = 0;
    for (const T& e : table) max_id = std::max<uint64_t>(max_id, e.id);
    // Ids are usually 0..n-1: a flat slot table then; sparse ids hash.
    if (max_id < 2 * uint64_t{table.size()} + 64) {
      slots_.assign(table.empty() ? 0 : max_id + 1, kNone);
      for (size_t i = table.size(); i-- > 0;) slots_[table[i].id] = static_cast<uint32_t>(i);
    } else {
      sparse_.reserve(table.size());
      for (size_t i = table.size(); i-- > 0;) sparse_[table[i].id] = static_cast<uint32_t>(i);
    }
  }

  // find: the entry with `id`, nullptr when absent.
  const T* find(uint32_t id) const {
    if (!sparse_.empty()) {
      auto it = sparse_.find(id);
      return it == sparse_.end() ? nullptr : &(*table_)[it->second];
    }
    return id < slots_.size() && slots_[id] != kNone ? &(*table_)[slots_[id]] : nullptr;
  }

 private:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  const std::vector<T>* table_;
  std::vector<uint32_t> slots_;                    // id -> position (dense ids)
  std::unordered_map<uint32_t, uint32_t> sparse_;  // id -> position (sparse ids)
};

}  // namespace xferlab::traces
