// native/halo/gpu_sharing.cc — see gpu_sharing.h.
#include "native/halo/gpu_sharing.h"

namespace xferlab::halo {

Result<std::string> decide_gpu_sharing(const GpuSharingInput& in) {
  if (in.local_ranks <= in.gpus) return std::string();
  const std::string counts = std::to_string(in.local_ranks) + " ranks on this node share " +
                             std::to_string(in.gpus) + " GPU" + (in.gpus == 1 ? "" : "s");
  if (!in.share_gpus) return make_error(counts + " (--share-gpus=false)");
  if (!in.occupies_gpu) return std::string();
  if (!in.share_gpus_given) {
    return make_error("--variant " + in.variant + ": " + counts +
                      ", but its cooperative kernel holds every SM, so ranks on one GPU would "
                      "take turns instead of overlapping; run at most " +
                      std::to_string(in.gpus) +
                      " rank(s) per node, or pass --share-gpus to "
                      "run anyway");
  }
  return "warning: --variant " + in.variant + ": " + counts +
         " (--share-gpus): their cooperative kernels take turns on each GPU; the times are "
         "not those of one rank per GPU";
}

}  // namespace xferlab::halo
