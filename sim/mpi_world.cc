// sim/mpi_world.cc — MpiWorld over a dlopen'ed Open MPI (mpi_world.h).
//
// Open MPI's handles (MPI_Comm, MPI_Datatype) are pointers to predefined
// objects exported by libmpi (MPI_COMM_WORLD is &ompi_mpi_comm_world), so
// the few calls needed are resolved by name without mpi.h. Tied to Open
// MPI's ABI (libmpi.so.40, Debian's libopenmpi3), the MPI this project uses.
#include "sim/mpi_world.h"

#include <dlfcn.h>

#include <cstdlib>
#include <numeric>

#include "common/number.h"

namespace xferlab::sim {

struct MpiWorld::Api {
  using Handle = void*;
  void* lib = nullptr;
  Handle comm_world = nullptr;
  Handle byte_type = nullptr;
  Handle int_type = nullptr;
  int (*init)(int*, char***) = nullptr;
  int (*finalize)() = nullptr;
  int (*comm_rank)(Handle, int*) = nullptr;
  int (*comm_size)(Handle, int*) = nullptr;
  int (*gather)(const void*, int, Handle, void*, int, Handle, int, Handle) = nullptr;
  int (*gatherv)(const void*, int, Handle, void*, const int*, const int*, Handle, int,
                 Handle) = nullptr;
  int (*abort)(Handle, int) = nullptr;
};

namespace {

template <typename F>
bool resolve(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(::dlsym(lib, name));
  return out != nullptr;
}

// env_count: an environment variable holding a count; 0 if unset or not a count.
int env_count(const char* var) {
  const char* v = std::getenv(var);
  const Result<int64_t> n = v ? parse_int(v) : Result<int64_t>(int64_t{0});
  return n.ok() && *n > 0 && *n < (int64_t{1} << 31) ? static_cast<int>(*n) : 0;
}

}  // namespace

int MpiWorld::launched_size() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"}) {
    if (std::getenv(var) != nullptr) return env_count(var);
  }
  // srun with PMIx exports the rank but not always the size.
  if (std::getenv("PMIX_RANK") != nullptr) {
    return env_count("SLURM_NTASKS");
  }
  return 0;
}

Result<std::unique_ptr<MpiWorld>> MpiWorld::join_if_launched() {
  if (launched_size() <= 1) return std::unique_ptr<MpiWorld>();
  const char* env = std::getenv("XFERLAB_LIBMPI");
  const std::string path = env ? env : "libmpi.so.40";
  auto api = std::make_unique<Api>();
  // RTLD_GLOBAL: Open MPI's plugins resolve libmpi's symbols from the global scope.
  api->lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (api->lib == nullptr) {
    return make_runtime_error("sweep: started by an MPI launcher, but cannot load Open MPI (" +
                              path + "): " + ::dlerror() +
                              " (install libopenmpi3 or set XFERLAB_LIBMPI)");
  }
  api->comm_world = ::dlsym(api->lib, "ompi_mpi_comm_world");
  api->byte_type = ::dlsym(api->lib, "ompi_mpi_byte");
  api->int_type = ::dlsym(api->lib, "ompi_mpi_int");
  const bool ok = api->comm_world && api->byte_type && api->int_type &&
                  resolve(api->lib, "MPI_Init", api->init) &&
                  resolve(api->lib, "MPI_Finalize", api->finalize) &&
                  resolve(api->lib, "MPI_Comm_rank", api->comm_rank) &&
                  resolve(api->lib, "MPI_Comm_size", api->comm_size) &&
                  resolve(api->lib, "MPI_Gather", api->gather) &&
                  resolve(api->lib, "MPI_Gatherv", api->gatherv) &&
                  resolve(api->lib, "MPI_Abort", api->abort);
  if (!ok) {
    return make_runtime_error("sweep: " + path +
                              " is not Open MPI's libmpi (needs ompi_mpi_comm_world, MPI_Gatherv)");
  }
  if (api->init(nullptr, nullptr) != 0) return make_runtime_error("sweep: MPI_Init failed");
  int rank = 0, size = 1;
  api->comm_rank(api->comm_world, &rank);
  api->comm_size(api->comm_world, &size);
  return std::unique_ptr<MpiWorld>(new MpiWorld(std::move(api), rank, size));
}

MpiWorld::MpiWorld(std::unique_ptr<Api> api, int rank, int size)
    : api_(std::move(api)), rank_(rank), size_(size) {}

MpiWorld::~MpiWorld() {
  api_->finalize();
}

Result<std::vector<std::string>> MpiWorld::gather(const std::string& mine) {
  const int n = static_cast<int>(mine.size());
  std::vector<int> sizes(rank_ == 0 ? size_ : 0);
  if (api_->gather(&n, 1, api_->int_type, sizes.data(), 1, api_->int_type, 0, api_->comm_world) !=
      0) {
    return make_runtime_error("sweep: MPI_Gather failed");
  }
  std::vector<int> offsets(sizes.size());
  if (!sizes.empty()) std::exclusive_scan(sizes.begin(), sizes.end(), offsets.begin(), 0);
  std::string all(rank_ == 0 ? static_cast<size_t>(offsets.back() + sizes.back()) : 0, '\0');
  if (api_->gatherv(mine.data(), n, api_->byte_type, all.data(), sizes.data(), offsets.data(),
                    api_->byte_type, 0, api_->comm_world) != 0) {
    return make_runtime_error("sweep: MPI_Gatherv failed");
  }
  std::vector<std::string> parts;
  for (size_t r = 0; r < sizes.size(); ++r) parts.push_back(all.substr(offsets[r], sizes[r]));
  return parts;
}

void MpiWorld::abort(int code) {
  api_->abort(api_->comm_world, code);
  std::_Exit(code);
}

}  // namespace xferlab::sim
