// sim/open_times.h — OpenTimes: the begin times of intervals whose end is
// not yet read, by 64-bit key (the trace adapter's open transfers and CTAs,
// keyed GPU << 32 | id).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace xferlab::sim {

// OpenTimes: a map from key to begin time with the operations the adapter
// needs, by open addressing with linear probing: a node-based hash map
// allocated and freed a node per pair (~10 ns per event on the ALS trace;
// docs/performance.md, "Cut 10").
class OpenTimes {
 public:
  // set: the begin time of `key`, replacing an earlier one.
  void set(uint64_t key, double t) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    size_t i = home(key);
    while (slots_[i].used && slots_[i].key != key) i = (i + 1) & mask_;
    if (!slots_[i].used) ++size_;
    slots_[i] = Slot{key, t, true};
  }

  // take: the begin time of `key`, removed; nullopt if none is open.
  std::optional<double> take(uint64_t key) {
    if (slots_.empty()) return std::nullopt;
    for (size_t i = home(key); slots_[i].used; i = (i + 1) & mask_) {
      if (slots_[i].key != key) continue;
      const double t = slots_[i].t;
      erase_at(i);
      return t;
    }
    return std::nullopt;
  }

  // size: keys open.
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    double t = 0;
    bool used = false;
  };
  size_t home(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }
  // erase_at: backward-shift deletion, so that no probe sequence is broken:
  // an entry after the hole moves into it unless its home lies cyclically
  // in (hole, j].
  void erase_at(size_t hole) {
    for (size_t j = (hole + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      const size_t h = home(slots_[j].key);
      const bool stays = hole < j ? hole < h && h <= j : hole < h || h <= j;
      if (!stays) slots_[hole] = slots_[j], hole = j;
    }
    slots_[hole].used = false;
    --size_;
  }
  // grow: twice the slots (at least 64), at most half of them used.
  void grow() {
    std::vector<Slot> old =
        std::exchange(slots_, std::vector<Slot>(std::max<size_t>(64, 2 * slots_.size())));
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (const Slot& s : old) {
      if (s.used) set(s.key, s.t);
    }
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0, size_ = 0;
};

}  // namespace xferlab::sim
