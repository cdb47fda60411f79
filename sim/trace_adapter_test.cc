// sim/trace_adapter_test.cc — the adapter on traces written exactly as
// native/proact writes them (runner.cc add_metadata, proact_device.cuh,
// agents.cu): producer kernel id step*8+gpu, persistent agent kernels (id
// 0x10000 + producer id) with a begin and, since run 2, an end, sampled CTA records (first chunk +
// CTA bytes, 16-B stores), one counter zero per chunk, transfers per slice with the mechanism in
// flags, host_realtime timestamps, whole-file zstd.
#include "sim/trace_adapter.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <tuple>

#include "sim/machine.h"
#include "sim/replay_engine.h"
#include "traces/writer.h"

namespace xferlab::sim {
namespace {

using traces::Event;
using traces::EventKind;
using traces::TransferMechanism;

constexpr uint64_t kT0 = 1'763'800'000'000'000'000ull;  // host_realtime ns, 2025
constexpr uint32_t kCtas = 64, kCtaBytes = 4096, kChunkBytes = 16384, kSample = 8;
constexpr uint32_t kChunks = kCtas * kCtaBytes / kChunkBytes;
constexpr uint64_t kKernelBegin = 1000, kCtaSpacing = 100, kCtaLength = 500;
constexpr uint64_t kSlice = 8192;

uint64_t cta_begin(uint32_t b) {
  return kKernelBegin + b * kCtaSpacing;
}
uint64_t cta_end(uint32_t b) {
  return cta_begin(b) + kCtaLength;
}
uint64_t zero_time(uint32_t c) {
  return cta_end(4 * c + 3) + 50;
}
uint64_t kernel_end() {
  return zero_time(kChunks - 1) + 10;
}  // the last CTA decrements first

Event ev(uint64_t t, EventKind k, uint16_t flags, uint16_t stream, uint32_t id, uint32_t aux,
         uint64_t value) {
  return Event{kT0 + t, static_cast<uint16_t>(k), flags, 0, stream, id, aux, value};
}

// write_proact_trace: one step of the micro workload (GPU 0 produces, GPU 1
// receives) measured with `mech`; returns the last transfer end (or the
// agent's end, recorded `agent_end_after` ns after it when > 0).
uint64_t write_proact_trace(
    const std::string& path, const std::string& mech, uint64_t agent_end_after = 0,
    bool traced_run = false,
    const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
  traces::Metadata md;
  md.producer.program = "proact";
  md.gpus.resize(2);
  for (uint32_t g = 0; g < 2; ++g) md.gpus[g].id = g, md.gpus[g].model = "NVIDIA H200";
  md.set_parameter("workload", "micro");
  md.set_parameter("mechanism", mech);
  md.set_parameter("chunk_size", std::to_string(kChunkBytes) + "B");
  md.set_parameter("threads", "1024");
  md.set_parameter("gpus", "2");
  md.set_parameter("trace_cta_sample", std::to_string(kSample));
  md.set_parameter("slice_size", std::to_string(kSlice) + "B");
  md.set_parameter("steps", "1");
  md.set_parameter("step_regions", "0");
  md.set_parameter("region0_size", std::to_string(kCtas * kCtaBytes) + "B");
  md.set_parameter("region0_gpu0_chunks", "0.." + std::to_string(kChunks));
  md.set_parameter("traced_run_time", "0.012345ms");
  if (traced_run) md.set_parameter("traced_run", "repetition 7, right after 6 untraced ones");
  for (const auto& [key, value] : overrides) md.set_parameter(key, value);
  const bool polling = mech == "polling" || mech == "polling_tma";
  const bool tracking = polling || mech == "cdp" || mech == "track";
  const auto tm = mech == "polling_tma" ? TransferMechanism::kPollingTma
                  : mech == "polling"   ? TransferMechanism::kPolling
                  : mech == "cdp"       ? TransferMechanism::kCdp
                                        : TransferMechanism::kMemcpy;
  std::vector<Event> evs;
  if (polling)
    evs.push_back(ev(kKernelBegin - 200, EventKind::kKernelBegin, 0, 1, traces::kAgentKernelIdBase,
                     132, 1024));
  evs.push_back(ev(kKernelBegin, EventKind::kKernelBegin, 0, 0, 0, kCtas, 256));
  for (uint32_t b = 0; b < kCtas; b += kSample) {
    const uint32_t chunk = b * kCtaBytes / kChunkBytes;
    evs.push_back(ev(cta_begin(b), EventKind::kCtaBegin, 16, b % 132, b, chunk, kCtaBytes));
    evs.push_back(ev(cta_end(b), EventKind::kCtaEnd, 16, b % 132, b, chunk, kCtaBytes));
  }
  uint64_t last = kernel_end();
  for (uint32_t c = 0; c < kChunks && tracking; ++c) {
    evs.push_back(ev(zero_time(c), EventKind::kCounterZero, 0, 0, c, traces::kNoId, 0));
    for (uint64_t s = 0; s < kChunkBytes / kSlice && mech != "track"; ++s) {
      const uint32_t id = static_cast<uint32_t>(c * (kChunkBytes / kSlice) + s);
      const uint64_t t = zero_time(c) + 300 + s * 40;
      evs.push_back(ev(t, EventKind::kTransferBegin, uint16_t(tm), 3, id, 0b10, kSlice));
      evs.push_back(ev(t + 700, EventKind::kTransferEnd, uint16_t(tm), 3, id, 0b10, kSlice));
      last = std::max(last, t + 700);
    }
  }
  evs.push_back(ev(kernel_end(), EventKind::kKernelEnd, 0, 0, 0, kCtas, 256));
  if (mech == "memcpy") {  // trace_marker_kernel around cudaMemcpyPeerAsync
    evs.push_back(ev(kernel_end() + 5000, EventKind::kTransferBegin, uint16_t(tm), 0, 0, 0b10,
                     kCtas * kCtaBytes));
    evs.push_back(ev(kernel_end() + 9000, EventKind::kTransferEnd, uint16_t(tm), 0, 0, 0b10,
                     kCtas * kCtaBytes));
    last = kernel_end() + 9000;
  }
  if (polling && agent_end_after > 0) {
    last += agent_end_after;
    evs.push_back(ev(last, EventKind::kKernelEnd, 0, 1, traces::kAgentKernelIdBase, 132, 1024));
  }
  std::stable_sort(evs.begin(), evs.end(),
                   [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; });
  traces::TraceWriter w;
  EXPECT_TRUE(w.open(path, md).ok());
  EXPECT_TRUE(w.append(evs.data(), evs.size()).ok());
  EXPECT_TRUE(w.close().ok());
  return last;
}

std::string tmp_path(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / name).string();
}

TEST(TraceAdapter, ProactNamesMapOntoEngineMechanisms) {
  EXPECT_EQ(mechanism_from_trace_name("polling_tma")->mechanism, Mechanism::kPolling);
  EXPECT_TRUE(mechanism_from_trace_name("polling_tma")->variant);
  EXPECT_EQ(mechanism_from_trace_name("cdp_tail")->mechanism, Mechanism::kCdp);
  EXPECT_EQ(mechanism_from_trace_name("none")->mechanism, Mechanism::kInfinite);
  EXPECT_EQ(mechanism_from_trace_name("track")->mechanism, Mechanism::kInfinite);
  EXPECT_EQ(mechanism_from_trace_name("inline")->mechanism, Mechanism::kInline);
  EXPECT_EQ(mechanism_from_trace_name("memcpy")->mechanism, Mechanism::kMemcpy);
  EXPECT_FALSE(mechanism_from_trace_name("polling")->variant);
  EXPECT_FALSE(mechanism_from_trace_name("um").has_value());
}

// Numeric run parameters are whole numbers or an error naming the file and
// parameter (atoi used to read "2x" as 2 and "x" as 0).
TEST(TraceAdapter, BadNumericParametersAreErrors) {
  const std::string path = tmp_path("bad_params.xft");
  for (const auto& [key, value, problem] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"gpus", "2x", "'2x' is not a non-negative integer"},
           {"threads", "-4", "'-4' is not a non-negative integer"},
           {"lost_events", "", "'' is not a non-negative integer"},
           {"trace_cta_sample", "8.5", "'8.5' is not a non-negative integer"},
           {"step_regions", "0,x", "'x' is not a non-negative integer"},
           {"region0_gpu0_chunks", "0..", "'0..' is not a range a..b"}}) {
    write_proact_trace(path, "polling", 0, false, {{key, value}});
    Result<ReplayInput> in = load_replay_input(path);
    ASSERT_FALSE(in.ok()) << key;
    EXPECT_EQ(in.error().message, path + ": parameter " + key + ": " + problem);
  }
}

