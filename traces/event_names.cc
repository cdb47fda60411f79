// traces/event_names.cc — the name tables for kinds, mechanisms and MPI ops.
#include "traces/event_names.h"

#include <iterator>

namespace xferlab::traces {
namespace {

// Indexed by EventKind value; keep in step with event.h.
const char* const kKindNames[] = {
    "invalid",      "kernel_launch",     "kernel_begin",       "kernel_end",        "cta_begin",
    "cta_end",      "counter_decrement", "counter_zero",       "transfer_begin",    "transfer_end",
    "flag_set",     "flag_observed",     "stream_write_value", "stream_wait_value", "mpi_post",
    "mpi_complete", "phase_begin",       "phase_end",          "iteration",         "chunk_write",
};
static_assert(std::size(kKindNames) == size_t(EventKind::kNumEventKinds));

const char* const kMechanismNames[] = {
    "unknown",     "memcpy",         "inline",       "polling", "cdp",
    "polling_tma", "unified_memory", "hardware_dma", "mpi",     "proxy",
};
static_assert(std::size(kMechanismNames) == size_t(TransferMechanism::kNumMechanisms));

const char* const kMpiOpNames[] = {"unknown", "isend", "irecv", "send", "recv"};

template <size_t N>
std::vector<std::string> names_from(const char* const (&table)[N], size_t first) {
  return std::vector<std::string>(std::begin(table) + first, std::end(table));
}

}  // namespace

const char* event_kind_name(uint16_t kind) {
  return kind < std::size(kKindNames) ? kKindNames[kind] : "unknown";
}

std::optional<EventKind> parse_event_kind(std::string_view name) {
  for (size_t k = 1; k < std::size(kKindNames); ++k) {
    if (name == kKindNames[k]) return EventKind(k);
  }
  return std::nullopt;
}

std::vector<std::string> event_kind_names() {
  return names_from(kKindNames, 1);
}

const char* mechanism_name(uint16_t mechanism) {
  return mechanism < std::size(kMechanismNames) ? kMechanismNames[mechanism] : "unknown";
}

std::optional<TransferMechanism> parse_mechanism(std::string_view name) {
  for (size_t m = 1; m < std::size(kMechanismNames); ++m) {
    if (name == kMechanismNames[m]) return TransferMechanism(m);
  }
  return std::nullopt;
}

std::vector<std::string> mechanism_names() {
  return names_from(kMechanismNames, 1);
}

const char* mpi_op_name(uint16_t op) {
  return op < std::size(kMpiOpNames) ? kMpiOpNames[op] : "unknown";
}

}  // namespace xferlab::traces
