// traces/event_names.h — names of event kinds and transfer mechanisms, for
// tools, docs and error messages (event.h stays free of strings so CUDA
// device code can include it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/event.h"

namespace xferlab::traces {

// event_kind_name: "kernel_begin", ...; "unknown" for values this version
// does not know.
const char* event_kind_name(uint16_t kind);

// parse_event_kind: inverse of event_kind_name (nullopt when unknown).
std::optional<EventKind> parse_event_kind(std::string_view name);

// event_kind_names: every known kind name, in numbering order.
std::vector<std::string> event_kind_names();

// mechanism_name: "polling", ...; "unknown" when out of range.
const char* mechanism_name(uint16_t mechanism);
std::optional<TransferMechanism> parse_mechanism(std::string_view name);
std::vector<std::string> mechanism_names();

// mpi_op_name: "isend", ...; "unknown" when out of range.
const char* mpi_op_name(uint16_t op);

// is_known_kind: kInvalid < kind < kNumEventKinds.
inline bool is_known_kind(uint16_t kind) {
  return kind > 0 && kind < static_cast<uint16_t>(EventKind::kNumEventKinds);
}

}  // namespace xferlab::traces
