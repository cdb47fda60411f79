// native/stream_memops.h — CUDA stream memory operations (cuStreamWriteValue32,
// cuStreamWaitValue32, cuStreamBatchMemOp) without linking libcuda: the entry points come from the
// runtime (cudaGetDriverEntryPointByVersion), so binaries stay portable.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/result.h"

namespace xferlab::native {

// StreamMemOps: driver entry points; errors are CUresult (check with
// stream_memop_status).
struct StreamMemOps {
  CUresult(CUDAAPI* write_value32)(CUstream, CUdeviceptr, cuuint32_t, unsigned int) = nullptr;
  CUresult(CUDAAPI* wait_value32)(CUstream, CUdeviceptr, cuuint32_t, unsigned int) = nullptr;
  CUresult(CUDAAPI* get_error_string)(CUresult, const char**) = nullptr;
  CUresult(CUDAAPI* batch_mem_op)(CUstream, unsigned int, CUstreamBatchMemOpParams*,
                                  unsigned int) = nullptr;

  // write32: enqueue "*addr = value" on `stream` (host-visible memory allowed).
  Status write32(cudaStream_t stream, const void* addr, uint32_t value) const;
  // write32_batch: enqueue "*addrs[i] = value" for i < count as one batch
  // (cuStreamBatchMemOp: one stream command instead of `count`).
  Status write32_batch(cudaStream_t stream, uint32_t* const* addrs, int count,
                       uint32_t value) const;
  // wait_geq32: enqueue "wait until (int32)(*addr - value) >= 0" on `stream`.
  Status wait_geq32(cudaStream_t stream, const void* addr, uint32_t value) const;
};

// load_stream_memops: runtime error naming the missing symbol when the driver
// does not provide them.
Result<StreamMemOps> load_stream_memops();

}  // namespace xferlab::native
