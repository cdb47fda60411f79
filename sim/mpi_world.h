// sim/mpi_world.h — MpiWorld: the MPI job an `xferlab` process was started
// in by mpirun or srun, for `xferlab sweep` across ranks.
//
// Open MPI's libmpi is loaded with dlopen only when the environment says an
// MPI launcher started this process with more than one rank, so a plain
// `xferlab` run neither links, loads nor initializes MPI (no start-up cost,
// no MPI needed at run time).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/result.h"

namespace xferlab::sim {

class MpiWorld {
 public:
  // join_if_launched: nullptr when not started by an MPI launcher with >1
  // rank; an error when started by one but Open MPI's libmpi.so.40 cannot be
  // loaded ($XFERLAB_LIBMPI names another file). Calls MPI_Init.
  static Result<std::unique_ptr<MpiWorld>> join_if_launched();

  // launched_size: the rank count the launcher's environment announces
  // (Open MPI's mpirun, PMIx or PMI as used by srun), 0 if none.
  static int launched_size();

  ~MpiWorld();  ///< MPI_Finalize.

  int rank() const { return rank_; }
  int size() const { return size_; }

  // gather: every rank's bytes, in rank order, at rank 0 (empty elsewhere).
  Result<std::vector<std::string>> gather(const std::string& mine);

  // abort: ends every rank with `code` (a rank that fails alone must not
  // leave the others waiting in gather).
  [[noreturn]] void abort(int code);

  struct Api;  ///< the libmpi entry points (mpi_world.cc).

 private:
  MpiWorld(std::unique_ptr<Api> api, int rank, int size);
  std::unique_ptr<Api> api_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace xferlab::sim