// Counter zeros give every chunk's ready time exactly, although only every
// 8th CTA is recorded; first writes of unrecorded chunks are interpolated
// (exact here: CTAs start at a constant spacing).
TEST(TraceAdapter, SampledPollingTmaTrace) {
  const std::string path = tmp_path("micro_polling_tma.xft");
  const uint64_t last = write_proact_trace(path, "polling_tma");
  Result<ReplayInput> in = load_replay_input(path);
  ASSERT_TRUE(in.ok()) << in.error().message;
  EXPECT_EQ(in->name, "micro_polling_tma");
  EXPECT_EQ(in->num_gpus, 2u);
  ASSERT_EQ(in->iterations.size(), 1u);  // the agent kernel (no end) is not a producer
  ASSERT_EQ(in->iterations[0].kernels.size(), 1u);
  const KernelInput& k = in->iterations[0].kernels[0];
  EXPECT_EQ(k.dest_mask, 0b10u);
  EXPECT_DOUBLE_EQ(k.duration_ns, kernel_end() - kKernelBegin);
  // The launch's grid, and its CTA generations: 6860 ns over the traced
  // CTAs' 500 ns, rounded.
  EXPECT_EQ(k.grid_ctas, kCtas);
  EXPECT_EQ(k.cta_generations, 14u);
  ASSERT_EQ(k.chunks.size(), kChunks);
  for (uint32_t c = 0; c < kChunks; ++c) {
    EXPECT_EQ(k.chunks[c].size_bytes, kChunkBytes);
    EXPECT_EQ(k.chunks[c].writers, 4u);
    EXPECT_EQ(k.chunks[c].store_bytes, 16u);
    EXPECT_DOUBLE_EQ(k.chunks[c].ready_ns, zero_time(c) - kKernelBegin) << c;
    EXPECT_NEAR(k.chunks[c].first_write_ns, cta_begin(4 * c) - kKernelBegin, 1e-6) << c;
  }
  ASSERT_TRUE(in->measured.has_value());
  EXPECT_EQ(in->measured->mechanism, Mechanism::kPolling);
  EXPECT_EQ(in->measured->trace_mechanism, "polling_tma");
  EXPECT_DOUBLE_EQ(in->measured->end_to_end_ns, last - kKernelBegin);
  EXPECT_DOUBLE_EQ(in->measured->host_time_ns, 12345);
  EXPECT_EQ(in->measured->payload_bytes, uint64_t{kChunks} * kChunkBytes);
}

