// native/halo/gpu_sharing.h — decide_gpu_sharing: whether the ranks of one
// node may share its GPUs (rank r uses GPU r % GPUs). Every rank of a node
// decides the same from the same inputs, before any collective can wait.
// Plain C++ (tested without a GPU or MPI).
#pragma once

#include <string>

#include "common/result.h"

namespace xferlab::halo {

struct GpuSharingInput {
  int local_ranks = 1;            ///< ranks on this node.
  int gpus = 1;                   ///< GPUs visible on this node (> 0).
  std::string variant;            ///< --variant.
  bool occupies_gpu = false;      ///< the variant's kernel holds every SM (cooperative launch).
  bool share_gpus = true;         ///< --share-gpus.
  bool share_gpus_given = false;  ///< --share-gpus was on the command line.
};

// decide_gpu_sharing: the value is a warning to print once ("" for none);
// an error (usage) refuses the run:
//  - no more ranks than GPUs: fine;
//  - --share-gpus=false: refused;
//  - a variant that occupies the GPU (stacked: one cooperative kernel on all
//    SMs) shared by several ranks: the ranks' kernels take turns on the GPU
//    (2.5 s per iteration in issue #21; 2.56 ms at 50^3 on 1x H200, 96% of
//    it waiting, traces/real/2026-11-25_h200x1_robust), which measures
//    nothing the variant is for: refused unless --share-gpus is given explicitly, then a
//    warning;
//  - other variants share GPUs (kernels of several ranks run side by side).
Result<std::string> decide_gpu_sharing(const GpuSharingInput& in);

}  // namespace xferlab::halo
