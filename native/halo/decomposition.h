// native/halo/decomposition.h — Decomposition: how a global periodic cube is
// split over MPI ranks and which messages each rank exchanges (Comb's layout).
//
// Pure C++ (no CUDA, no MPI) so that CI checks the geometry and the paper's
// message sizes without a GPU. Ranks are numbered x fastest over the process
// grid; every rank owns an n[0] x n[1] x n[2] block plus kGhostWidth ghost
// layers. Neighbours are periodic, so every rank has all 26 (or 6) logical
// neighbours even on 1 or 2 ranks: a neighbour that is the same rank is still a
// separate message, matched by its tag (the direction it was sent towards).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "native/halo/halo_geometry.h"

namespace xferlab::halo {

using Int3 = std::array<int, 3>;

// Pattern: which neighbours exchange data.
enum class Pattern {
  k27Point,  ///< faces, edges and corners: 26 messages (Comb, the paper).
  k7Point,   ///< faces only: 6 messages (HPGMG-like box boundary exchange).
};

// MessageKind: geometry class of a message, by how many axes it crosses.
enum class MessageKind { kFace, kEdge, kCorner };
const char* message_kind_name(MessageKind kind);

// DecompositionSpec: what the user asked for. Exactly one of global_cells and
// per_rank_cells is set; procs is derived from the rank count when absent.
struct DecompositionSpec {
  std::optional<Int3> global_cells;    ///< whole periodic cube (--global).
  std::optional<Int3> per_rank_cells;  ///< each rank's block (--per-rank, --paper).
  std::optional<Int3> procs;           ///< process grid (--procs).
  int vars = 3;                        ///< doubles per cell (Comb -vars).
  Pattern pattern = Pattern::k27Point;
};

// Message: one logical message of one rank.
struct Message {
  int direction;  ///< direction_index(d) of the neighbour.
  Int3 offset;    ///< d in {-1,0,1}^3.
  MessageKind kind;
  int peer;                     ///< neighbour rank (may equal this rank).
  int send_tag;                 ///< tag of the message this rank sends towards d.
  int recv_tag;                 ///< tag of the message arriving from d (sent towards -d).
  Box send_box;                 ///< owned cells the neighbour needs.
  Box recv_box;                 ///< ghost cells this rank receives.
  int64_t bytes;                ///< vars * volume * sizeof(double).
  int64_t send_offset_doubles;  ///< position in the send buffer.
  int64_t recv_offset_doubles;  ///< position in the receive buffer.
};

// Decomposition: the validated geometry of one run, for every rank.
class Decomposition {
 public:
  // make: validates `spec` for `num_ranks` ranks. Errors (one line): ranks that
  // do not fit the process grid, sizes not divisible by it, blocks too small for
  // the ghost width, non-positive values.
  static Result<Decomposition> make(const DecompositionSpec& spec, int num_ranks);

  int num_ranks() const { return num_ranks_; }
  const Int3& procs() const { return procs_; }
  const Int3& global_cells() const { return global_; }
  const Int3& per_rank_cells() const { return n_; }
  int vars() const { return vars_; }
  Pattern pattern() const { return pattern_; }
  FieldLayout layout() const { return FieldLayout{{n_[0], n_[1], n_[2]}, kGhostWidth, vars_}; }

  // rank_coords / rank_of: position of a rank in the process grid (x fastest).
  Int3 rank_coords(int rank) const;
  int rank_of(const Int3& coords) const;  ///< coords are wrapped periodically.
  // neighbour: the rank in direction d (periodic).
  int neighbour(int rank, const Int3& d) const;

  // messages: the messages of `rank` in direction-index order, with buffer
  // offsets (send and receive buffers laid out message after message).
  std::vector<Message> messages(int rank) const;
  // buffer_doubles: size of the send (= receive) buffer of any rank.
  int64_t buffer_doubles() const;

  // global_of: global coordinate of local cell index c on `axis` (ghosts wrap).
  int64_t global_of(int rank, int axis, int c) const;

  // origin: the kernels' view of where `rank` sits in the global cube.
  RankOrigin origin(int rank) const;

  // describe: "global 200x200x200, procs 4x4x4, per-rank 50x50x50, vars 3, 27-point".
  std::string describe() const;

 private:
  int num_ranks_ = 0;
  Int3 procs_{};
  Int3 global_{};
  Int3 n_{};
  int vars_ = 0;
  Pattern pattern_ = Pattern::k27Point;
};

// balanced_grid: a factorisation of `num_ranks` into 3 factors, as even as
// possible, larger factors first (like MPI_Dims_create): 2 -> 2x1x1, 8 -> 2x2x2.
Int3 balanced_grid(int num_ranks);

// parse_int3: "50" -> {50,50,50}; "50,60,70" -> {50,60,70}. `what` names the flag.
Result<Int3> parse_int3(const std::string& text, const std::string& what);

// paper_per_rank_cells: the paper's sizes by name: "200" | "400" | "800" (global
// cube split 4x4x4) -> per-rank 50^3 / 100^3 / 200^3.
Result<Int3> paper_per_rank_cells(const std::string& name);

// pack_reference / unpack_reference: CPU versions of the pack and unpack
// kernels (same index math), for tests.
void pack_reference(const FieldLayout& layout, const MessageDesc& m, const double* field,
                    double* buffer);
void unpack_reference(const FieldLayout& layout, const MessageDesc& m, const double* buffer,
                      double* field);

// make_table: the kernels' view of a rank's messages (send or receive side).
MessageTable make_table(const std::vector<Message>& messages, bool send_side);

}  // namespace xferlab::halo