// An agent run traced after a host gap (no `traced_run`) is flagged so that
// validate leaves it out of the default set; compute-only runs never are.
TEST(TraceAdapter, FlagsAgentRunsTracedAfterAHostGap) {
  const std::string old_path = tmp_path("gap_polling.xft");
  write_proact_trace(old_path, "polling");
  Result<ReplayInput> gap = load_replay_input(old_path);
  ASSERT_TRUE(gap.ok()) << gap.error().message;
  EXPECT_TRUE(gap->measured->traced_after_gap);
  const std::string new_path = tmp_path("warm_polling.xft");
  write_proact_trace(new_path, "polling", 0, /*traced_run=*/true);
  Result<ReplayInput> warm = load_replay_input(new_path);
  ASSERT_TRUE(warm.ok()) << warm.error().message;
  EXPECT_FALSE(warm->measured->traced_after_gap);
  const std::string none_path = tmp_path("gap_none.xft");
  write_proact_trace(none_path, "none");
  Result<ReplayInput> none = load_replay_input(none_path);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->measured->traced_after_gap);
}

// Run-2 proact traces record the agents' end too: the agent is still not a
// producer (one iteration, the producer's timeline), and the measured span
// runs to the agent's exit.
TEST(TraceAdapter, AgentKernelWithEndIsNotAProducer) {
  const std::string path = tmp_path("micro_polling_agent_end.xft");
  const uint64_t last = write_proact_trace(path, "polling", 400);
  Result<ReplayInput> in = load_replay_input(path);
  ASSERT_TRUE(in.ok()) << in.error().message;
  ASSERT_EQ(in->iterations.size(), 1u);
  ASSERT_EQ(in->iterations[0].kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(in->iterations[0].kernels[0].duration_ns, kernel_end() - kKernelBegin);
  ASSERT_TRUE(in->measured.has_value());
  EXPECT_DOUBLE_EQ(in->measured->end_to_end_ns, last - kKernelBegin);
}

// Without counters (memcpy, inline) ready times come from the recorded CTAs:
// each chunk's last recorded writer, interpolated for unrecorded chunks; the
// error is below kSample CTA spacings.
TEST(TraceAdapter, SampledTraceWithoutCounters) {
  for (const std::string mech : {"memcpy", "inline"}) {
    const std::string path = tmp_path("micro_" + mech + ".xft");
    const uint64_t last = write_proact_trace(path, mech);
    Result<ReplayInput> in = load_replay_input(path);
    ASSERT_TRUE(in.ok()) << in.error().message;
    const KernelInput& k = in->iterations[0].kernels[0];
    ASSERT_EQ(k.chunks.size(), kChunks) << mech;
    for (uint32_t c = 0; c < kChunks; ++c) {
      EXPECT_NEAR(k.chunks[c].ready_ns, zero_time(c) - kKernelBegin, kSample * kCtaSpacing);
    }
    ASSERT_TRUE(in->measured.has_value()) << mech;
    EXPECT_EQ(mechanism_name(in->measured->mechanism), mech);
    EXPECT_DOUBLE_EQ(in->measured->end_to_end_ns, last - kKernelBegin);
  }
}

// Transfers pair by (GPU, id) with the latest open begin, however many are
// open at once and in whatever order they end: 3,000 open together (the
// open-transfer table grows and deletes amid collisions), a begin repeated
// before its end, an end without a begin, a begin without an end, the same
// id on two GPUs; ends nearly in begin order (the insertion sort) and
// scrambled (its hand-over to std::sort). The measured busy time is the
// union of the pairs, computed here independently.
TEST(TraceAdapter, TransfersPairByGpuAndIdInAnyOrder) {
  for (const bool scrambled : {false, true}) {
    traces::Metadata md;
    md.producer.program = "proact";
    md.gpus.resize(2);
    for (uint32_t g = 0; g < 2; ++g) md.gpus[g].id = g, md.gpus[g].model = "NVIDIA H200";
    md.set_parameter("mechanism", "memcpy");
    md.set_parameter("chunk_size", std::to_string(kChunkBytes) + "B");
    md.set_parameter("steps", "1");
    md.set_parameter("step_regions", "0");
    md.set_parameter("region0_gpu0_chunks", "0..4");
    const auto memcpy = uint16_t(TransferMechanism::kMemcpy);
    std::vector<Event> evs;
    evs.push_back(ev(kKernelBegin, EventKind::kKernelBegin, 0, 0, 0, kCtas, 256));
    for (uint32_t c = 0; c < 4; ++c) {
      evs.push_back(
          ev(kKernelBegin + 100 * (c + 1), EventKind::kCounterZero, 0, 0, c, traces::kNoId, 0));
    }
    evs.push_back(ev(kKernelBegin + 1000, EventKind::kKernelEnd, 0, 0, 0, kCtas, 256));
    std::mt19937_64 rng(scrambled ? 2 : 1);
    std::vector<std::pair<uint64_t, uint64_t>> pairs;  // expected (begin, end), relative
    uint64_t payload = 0;
    auto transfer = [&](uint16_t gpu, uint32_t id, uint64_t begin, uint64_t end) {
      Event b = ev(begin, EventKind::kTransferBegin, memcpy, 0, id, 0b11, kSlice);
      Event e = ev(end, EventKind::kTransferEnd, memcpy, 0, id, 0b11, kSlice);
      b.gpu = e.gpu = gpu;
      evs.push_back(b), evs.push_back(e);
      payload += 2 * kSlice;
    };
    for (uint32_t i = 0; i < 3000; ++i) {
      const uint64_t begin = 5000 + 10 * i;
      const uint64_t length = scrambled ? 100 + rng() % 100'000 : 40'000 + rng() % 30;
      transfer(0, i, begin, begin + length);
      pairs.emplace_back(begin, begin + length);
    }
    transfer(1, 7, 200'000, 201'000);  // id 7 again, on GPU 1
    pairs.emplace_back(200'000, 201'000);
    // GPU 0 id 5 again: begun twice, ended once (the later begin pairs).
    evs.push_back(ev(300'000, EventKind::kTransferBegin, memcpy, 0, 5, 0b11, kSlice));
    evs.push_back(ev(300'500, EventKind::kTransferBegin, memcpy, 0, 5, 0b11, kSlice));
    evs.push_back(ev(302'000, EventKind::kTransferEnd, memcpy, 0, 5, 0b11, kSlice));
    pairs.emplace_back(300'500, 302'000);
    evs.push_back(ev(400'000, EventKind::kTransferEnd, memcpy, 0, 999'999, 0b11, kSlice));
    evs.push_back(ev(400'100, EventKind::kTransferBegin, memcpy, 0, 888'888, 0b11, kSlice));
    payload += 3 * 2 * kSlice;  // payload counts every begin
    std::stable_sort(evs.begin(), evs.end(),
                     [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; });
    const std::string path = tmp_path(scrambled ? "pairs_scrambled.xft" : "pairs_sorted.xft");
    traces::TraceWriter w;
    ASSERT_TRUE(w.open(path, md).ok());
    ASSERT_TRUE(w.append(evs.data(), evs.size()).ok());
    ASSERT_TRUE(w.close().ok());

    std::sort(pairs.begin(), pairs.end());
    double busy = 0;
    uint64_t from = pairs[0].first, to = pairs[0].second, last = 0;
    for (auto [b, e] : pairs) {
      if (b > to) busy += double(to - from), from = b, to = e;
      to = std::max(to, e), last = std::max(last, e);
    }
    busy += double(to - from);
    Result<ReplayInput> in = load_replay_input(path);
    ASSERT_TRUE(in.ok()) << in.error().message;
    ASSERT_TRUE(in->measured.has_value());
    EXPECT_DOUBLE_EQ(in->measured->transfer_busy_ns, busy) << scrambled;
    EXPECT_EQ(in->measured->payload_bytes, payload) << scrambled;
    EXPECT_DOUBLE_EQ(in->measured->end_to_end_ns, double(last - kKernelBegin)) << scrambled;
  }
}

// A whole-file zstd copy reads the same; a damaged one is an error naming it.
TEST(TraceAdapter, ReadsZstdCompressedTraces) {
  const std::string path = tmp_path("micro_cdp.xft");
  write_proact_trace(path, "cdp");
  std::ifstream f(path, std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string z(ZSTD_compressBound(raw.size()), '\0');
  z.resize(ZSTD_compress(z.data(), z.size(), raw.data(), raw.size(), 3));
  const std::string zpath = tmp_path("sub/micro_cdp.xft.zst");
  std::filesystem::create_directories(std::filesystem::path(zpath).parent_path());
  {
    std::ofstream zf(zpath, std::ios::binary);
    zf << z;
    ASSERT_TRUE(zf.good()) << zpath;
  }
  Result<ReplayInput> a = load_replay_input(path), b = load_replay_input(zpath);
  ASSERT_TRUE(a.ok() && b.ok()) << (b.ok() ? "" : b.error().message);
  EXPECT_EQ(b->name, "micro_cdp");
  ASSERT_EQ(a->num_chunks(), b->num_chunks());
  for (size_t c = 0; c < kChunks; ++c) {
    EXPECT_EQ(a->iterations[0].kernels[0].chunks[c].ready_ns,
              b->iterations[0].kernels[0].chunks[c].ready_ns);
  }
  EXPECT_TRUE(is_trace_file(zpath));
  const std::vector<std::string> found = find_traces(::testing::TempDir());
  EXPECT_NE(std::find(found.begin(), found.end(), zpath), found.end());

  const std::string bad = tmp_path("bad.xft.zst");
  std::ofstream(bad, std::ios::binary) << z.substr(0, z.size() / 2);
  Result<ReplayInput> e = load_replay_input(bad);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find(bad), std::string::npos) << e.error().message;
}

// load_replay_input keeps the input of a file read twice (a sweep's points):
// the kept copy is the input read anew, and a file rewritten in place with
// other bytes is read anew.
TEST(TraceAdapter, RereadOfTheSameFileGivesTheSameInput) {
  const std::string path = tmp_path("reread.xft");
  write_proact_trace(path, "polling");
  Result<Machine> m = load_machine("h200x2_nvlink4", {});
  ASSERT_TRUE(m.ok()) << m.error().message;
  // Each read's polling replay, every field of the result that is a number.
  auto replayed = [&](const ReplayInput& in) {
    Result<ReplayResult> r = simulate_isolated(separate_data_generation(in, *m), *m,
                                               ReplayOptions{Mechanism::kPolling, false});
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? std::make_tuple(r->end_to_end_ns, r->compute_ns, r->exposed_ns,
                                    r->transfer_busy_ns, r->wire_bytes, r->activities)
                  : std::make_tuple(0.0, 0.0, 0.0, 0.0, 0.0, uint64_t{0});
  };
  Result<ReplayInput> first = load_replay_input(path);
  ASSERT_TRUE(first.ok()) << first.error().message;
  const auto expected = replayed(*first);
  for (int read = 2; read <= 3; ++read) {  // decoded again and kept; then the kept copy
    Result<ReplayInput> again = load_replay_input(path);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->name, first->name);
    EXPECT_EQ(again->warnings, first->warnings);
    ASSERT_TRUE(again->measured.has_value());
    EXPECT_EQ(again->measured->mechanism, Mechanism::kPolling);
    ASSERT_EQ(again->iterations.size(), first->iterations.size());
    for (size_t i = 0; i < first->iterations.size(); ++i) {
      const auto& a = first->iterations[i].kernels;
      const auto& b = again->iterations[i].kernels;
      ASSERT_EQ(a.size(), b.size());
      for (size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].duration_ns, b[k].duration_ns);
        ASSERT_EQ(a[k].chunks.size(), b[k].chunks.size());
        for (size_t c = 0; c < a[k].chunks.size(); ++c) {
          EXPECT_EQ(a[k].chunks[c].first_write_ns, b[k].chunks[c].first_write_ns);
          EXPECT_EQ(a[k].chunks[c].ready_ns, b[k].chunks[c].ready_ns);
          EXPECT_EQ(a[k].chunks[c].size_bytes, b[k].chunks[c].size_bytes);
          EXPECT_EQ(a[k].chunks[c].writers, b[k].chunks[c].writers);
        }
      }
    }
    EXPECT_EQ(replayed(*again), expected) << "read " << read;
  }
  // Rewritten in place: the new bytes are read, then the old ones again.
  write_proact_trace(path, "cdp");
  for (int read = 1; read <= 3; ++read) {
    Result<ReplayInput> cdp = load_replay_input(path);
    ASSERT_TRUE(cdp.ok() && cdp->measured) << (cdp.ok() ? "no measured run" : cdp.error().message);
    EXPECT_EQ(cdp->measured->mechanism, Mechanism::kCdp) << "read " << read;
  }
  write_proact_trace(path, "polling");
  Result<ReplayInput> back = load_replay_input(path);
  ASSERT_TRUE(back.ok() && back->measured)
      << (back.ok() ? "no measured run" : back.error().message);
  EXPECT_EQ(back->measured->mechanism, Mechanism::kPolling);
  EXPECT_EQ(replayed(*back), expected);
}

// The proact trace replays on the 2x H200 preset with every mechanism; the
// measured mechanism's replay lands within the trace's scale.
TEST(TraceAdapter, ProactTraceReplays) {
  const std::string path = tmp_path("micro_polling.xft");
  write_proact_trace(path, "polling");
  Result<ReplayInput> in = load_replay_input(path);
  ASSERT_TRUE(in.ok()) << in.error().message;
  Result<Machine> m = load_machine("h200x2_nvlink4", {});
  ASSERT_TRUE(m.ok()) << m.error().message;
  const ReplayInput gen = separate_data_generation(*in, *m);
  double infinite = 0;
  for (Mechanism mech : kAllMechanisms) {
    Result<ReplayResult> r = simulate_isolated(gen, *m, ReplayOptions{mech, false});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->chunks, kChunks);
    if (mech == Mechanism::kInfinite) infinite = r->end_to_end_ns;
    EXPECT_GE(r->end_to_end_ns, gen.iterations[0].kernels[0].duration_ns) << mechanism_name(mech);
    if (mech != Mechanism::kInfinite) {
      EXPECT_DOUBLE_EQ(r->payload_bytes, double{kChunks} * kChunkBytes) << mechanism_name(mech);
    }
  }
  EXPECT_GT(infinite, 0);
}

}  // namespace
}  // namespace xferlab::sim
