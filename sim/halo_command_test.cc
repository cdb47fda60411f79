// sim/halo_command_test.cc — the halo replay request: a choice field outside
// its flag's values is an error naming the field, never a fallback.
#include "sim/halo_command.h"

#include <gtest/gtest.h>

#include <string>

namespace xferlab::sim {
namespace {

TEST(HaloCommand, ChoiceFieldOutsideItsValuesIsAnErrorNamingIt) {
  struct Case {
    std::string HaloReplayRequest::*field;
    const char* message;
  };
  const Case cases[] = {
      {&HaloReplayRequest::model, "halo replay: model 'bogus': expected one of replay, kmodel"},
      {&HaloReplayRequest::mode,
       "halo replay: mode 'bogus': expected one of measured, hw-doorbell, nic"},
      {&HaloReplayRequest::graph, "halo replay: graph 'bogus': expected one of reduced, fine"},
      {&HaloReplayRequest::scaling, "halo replay: scaling 'bogus': expected one of strong, weak"},
  };
  for (const Case& c : cases) {
    HaloReplayRequest req;
    req.trace = "no_such_trace.xft.zst";  // checked after the choices
    req.*c.field = "bogus";
    const Status checked = check_halo_request(req);
    ASSERT_FALSE(checked.ok()) << c.message;
    EXPECT_EQ(checked.error().message, c.message);
    EXPECT_TRUE(checked.error().usage);
    const Result<HaloReplayOutput> replayed = halo_replay(req);
    ASSERT_FALSE(replayed.ok()) << c.message;
    EXPECT_EQ(replayed.error().message, c.message);
  }
}

}  // namespace
}  // namespace xferlab::sim
