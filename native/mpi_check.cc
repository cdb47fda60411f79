// native/mpi_check.cc — MPI failure reporting and launcher detection.
#include "native/mpi_check.h"

#include <cstdio>
#include <cstdlib>

namespace xferlab::native {

void mpi_fail(int err, const char* expr, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(err, text, &len) != MPI_SUCCESS) std::snprintf(text, sizeof(text), "?");
  std::fprintf(stderr, "MPI error: %s failed at %s:%d: %s (code %d)\n", expr, file, line, text,
               err);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

bool launched_by_mpirun() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_NTASKS"})
    if (std::getenv(var) != nullptr) return true;
  return false;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return "";
  std::string s(text, static_cast<size_t>(len));
  const auto eol = s.find_first_of("\r\n,");
  return eol == std::string::npos ? s : s.substr(0, eol);
}

}  // namespace xferlab::native
