// native/mpi_check.h — MPI error checking and start-up checks for native MPI
// programs (link //native:mpi_check; non-MPI programs do not).
//
// XF_MPI_CHECK(expr) prints the expression, file:line and MPI's error string
// on one line and aborts the job (MPI_Abort), like XF_CUDA_CHECK.
#pragma once

#include <mpi.h>

#include <string>

namespace xferlab::native {

[[noreturn]] void mpi_fail(int err, const char* expr, const char* file, int line);

// launched_by_mpirun: true when the MPI launcher's environment is present
// (Open MPI OMPI_COMM_WORLD_SIZE, PMI/PMIx, Slurm). Call before MPI_Init so a
// program started without mpirun can print one clear line and exit 1.
bool launched_by_mpirun();

// mpi_library_version: MPI_Get_library_version's text, first line only.
std::string mpi_library_version();

}  // namespace xferlab::native

#define XF_MPI_CHECK(expr)                                                 \
  do {                                                                     \
    int xf_mpi_err_ = (expr);                                              \
    if (xf_mpi_err_ != MPI_SUCCESS)                                        \
      ::xferlab::native::mpi_fail(xf_mpi_err_, #expr, __FILE__, __LINE__); \
  } while (0)
