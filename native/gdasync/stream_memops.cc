// native/gdasync/stream_memops.cc — driver entry points for stream memory operations.
#include "native/gdasync/stream_memops.h"

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "native/cuda_check.h"

namespace xferlab::gdasync {
namespace {

using BatchFn = CUresult (*)(CUstream, unsigned int, CUstreamBatchMemOpParams*, unsigned int);
using WaitFn = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

void* entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q{};
  // 11070: the _v2 stream memory operations (always available since CUDA 12).
  XF_CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 11070, cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || fn == nullptr) {
    std::fprintf(stderr, "gdasync: driver entry point %s not available (query result %d)\n", name,
                 static_cast<int>(q));
    std::exit(1);
  }
  return fn;
}

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  std::fprintf(stderr, "gdasync: %s failed: CUresult %d\n", what, static_cast<int>(r));
  std::exit(1);
}

}  // namespace

const StreamMemOps& StreamMemOps::load() {
  static const StreamMemOps ops = [] {
    StreamMemOps o;
    o.batch_ = entry("cuStreamBatchMemOp");
    o.wait_ = entry("cuStreamWaitValue32");
    return o;
  }();
  return ops;
}

void StreamMemOps::write_values(cudaStream_t stream, uint32_t* const* addrs, int count,
                                uint32_t value) const {
  std::vector<CUstreamBatchMemOpParams> ops(count);
  for (int i = 0; i < count; ++i) {
    ops[i] = {};
    ops[i].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    ops[i].writeValue.address = reinterpret_cast<CUdeviceptr>(addrs[i]);
    ops[i].writeValue.value = value;
    ops[i].writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
  }
  check(reinterpret_cast<BatchFn>(batch_)(reinterpret_cast<CUstream>(stream), count, ops.data(), 0),
        "cuStreamBatchMemOp (doorbells)");
}

void StreamMemOps::wait_geq(cudaStream_t stream, const uint32_t* addr, uint32_t value) const {
  check(reinterpret_cast<WaitFn>(wait_)(reinterpret_cast<CUstream>(stream),
                                        reinterpret_cast<CUdeviceptr>(addr), value,
                                        CU_STREAM_WAIT_VALUE_GEQ),
        "cuStreamWaitValue32");
}

}  // namespace xferlab::gdasync
