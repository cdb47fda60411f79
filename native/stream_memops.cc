// native/stream_memops.cc — driver entry points for stream memory operations.
#include "native/stream_memops.h"

#include <string>
#include <vector>

namespace xferlab::native {
namespace {

template <typename F>
Status load(const char* symbol, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t err =
      cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &found);
  if (err != cudaSuccess || found != cudaDriverEntryPointSuccess || p == nullptr) {
    cudaGetLastError();
    return make_runtime_error(std::string("driver entry point ") + symbol +
                              " not available: " + cudaGetErrorString(err));
  }
  fn = reinterpret_cast<F>(p);
  return Status::Ok();
}

Status check(const StreamMemOps& ops, CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return Status::Ok();
  const char* text = "unknown error";
  if (ops.get_error_string) ops.get_error_string(r, &text);
  return make_runtime_error(std::string(what) + " failed: " + text + " (CUresult " +
                            std::to_string(static_cast<int>(r)) + ")");
}

}  // namespace

Status StreamMemOps::write32(cudaStream_t stream, const void* addr, uint32_t value) const {
  return check(
      *this,
      write_value32(reinterpret_cast<CUstream>(stream), reinterpret_cast<CUdeviceptr>(addr), value,
                    CU_STREAM_WRITE_VALUE_DEFAULT),
      "cuStreamWriteValue32");
}

Status StreamMemOps::write32_batch(cudaStream_t stream, uint32_t* const* addrs, int count,
                                   uint32_t value) const {
  std::vector<CUstreamBatchMemOpParams> ops(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    ops[i] = {};
    ops[i].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    ops[i].writeValue.address = reinterpret_cast<CUdeviceptr>(addrs[i]);
    ops[i].writeValue.value = value;
    ops[i].writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
  }
  return check(*this,
               batch_mem_op(reinterpret_cast<CUstream>(stream), static_cast<unsigned int>(count),
                            ops.data(), 0),
               "cuStreamBatchMemOp");
}

Status StreamMemOps::wait_geq32(cudaStream_t stream, const void* addr, uint32_t value) const {
  return check(*this,
               wait_value32(reinterpret_cast<CUstream>(stream), reinterpret_cast<CUdeviceptr>(addr),
                            value, CU_STREAM_WAIT_VALUE_GEQ),
               "cuStreamWaitValue32");
}

Result<StreamMemOps> load_stream_memops() {
  StreamMemOps ops;
  XF_RETURN_IF_ERROR(load("cuStreamWriteValue32", ops.write_value32));
  XF_RETURN_IF_ERROR(load("cuStreamWaitValue32", ops.wait_value32));
  XF_RETURN_IF_ERROR(load("cuGetErrorString", ops.get_error_string));
  XF_RETURN_IF_ERROR(load("cuStreamBatchMemOp", ops.batch_mem_op));
  return ops;
}

}  // namespace xferlab::native
