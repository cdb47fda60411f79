// native/device_info.h — smoke kernel launcher (see device_info.cu).
#pragma once

#include <cuda_runtime.h>

namespace xferlab::native {

// launch_write_sm_id: d_out[b] = 1 + SM id of block b, for b < blocks.
void launch_write_sm_id(unsigned* d_out, int blocks, cudaStream_t stream);

}  // namespace xferlab::native
