// native/proact/mechanism.cc — names and properties of the mechanisms.
#include "native/proact/mechanism.h"

#include <sstream>

#include "common/units.h"

namespace xferlab::proact {

namespace {
std::vector<std::string> names() {
  std::vector<std::string> out;
  for (Mechanism m : all_mechanisms()) out.push_back(mechanism_name(m));
  return out;
}
}  // namespace

const std::vector<Mechanism>& all_mechanisms() {
  static const std::vector<Mechanism> all = {
      Mechanism::kNone,    Mechanism::kTrack,      Mechanism::kInline,
      Mechanism::kPolling, Mechanism::kPollingTma, Mechanism::kCdp,
      Mechanism::kCdpTail, Mechanism::kMemcpy,     Mechanism::kUnified};
  return all;
}

const char* mechanism_name(Mechanism m) {
  switch (m) {
    case Mechanism::kNone: return "none";
    case Mechanism::kTrack: return "track";
    case Mechanism::kInline: return "inline";
    case Mechanism::kPolling: return "polling";
    case Mechanism::kPollingTma: return "polling_tma";
    case Mechanism::kCdp: return "cdp";
    case Mechanism::kCdpTail: return "cdp_tail";
    case Mechanism::kMemcpy: return "memcpy";
    case Mechanism::kUnified: return "um";
  }
  return "?";
}

Result<Mechanism> parse_mechanism(const std::string& text) {
  for (Mechanism m : all_mechanisms()) {
    if (text == mechanism_name(m)) return m;
  }
  std::string all;
  for (const std::string& n : names()) all += (all.empty() ? "" : ", ") + n;
  return make_error("--mechanism: unknown mechanism '" + text + "'" + did_you_mean(text, names()) +
                    " (" + all + ")");
}

Result<std::vector<Mechanism>> parse_mechanism_list(const std::string& text) {
  if (text == "all") return all_mechanisms();
  std::vector<Mechanism> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    Result<Mechanism> m = parse_mechanism(item);
    if (!m.ok()) return m.error();
    out.push_back(*m);
  }
  if (out.empty()) return make_error("--mechanism: empty list");
  return out;
}

bool uses_tracking(Mechanism m) {
  return m == Mechanism::kTrack || m == Mechanism::kPolling || m == Mechanism::kPollingTma ||
         m == Mechanism::kCdp || m == Mechanism::kCdpTail;
}

bool uses_agent_threads(Mechanism m) {
  return m == Mechanism::kPolling || m == Mechanism::kPollingTma || m == Mechanism::kCdp ||
         m == Mechanism::kCdpTail;
}

bool moves_data(Mechanism m) {
  return m != Mechanism::kNone && m != Mechanism::kTrack;
}

traces::TransferMechanism trace_mechanism(Mechanism m) {
  using T = traces::TransferMechanism;
  switch (m) {
    case Mechanism::kInline: return T::kInline;
    case Mechanism::kPolling: return T::kPolling;
    case Mechanism::kPollingTma: return T::kPollingTma;
    case Mechanism::kCdp:
    case Mechanism::kCdpTail: return T::kCdp;
    case Mechanism::kMemcpy: return T::kMemcpy;
    case Mechanism::kUnified: return T::kUnifiedMemory;
    default: return T::kUnknown;
  }
}

}  // namespace xferlab::proact
