// native/halo/gpu_sharing_test.cc — ranks sharing GPUs: stacked (a
// cooperative kernel on every SM) is refused unless asked for (issue #21:
// 2.5 s per iteration without a word).
#include "native/halo/gpu_sharing.h"

#include <gtest/gtest.h>

namespace xferlab::halo {
namespace {

GpuSharingInput stacked(int ranks, int gpus) {
  GpuSharingInput in;
  in.local_ranks = ranks;
  in.gpus = gpus;
  in.variant = "stacked";
  in.occupies_gpu = true;
  return in;
}

TEST(GpuSharingTest, OneRankPerGpuIsFine) {
  for (bool occupies : {false, true}) {
    GpuSharingInput in = stacked(2, 2);
    in.occupies_gpu = occupies;
    Result<std::string> d = decide_gpu_sharing(in);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(*d, "");
  }
  EXPECT_EQ(*decide_gpu_sharing(stacked(1, 8)), "");
}

TEST(GpuSharingTest, StackedSharingIsRefusedByDefault) {
  const Result<std::string> d = decide_gpu_sharing(stacked(4, 2));
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(d.error().usage);
  EXPECT_EQ(d.error().message,
            "--variant stacked: 4 ranks on this node share 2 GPUs, but its cooperative kernel "
            "holds every SM, so ranks on one GPU would take turns instead of overlapping; run "
            "at most 2 rank(s) per node, or pass --share-gpus to run anyway");
}

TEST(GpuSharingTest, ExplicitShareGpusRunsWithAWarning) {
  GpuSharingInput in = stacked(2, 1);
  in.share_gpus_given = true;
  const Result<std::string> d = decide_gpu_sharing(in);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d,
            "warning: --variant stacked: 2 ranks on this node share 1 GPU (--share-gpus): their "
            "cooperative kernels take turns on each GPU; the times are not those of one rank "
            "per GPU");
}

TEST(GpuSharingTest, OtherVariantsShareSilently) {
  GpuSharingInput in = stacked(8, 2);
  in.variant = "stream";
  in.occupies_gpu = false;
  const Result<std::string> d = decide_gpu_sharing(in);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, "");
}

TEST(GpuSharingTest, ShareGpusFalseRefusesEveryVariant) {
  for (bool occupies : {false, true}) {
    GpuSharingInput in = stacked(3, 2);
    in.occupies_gpu = occupies;
    in.share_gpus = false;
    in.share_gpus_given = true;
    const Result<std::string> d = decide_gpu_sharing(in);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().message, "3 ranks on this node share 2 GPUs (--share-gpus=false)");
  }
}

}  // namespace
}  // namespace xferlab::halo
