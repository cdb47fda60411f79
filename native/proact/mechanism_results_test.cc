// native/proact/mechanism_results_test.cc — mechanism names, derived metrics,
// result CSV columns and the profiler's choice file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "native/proact/mechanism.h"
#include "native/proact/results.h"

namespace xferlab::proact {
namespace {

TEST(Mechanism, NamesRoundTrip) {
  for (Mechanism m : all_mechanisms()) EXPECT_EQ(*parse_mechanism(mechanism_name(m)), m);
  Result<Mechanism> bad = parse_mechanism("poling");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("did you mean 'polling'"), std::string::npos);
  EXPECT_EQ(parse_mechanism_list("all")->size(), all_mechanisms().size());
  EXPECT_EQ(parse_mechanism_list("cdp,inline")->at(1), Mechanism::kInline);
  EXPECT_FALSE(parse_mechanism_list("cdp,bogus").ok());
  EXPECT_TRUE(uses_tracking(Mechanism::kCdp));
  EXPECT_FALSE(uses_tracking(Mechanism::kInline));
  EXPECT_EQ(trace_mechanism(Mechanism::kPollingTma), traces::TransferMechanism::kPollingTma);
}

TEST(Results, DerivedMetrics) {
  Baselines b{40.0, 20.0, 10.0, 10.5};
  ResultRow r;
  r.gpus = 2;
  r.mechanism = Mechanism::kPolling;
  r.time_ms = 12.5;
  derive(b, r);
  EXPECT_DOUBLE_EQ(r.speedup_vs_1gpu, 3.2);
  EXPECT_DOUBLE_EQ(r.speedup_vs_memcpy, 1.6);
  EXPECT_DOUBLE_EQ(r.frac_inf_bw, 0.8);
  EXPECT_NEAR(r.tracking_overhead, 0.05, 1e-12);
  EXPECT_DOUBLE_EQ(r.overlap, 1.0 - 2.0 / 10.0);  // exposed 12.5 - 10.5 of a 10 ms copy.
  ResultRow inl;
  inl.gpus = 2;
  inl.mechanism = Mechanism::kInline;
  inl.time_ms = 15;
  derive(b, inl);
  EXPECT_TRUE(std::isnan(inl.tracking_overhead));
  EXPECT_DOUBLE_EQ(inl.overlap, 0.5);
  ResultRow one;
  one.gpus = 1;
  one.mechanism = Mechanism::kTrack;
  one.time_ms = 40;
  derive(Baselines{40.0, 0, 0, 0}, one);
  EXPECT_TRUE(std::isnan(one.speedup_vs_memcpy));
  EXPECT_TRUE(std::isnan(one.overlap));
}

TEST(Results, CsvHasOneLinePerRowAndTheDocumentedHeader) {
  ResultRow r;
  r.workload = "micro";
  r.gpus = 2;
  r.mechanism = Mechanism::kCdp;
  r.chunk_bytes = 65536;
  r.threads = 256;
  r.time_ms = 1.25;
  r.verified = Verified::kYes;
  r.check = "all 2 GPUs identical; cpu exact";
  ResultRow none = r;
  none.mechanism = Mechanism::kNone;
  none.verified = Verified::kNotApplicable;
  std::ostringstream out;
  results_table({r, none}).write_csv(out);
  std::istringstream in(out.str());
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header,
            "workload,gpus,mechanism,chunk_bytes,threads,time_ms,time_p10_ms,time_p90_ms,"
            "speedup_vs_1gpu,speedup_vs_memcpy,frac_inf_bw,overlap,tracking_overhead,verified,"
            "check,trace");
  std::getline(in, line);
  EXPECT_EQ(line.rfind("micro,2,cdp,65536,256,1.25,", 0), 0u) << line;
  EXPECT_NE(line.find(",yes,"), std::string::npos);
  std::getline(in, line);  // no transfer: nothing to verify, and the table says so.
  EXPECT_NE(line.find(",n/a,"), std::string::npos) << line;
}

TEST(Results, PickBestIgnoresBaselinesAndUnverified) {
  auto row = [](Mechanism m, double t, bool ok) {
    ResultRow r;
    r.workload = "pagerank";
    r.gpus = 2;
    r.mechanism = m;
    r.chunk_bytes = 1 << 20;
    r.threads = 512;
    r.time_ms = t;
    r.verified = ok ? Verified::kYes : Verified::kNo;
    return r;
  };
  std::optional<ProfileChoice> best =
      pick_best({row(Mechanism::kMemcpy, 1, true), row(Mechanism::kNone, 0.5, true),
                 row(Mechanism::kPolling, 3, true), row(Mechanism::kCdp, 2, false),
                 row(Mechanism::kInline, 4, true)});
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->mechanism, Mechanism::kPolling);
  EXPECT_FALSE(pick_best({row(Mechanism::kMemcpy, 1, true)}).has_value());
}

TEST(Results, ChoiceFileRoundTripAndErrors) {
  const std::string path = ::testing::TempDir() + "/choices.csv";
  std::remove(path.c_str());
  ASSERT_TRUE(write_choices(path, {{"micro", 2, Mechanism::kPolling, 65536, 1024, 0.8}}).ok());
  ASSERT_TRUE(write_choices(path, {{"sssp", 2, Mechanism::kCdp, 4096, 256, 3},
                                   {"micro", 2, Mechanism::kInline, 4096, 32, 0.7}})
                  .ok());
  Result<std::vector<ProfileChoice>> c = read_choices(path);
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->size(), 2u);
  Result<ProfileChoice> micro = find_choice(*c, "micro", 2, path);
  ASSERT_TRUE(micro.ok());
  EXPECT_EQ(micro->mechanism, Mechanism::kInline);
  EXPECT_FALSE(find_choice(*c, "micro", 4, path).ok());
  const std::string header = "workload,gpus,mechanism,chunk_bytes,threads,time_ms\n";
  Result<std::vector<ProfileChoice>> bad =
      parse_choices(header + "micro,2,polling,64k,1024,1\n", "f.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "f.csv:2: column 'chunk_bytes': '64k' is not a non-negative integer");
  EXPECT_FALSE(parse_choices(header + "micro,2,pollin,65536,1024,1\n", "f.csv").ok());
  EXPECT_FALSE(parse_choices(header + "micro,2,polling\n", "f.csv").ok());
  EXPECT_FALSE(parse_choices("micro,2,polling,65536,1024,1\n", "f.csv").ok());  // no header
}

}  // namespace
}  // namespace xferlab::proact
