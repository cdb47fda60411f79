#!/usr/bin/env bash
# Runs a native program on a GPU machine that has Bazel and passes when it
# exits 0: every native program verifies the data it moved and exits non-zero
# on a mismatch, a timeout or a CUDA/MPI error. With MPI_RANKS=N set by the
# test, the program runs under `mpirun -np N`.
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
if [ -n "${MPI_RANKS:-}" ]; then
  exec timeout 300 mpirun --allow-run-as-root --oversubscribe -np "$MPI_RANKS" "$@"
fi
exec timeout 300 "$@"
