// sim/simgrid_platform_test.cc — SimgridPlatform::send (a mailbox comm with a
// permanent receiver) moves bytes exactly as Comm::sendto does on the same
// route: the same set of contending transfers, sent once each way one after
// the other in one simulation, takes the same times.
#include "sim/simgrid_platform.h"

#include <gtest/gtest.h>

#include <simgrid/s4u.hpp>
#include <vector>

namespace xferlab::sim {
namespace {

namespace sg4 = simgrid::s4u;

// Four GPUs on a switch, two capped lanes per GPU: transfers contend on the
// lanes' cap links and on the source and destination ports.
Machine switch_machine() {
  Machine m;
  m.name = "test";
  m.num_gpus = 4;
  m.topology = Topology::kSwitch;
  m.gpu_link.kind = "test";
  m.gpu_link.bw_bytes_per_s = 1e9;
  m.gpu_link.latency_ns = 1000;
  m.switch_latency_ns = 100;
  return m;
}

struct Transfer {
  uint32_t src, lane, dst;
  uint64_t bytes;
  double start_s;
};

TEST(SimgridPlatform, SendTakesTheTimesOfSendto) {
  const std::vector<Transfer> transfers = {
      {0, 0, 1, 40000, 0},    {0, 1, 1, 20000, 0}, {0, 0, 2, 30000, 5e-6},  {1, 0, 2, 50000, 1e-6},
      {2, 1, 0, 10000, 2e-6}, {3, 0, 2, 60000, 0}, {3, 1, 1, 25000, 12e-6}, {0, 1, 3, 1, 3e-6},
  };
  sg4::Engine* engine = SimgridPlatform::create_engine();
  const SimgridPlatform p = SimgridPlatform::build(switch_machine(), SourceLanes{2, 0.4e9}, 272);
  std::vector<double> sendto_s, send_s, again_s;
  // Sends the set from `begin`, one actor per transfer; returns when all ended.
  auto run_set = [&](bool mailbox, double begin, std::vector<double>& took) {
    took.assign(transfers.size(), 0);
    std::vector<sg4::ActorPtr> actors;
    for (size_t i = 0; i < transfers.size(); ++i) {
      actors.push_back(sg4::Actor::create("t" + std::to_string(i), p.cpu(), [&, i, begin] {
        const Transfer& t = transfers[i];
        sg4::this_actor::sleep_until(begin + t.start_s);
        sg4::CommPtr c =
            mailbox ? p.send(t.src, t.lane, t.dst, t.bytes)
                    : sg4::Comm::sendto_async(p.source(t.src, t.lane), p.gpu(t.dst), t.bytes);
        c->wait();
        took[i] = sg4::Engine::get_clock() - (begin + t.start_s);
      }));
    }
    for (auto& a : actors) a->join();
  };
  sg4::Actor::create("main", p.cpu(), [&] {
    run_set(false, 0, sendto_s);
    run_set(true, 1.0, send_s);
    p.forget_delivered();
    run_set(true, 2.0, again_s);  // sends after forgetting flow the same
  });
  engine->run();
  ASSERT_EQ(send_s.size(), transfers.size());
  ASSERT_EQ(again_s.size(), transfers.size());
  for (size_t i = 0; i < transfers.size(); ++i) {
    EXPECT_GT(sendto_s[i], 1e-6) << "transfer " << i;
    EXPECT_NEAR(send_s[i], sendto_s[i], 1e-15) << "transfer " << i;
    EXPECT_NEAR(again_s[i], sendto_s[i], 1e-15) << "transfer " << i;
  }
}

}  // namespace
}  // namespace xferlab::sim
