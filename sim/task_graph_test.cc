// sim/task_graph_test.cc — TaskGraph on SimGrid: sharing, latencies, links, cycles.
#include "sim/task_graph.h"

#include <gtest/gtest.h>

namespace xferlab::sim {
namespace {

TEST(TaskGraph, SharesCoresAddsLatenciesAndMovesBytes) {
  TaskGraph g;
  const uint32_t cpu = g.add_executor("cpu", 1);
  const uint32_t gpu = g.add_executor("gpu", 4);
  const uint32_t a = g.add_endpoint(), b = g.add_endpoint();
  const uint32_t link = g.add_link("l", 1e9, 100);  // 1 B/ns, 100 ns
  const uint32_t route = g.add_route(a, b, {link});
  // Two 100 ns tasks on one core share it: both end at 200 ns.
  const uint32_t w1 = g.work(cpu, 100), w2 = g.work(cpu, 100);
  // Four on four cores do not.
  std::vector<uint32_t> k;
  for (int i = 0; i < 4; ++i) k.push_back(g.work(gpu, 100));
  const uint32_t d = g.delay(cpu, 50);  // after both: 250 ns
  g.after(d, w1);
  g.after(d, w2);
  const uint32_t t = g.transfer(route, 1000);  // 100 ns + 1000 B at 1 B/ns
  g.after(t, d);
  g.after(t, d);  // stated twice: still one dependency
  Result<TaskTimes> r = run_task_graph_isolated(g);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NEAR(r->end_ns[w1], 200, 1e-3);
  EXPECT_NEAR(r->end_ns[w2], 200, 1e-3);
  for (uint32_t i : k) EXPECT_NEAR(r->end_ns[i], 100, 1e-3);
  EXPECT_NEAR(r->start_ns[d], 200, 1e-3);
  EXPECT_NEAR(r->end_ns[d], 250, 1e-3);
  EXPECT_NEAR(r->end_ns[t], 1350, 1e-3);
  EXPECT_NEAR(r->makespan_ns, 1350, 1e-3);
}

TEST(TaskGraph, TransfersShareALink) {
  TaskGraph g;
  g.add_executor("x", 1);
  const uint32_t a = g.add_endpoint(), b = g.add_endpoint(), c = g.add_endpoint();
  const uint32_t shared = g.add_link("shared", 1e9, 0);
  const uint32_t t1 = g.transfer(g.add_route(a, b, {shared}), 1000);
  const uint32_t t2 = g.transfer(g.add_route(a, c, {shared}), 1000);
  Result<TaskTimes> r = run_task_graph_isolated(g);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NEAR(r->end_ns[t1], 2000, 1e-3);
  EXPECT_NEAR(r->end_ns[t2], 2000, 1e-3);
}

TEST(TaskGraph, RejectsCyclesAndBadAmounts) {
  TaskGraph g;
  const uint32_t e = g.add_executor("x", 1);
  const uint32_t a = g.work(e, 1), b = g.work(e, 1);
  g.after(a, b);
  g.after(b, a);
  EXPECT_NE(g.validate().error().message.find("cycle"), std::string::npos);
  TaskGraph h;
  h.work(h.add_executor("x", 1), -1);
  EXPECT_FALSE(h.validate().ok());
}

}  // namespace
}  // namespace xferlab::sim
