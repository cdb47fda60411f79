// native/proact/mechanism.h — Mechanism: how a PROACT run moves produced data
// to the peer GPUs, plus the measurement modes (no transfer, tracking only).
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "traces/event.h"

namespace xferlab::proact {

enum class Mechanism {
  kNone,        ///< producer only, no tracking, no transfer: the infinite-bandwidth limit.
  kTrack,       ///< counters + ready flags, no transfer: tracking cost.
  kInline,      ///< every store duplicated to every peer (no tracking).
  kPolling,     ///< persistent polling agent, 16-B SM stores.
  kPollingTma,  ///< persistent polling agent, Hopper bulk copies (cp.async.bulk).
  kCdp,         ///< last decrementing CTA launches a child copy kernel (fire-and-forget).
  kCdpTail,     ///< same, tail launch (runs after the producer grid).
  kMemcpy,      ///< cudaMemcpyPeerAsync after the producer kernel.
  kUnified,     ///< Unified Memory, read-mostly + prefetch to every peer (micro only).
};

// all_mechanisms: every value, in enum order.
const std::vector<Mechanism>& all_mechanisms();
// mechanism_name: "none", "track", "inline", "polling", "polling_tma", "cdp",
// "cdp_tail", "memcpy", "um".
const char* mechanism_name(Mechanism m);
Result<Mechanism> parse_mechanism(const std::string& text);
// parse_mechanism_list: "polling,cdp" or "all".
Result<std::vector<Mechanism>> parse_mechanism_list(const std::string& text);

// uses_tracking: the producer decrements counters (and marks chunks ready).
bool uses_tracking(Mechanism m);
// uses_agent_threads: the transfer-thread count is a parameter of the mechanism.
bool uses_agent_threads(Mechanism m);
// moves_data: the mechanism delivers data to peers (so results can be verified there).
bool moves_data(Mechanism m);
// trace_mechanism: the traces::TransferMechanism recorded for m.
traces::TransferMechanism trace_mechanism(Mechanism m);

}  // namespace xferlab::proact
