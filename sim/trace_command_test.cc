// Tests for `xferlab trace` on generated traces: each tool's output, the
// checker's findings on a broken trace, determinism of the generator, and the
// Perfetto export validated against the Chrome trace-event format rules.
#include "sim/trace_command.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "common/number.h"
#include "traces/check.h"
#include "traces/generator.h"
#include "traces/reader.h"
#include "traces/writer.h"

namespace xferlab::sim {
namespace {

using namespace traces;

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

struct CmdResult {
  int code;
  std::string out, err;
};

CmdResult trace(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = run_trace(args, out, err);
  return CmdResult{code, out.str(), err.str()};
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class TraceCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = temp_path("gen.xft");
    CmdResult r = trace({"generate", path_, "--gpus", "3", "--chunks", "4", "--ctas", "16",
                         "--iterations", "2", "--seed", "42", "--mechanism", "memcpy"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  std::string path_;
};

TEST_F(TraceCommand, GenerateIsDeterministicAndLooksLikeProact) {
  const std::string again = temp_path("gen2.xft"), other = temp_path("gen3.xft");
  ASSERT_EQ(trace({"generate", again, "--gpus", "3", "--chunks", "4", "--ctas", "16",
                   "--iterations", "2", "--seed", "42", "--mechanism", "memcpy"})
                .code,
            0);
  ASSERT_EQ(trace({"generate", other, "--gpus", "3", "--chunks", "4", "--ctas", "16",
                   "--iterations", "2", "--seed", "43", "--mechanism", "memcpy"})
                .code,
            0);
  EXPECT_EQ(slurp(path_), slurp(again));
  EXPECT_NE(slurp(path_), slurp(other));

  Result<TraceReader> r = TraceReader::open(path_);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // 3 GPUs x 2 iterations: one kernel each; 16 CTAs; 4 chunks, each sent once.
  EXPECT_EQ(r->count(EventKind::kKernelBegin), 6u);
  EXPECT_EQ(r->count(EventKind::kCtaBegin), 96u);
  EXPECT_EQ(r->count(EventKind::kCounterDecrement), 96u);
  EXPECT_EQ(r->count(EventKind::kCounterZero), 24u);
  EXPECT_EQ(r->count(EventKind::kTransferEnd), 24u);
  EXPECT_EQ(r->count(EventKind::kFlagObserved), 24u);  // memcpy: host observes a flag.
  EXPECT_EQ(r->metadata().chunks.size(), 12u);
  EXPECT_EQ(r->metadata().parameter("mechanism").value_or(""), "memcpy");
  // Each chunk's transfer starts after its counter reached zero.
  std::map<uint32_t, uint64_t> zero_at;
  ASSERT_TRUE(r->for_each([&](const Event& e) {
                 if (e.kind == uint16_t(EventKind::kCounterZero)) zero_at[e.id] = e.time_ns;
                 if (e.kind == uint16_t(EventKind::kTransferBegin)) {
                   ASSERT_TRUE(zero_at.count(e.id));
                   EXPECT_GT(e.time_ns, zero_at[e.id]);
                 }
               }).ok());
}

TEST_F(TraceCommand, Info) {
  CmdResult r = trace({"info", path_});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("format:      " + std::to_string(kFormatMajor) + "." +
                       std::to_string(kFormatMinor)),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gpus:        3 x Synthetic GPU"), std::string::npos);
  EXPECT_NE(r.out.find("param:       mechanism = memcpy"), std::string::npos);
  EXPECT_NE(r.out.find("time span:"), std::string::npos);
  EXPECT_NE(r.out.find("cta_begin"), std::string::npos);
  CmdResult csv = trace({"info", path_, "--format", "csv"});
  ASSERT_EQ(csv.code, 0);
  EXPECT_NE(csv.out.find("kernel_begin,6"), std::string::npos) << csv.out;
}

// `trace compact`: codec-2 blocks, the same events (dump identical), in place
// or to -o; -o with several files is a usage error.
TEST_F(TraceCommand, Compact) {
  const std::string out = temp_path("gen_compact.xft");
  CmdResult c = trace({"compact", "--level", "3", "-o", out, path_});
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.out.find(out + ": "), 0u) << c.out;
  EXPECT_NE(c.out.find(" events, "), std::string::npos) << c.out;
  EXPECT_LT(slurp(out).size(), slurp(path_).size());
  EXPECT_EQ(trace({"dump", out, "--csv"}).out, trace({"dump", path_, "--csv"}).out);

  const std::string copy = temp_path("gen_copy.xft");
  std::ofstream(copy, std::ios::binary) << slurp(path_);
  CmdResult both = trace({"compact", copy, out});
  ASSERT_EQ(both.code, 0) << both.err;
  EXPECT_NE(both.out.find("total: 2 files, "), std::string::npos) << both.out;
  EXPECT_EQ(slurp(copy), slurp(out));

  CmdResult usage = trace({"compact", "-o", out, copy, path_});
  EXPECT_EQ(usage.code, 2);
  EXPECT_NE(usage.err.find("-o takes one FILE, got 2"), std::string::npos) << usage.err;
  CmdResult missing = trace({"compact", temp_path("no_such.xft")});
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.err.find("no_such.xft: cannot open"), std::string::npos) << missing.err;
}

TEST_F(TraceCommand, DumpFilters) {
  CmdResult all = trace({"dump", path_, "--csv"});
  ASSERT_EQ(all.code, 0) << all.err;
  Result<TraceReader> reader = TraceReader::open(path_);
  ASSERT_TRUE(reader.ok());
  const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_EQ(uint64_t(lines(all.out)), reader->num_events() + 1);  // + header.

  CmdResult kernels = trace({"dump", path_, "--kind", "kernel_end", "--gpu", "1"});
  ASSERT_EQ(kernels.code, 0);
  EXPECT_EQ(lines(kernels.out), 3);  // header + 2 iterations.
  EXPECT_NE(kernels.out.find("kernel=proact_producer grid=16 block=256"), std::string::npos)
      << kernels.out;

  CmdResult host =
      trace({"dump", path_, "--gpu", "host", "--kind", "flag_observed", "--limit", "5"});
  ASSERT_EQ(host.code, 0);
  EXPECT_EQ(lines(host.out), 6);

  // Time window [first + 10us, first + 30us): only events inside it.
  const uint64_t from = reader->min_time_ns() + 10'000, to = from + 20'000;
  CmdResult window = trace(
      {"dump", path_, "--from", std::to_string(from), "--to", std::to_string(to) + "ns", "--csv"});
  ASSERT_EQ(window.code, 0) << window.err;
  std::istringstream in(window.out);
  std::string line;
  std::getline(in, line);
  int n = 0;
  while (std::getline(in, line)) {
    const uint64_t t = parse_uint(line.substr(0, line.find(','))).value();
    EXPECT_GE(t, from);
    EXPECT_LT(t, to);
    ++n;
  }
  EXPECT_GT(n, 0);
}

TEST_F(TraceCommand, CheckPassesOnGeneratedTraces) {
  CmdResult r = trace({"check", path_});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 errors, 0 warnings"), std::string::npos) << r.out;
  for (const char* mech : {"inline", "polling", "cdp", "hardware_dma", "mpi", "proxy"}) {
    const std::string p = temp_path(std::string(mech) + ".xft");
    ASSERT_EQ(trace({"generate", p, "--mechanism", mech, "--compress"}).code, 0);
    CmdResult c = trace({"check", p});
    EXPECT_EQ(c.code, 0) << mech << ": " << c.out;
  }
}

TEST(TraceCheck, FindsSemanticErrors) {
  const std::string path = temp_path("bad_semantics.xft");
  GenerateOptions o;
  Metadata m = generated_metadata(o);
  TraceWriter w;
  ASSERT_TRUE(w.open(path, m).ok());
  const uint16_t kb = uint16_t(EventKind::kKernelBegin), ke = uint16_t(EventKind::kKernelEnd);
  const std::vector<Event> events = {
      {100, kb, 0, 0, 0, 0, 64, 256},                                     // #0
      {90, ke, 0, 0, 0, 0, 64, 256},                                      // #1 early
      {200, ke, 0, 1, 0, 0, 64, 256},                                     // #2 no begin
      {300, uint16_t(EventKind::kCounterDecrement), 0, 0, 0, 999, 0, 3},  // #3 chunk
      {300, uint16_t(EventKind::kCounterDecrement), 0, 0, 0, 0, 0, 50},   // #4 > writers
      {400, uint16_t(EventKind::kTransferBegin), 2, 0, 0, 7, 0b110, 64},  // #5
      {500, uint16_t(EventKind::kTransferEnd), 2, 0, 0, 7, 0b110, 32},    // #6 bytes
      {600, uint16_t(EventKind::kFlagSet), 0, 0, 0, 4242, 0, 1},          // #7 flag
      {700, uint16_t(EventKind::kCtaBegin), 16, 0, 3, 5, 0, 8},           // #8 never ends
  };
  ASSERT_TRUE(w.append(events.data(), events.size()).ok());
  ASSERT_TRUE(w.close().ok());
  Result<TraceReader> r = TraceReader::open(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Result<CheckReport> report = check_trace(*r);
  ASSERT_TRUE(report.ok());
  std::string all;
  for (const CheckIssue& i : report->issues) all += i.message + "\n";
  for (const char* expected : {
           "event #1: kernel_end at 90 ns on gpu 0 stream 0 is earlier than the previous (100 ns)",
           "event #1: kernel_end at 90 ns is before its begin (event #0, 100 ns)",
           "event #2: kernel_end on gpu 1 (id 0) without a matching begin",
           "event #3: counter_decrement refers to unknown chunk id 999",
           "event #4: counter of chunk 0 at 50 after a decrement, but the chunk has only 8 writers",
           "event #5: transfer destination gpu 2 is unknown",
           "event #6: transfer 7 ends with 32 bytes but began with 64",
           "event #7: flag_set refers to unknown flag id 4242",
           "event #8: cta_begin on gpu 0 (id 5) never ends",
       }) {
    EXPECT_NE(all.find(expected), std::string::npos) << expected << "\nin:\n" << all;
  }
  CmdResult cli = trace({"check", path});
  EXPECT_EQ(cli.code, 2);
}

// A recorder that ran out of buffer records "lost_events": its unmatched
// begins are warnings that say so, not errors.
TEST(TraceCheck, LostEventsTurnUnendedBeginsIntoWarnings) {
  const std::string path = temp_path("lost_events.xft");
  GenerateOptions o;
  Metadata m = generated_metadata(o);
  m.set_parameter("lost_events", "12");
  TraceWriter w;
  ASSERT_TRUE(w.open(path, m).ok());
  const Event begin{100, uint16_t(EventKind::kKernelBegin), 0, 0, 0, 0, 64, 256};
  ASSERT_TRUE(w.append(begin).ok());
  ASSERT_TRUE(w.close().ok());
  Result<TraceReader> r = TraceReader::open(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Result<CheckReport> report = check_trace(*r);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->errors, 0u);
  ASSERT_EQ(report->warnings, 1u);
  EXPECT_EQ(report->issues[0].message,
            "event #0: kernel_begin on gpu 0 (id 0) never ends (the trace lost 12 events)");
}

// validate_chrome_trace: the Chrome trace-event format rules the viewers
// rely on; returns the problems found.
std::vector<std::string> validate_chrome_trace(const nlohmann::json& j) {
  std::vector<std::string> problems;
  if (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array()) {
    return {"top level must be an object with a traceEvents array"};
  }
  std::map<std::pair<int64_t, int64_t>, std::vector<std::string>> open_b;
  std::map<uint64_t, std::pair<int, double>> flows;  // id -> (s count - f count, s ts)
  size_t index = 0;
  for (const auto& e : j["traceEvents"]) {
    const std::string at = "event " + std::to_string(index++) + ": ";
    for (const char* field : {"ph", "ts", "pid", "tid", "name"}) {
      if (!e.contains(field)) problems.push_back(at + "missing " + field);
    }
    if (!problems.empty()) break;
    if (!e["ph"].is_string() || !e["ts"].is_number() || !e["pid"].is_number_integer() ||
        !e["tid"].is_number_integer() || !e["name"].is_string()) {
      problems.push_back(at + "field of the wrong type");
      continue;
    }
    const std::string ph = e["ph"];
    const double ts = e["ts"];
    if (ts < 0) problems.push_back(at + "negative ts");
    const auto track = std::make_pair(e["pid"].get<int64_t>(), e["tid"].get<int64_t>());
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0) {
        problems.push_back(at + "X without a non-negative dur");
      }
    } else if (ph == "B") {
      open_b[track].push_back(e["name"]);
    } else if (ph == "E") {
      if (open_b[track].empty())
        problems.push_back(at + "E without B");
      else
        open_b[track].pop_back();
    } else if (ph == "s" || ph == "f") {
      if (!e.contains("id") || !e.contains("cat")) problems.push_back(at + "flow without id/cat");
      auto& f = flows[e["id"].get<uint64_t>()];
      if (ph == "s") {
        f.first++;
        f.second = ts;
      } else {
        f.first--;
        if (ts < f.second) problems.push_back(at + "flow ends before it starts");
        if (e.value("bp", "") != "e") problems.push_back(at + "flow end without bp=e");
      }
    } else if (ph == "M") {
      if (!e.contains("args")) problems.push_back(at + "metadata event without args");
    } else if (ph != "i" && ph != "I" && ph != "C") {
      problems.push_back(at + "unexpected phase " + ph);
    }
  }
  for (const auto& [track, names] : open_b) {
    if (!names.empty()) problems.push_back("B without E: " + names.back());
  }
  for (const auto& [id, f] : flows) {
    if (f.first != 0) problems.push_back("flow " + std::to_string(id) + " unpaired");
  }
  return problems;
}

TEST_F(TraceCommand, PerfettoExportIsValidChromeTraceJson) {
  const std::string out = temp_path("gen.json");
  CmdResult r = trace({"export", "--perfetto", path_, "-o", out});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(out));
  const std::vector<std::string> problems = validate_chrome_trace(j);
  EXPECT_TRUE(problems.empty()) << problems.front();
  // Tracks (traces/timeline_writer.h): per GPU its streams, SMs, copy lanes
  // and links; host threads; all in the group "measured".
  std::set<std::string> threads, processes;
  size_t flows = 0, link_slices = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"]);
    if (e["ph"] == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"]);
    if (e["ph"] == "f") ++flows;
    if (e["ph"] == "X" && e.value("cat", "") == "link") ++link_slices;
  }
  EXPECT_TRUE(processes.count("measured: GPU0")) << j.dump().substr(0, 500);
  EXPECT_TRUE(processes.count("measured: GPU1"));
  EXPECT_TRUE(processes.count("measured: host"));
  EXPECT_TRUE(threads.count("stream 0"));
  EXPECT_TRUE(threads.count("SM 0"));
  EXPECT_TRUE(threads.count("lane 0"));
  EXPECT_TRUE(threads.count("link -> GPU 1"));
  // The metadata block every timeline carries.
  const nlohmann::json& md = j["otherData"];
  EXPECT_EQ(md["trace_file"], path_);
  for (const char* key : {"producer", "platform", "mechanism", "xferlab_version", "time_origin"}) {
    EXPECT_TRUE(md.contains(key)) << key;
  }
  EXPECT_EQ(link_slices, 24u * 2);  // 24 transfers, 2 destinations each.
  // Flows: counter zero -> transfer (24), flag set -> observe (24), transfer -> links (48).
  EXPECT_EQ(flows, 24u + 24u + 48u);
}

TEST(TraceCommandUsage, OneLineErrorsExitTwo) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"inf"},
           {"dump"},
           {"dump", "x.xft", "--kind", "kernel_bgin"},
           {"dump", "x.xft", "--limt", "3"},
           {"export", "x.xft"},
           {"generate", "x.xft", "--mechanism", "pollin"},
           {"generate", "x.xft", "--gpus", "1025"},
           {"info", "/nonexistent.xft"},
       }) {
    CmdResult r = trace(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_NE(trace({"dump", "x", "--kind", "kernel_bgin"}).err.find("did you mean 'kernel_begin'"),
            std::string::npos);
  EXPECT_EQ(trace({"--help"}).code, 0);
}

}  // namespace
}  // namespace xferlab::sim
