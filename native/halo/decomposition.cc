// native/halo/decomposition.cc — process grid, neighbours and message layout.
#include "native/halo/decomposition.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "common/number.h"

namespace xferlab::halo {
namespace {

std::string int3_text(const Int3& v) {
  return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

// All ordered factorisations a*b*c == n, most balanced (smallest max-min) first.
std::vector<Int3> factorisations(int n) {
  std::vector<Int3> out;
  for (int a = 1; a <= n; ++a) {
    if (n % a) continue;
    for (int b = 1; b <= n / a; ++b) {
      if ((n / a) % b) continue;
      out.push_back({a, b, n / a / b});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Int3& x, const Int3& y) {
    auto spread = [](const Int3& v) {
      return *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
    };
    if (spread(x) != spread(y)) return spread(x) < spread(y);
    return x > y;  // larger factors first on x, like MPI_Dims_create.
  });
  return out;
}

// Range of cells on one axis for offset d: send side (owned cells next to the
// face) or receive side (ghost cells beyond it).
void axis_range(int d, int n, bool send, int* lo, int* hi) {
  const int g = kGhostWidth;
  if (d == 0) {
    *lo = 0;
    *hi = n;
  } else if (d < 0) {
    *lo = send ? 0 : -g;
    *hi = send ? g : 0;
  } else {
    *lo = send ? n - g : n;
    *hi = send ? n : n + g;
  }
}

int64_t align_up(int64_t v, int64_t a) {
  return (v + a - 1) / a * a;
}

}  // namespace

const char* message_kind_name(MessageKind kind) {
  switch (kind) {
    case MessageKind::kFace: return "face";
    case MessageKind::kEdge: return "edge";
    case MessageKind::kCorner: return "corner";
  }
  return "?";
}

Int3 balanced_grid(int num_ranks) {
  return factorisations(num_ranks).front();
}

Result<Int3> parse_int3(const std::string& text, const std::string& what) {
  Int3 v{};
  size_t pos = 0;
  int count = 0;
  bool more = true;
  while (more && count < 3) {
    size_t comma = text.find(',', pos);
    std::string part =
        text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const Result<int64_t> parsed = parse_int(part);
    const int64_t x = parsed.ok() ? *parsed : 0;
    if (x <= 0 || x > INT_MAX / 4) {
      return make_error(what + ": '" + text + "' is not a positive integer or list N,N,N");
    }
    v[count++] = static_cast<int>(x);
    more = comma != std::string::npos;
    pos = comma + 1;
  }
  if (count == 1 && !more) return Int3{v[0], v[0], v[0]};
  if (count != 3 || more) {
    return make_error(what + ": '" + text + "' needs 1 or 3 comma-separated values");
  }
  return v;
}

Result<Int3> paper_per_rank_cells(const std::string& name) {
  // Elis et al. split the 200^3 / 400^3 / 800^3 global cubes 4x4x4.
  if (name == "200") return Int3{50, 50, 50};
  if (name == "400") return Int3{100, 100, 100};
  if (name == "800") return Int3{200, 200, 200};
  return make_error("--paper: '" + name + "' is not one of 200, 400, 800 (global cube edge)");
}

Result<Decomposition> Decomposition::make(const DecompositionSpec& spec, int num_ranks) {
  if (num_ranks < 1) return make_error("decomposition: rank count must be at least 1");
  if (spec.vars < 1 || spec.vars > 64) {
    return make_error("--vars: " + std::to_string(spec.vars) + " is not in 1..64");
  }
  if (spec.global_cells.has_value() == spec.per_rank_cells.has_value()) {
    return make_error("decomposition: give exactly one of --global, --per-rank or --paper");
  }
  Decomposition d;
  d.num_ranks_ = num_ranks;
  d.vars_ = spec.vars;
  d.pattern_ = spec.pattern;
  if (spec.procs) {
    const Int3& p = *spec.procs;
    if (static_cast<long>(p[0]) * p[1] * p[2] != num_ranks) {
      return make_error("decomposition: " + std::to_string(num_ranks) +
                        " ranks do not fit --procs " + int3_text(p) + " (needs " +
                        std::to_string(static_cast<long>(p[0]) * p[1] * p[2]) + " ranks)");
    }
    d.procs_ = p;
  }
  if (spec.per_rank_cells) {
    if (!spec.procs) d.procs_ = balanced_grid(num_ranks);
    d.n_ = *spec.per_rank_cells;
    for (int a = 0; a < 3; ++a) d.global_[a] = d.n_[a] * d.procs_[a];
  } else {
    d.global_ = *spec.global_cells;
    if (!spec.procs) {
      bool found = false;
      for (const Int3& p : factorisations(num_ranks)) {
        if (d.global_[0] % p[0] == 0 && d.global_[1] % p[1] == 0 && d.global_[2] % p[2] == 0) {
          d.procs_ = p;
          found = true;
          break;
        }
      }
      if (!found) {
        return make_error("decomposition: " + std::to_string(num_ranks) +
                          " ranks cannot split global " + int3_text(d.global_) +
                          " evenly on any process grid");
      }
    }
    for (int a = 0; a < 3; ++a) {
      if (d.global_[a] % d.procs_[a] != 0) {
        return make_error("decomposition: global " + int3_text(d.global_) +
                          " is not divisible by process grid " + int3_text(d.procs_));
      }
      d.n_[a] = d.global_[a] / d.procs_[a];
    }
  }
  // Each block needs two boundary layers and an interior cell, so that send
  // boxes of opposite faces are distinct and the interior compute (gdasync)
  // has cells that need no ghosts.
  const int min_cells = 2 * kGhostWidth + 1;
  for (int a = 0; a < 3; ++a) {
    if (d.n_[a] < min_cells) {
      return make_error("decomposition: per-rank block " + int3_text(d.n_) +
                        " is too small for ghost width " + std::to_string(kGhostWidth) +
                        " (each side needs at least " + std::to_string(min_cells) + " cells)");
    }
  }
  return d;
}

Int3 Decomposition::rank_coords(int rank) const {
  return {rank % procs_[0], (rank / procs_[0]) % procs_[1], rank / (procs_[0] * procs_[1])};
}

int Decomposition::rank_of(const Int3& c) const {
  const int x = static_cast<int>(wrap(c[0], procs_[0]));
  const int y = static_cast<int>(wrap(c[1], procs_[1]));
  const int z = static_cast<int>(wrap(c[2], procs_[2]));
  return x + procs_[0] * (y + procs_[1] * z);
}

int Decomposition::neighbour(int rank, const Int3& d) const {
  Int3 c = rank_coords(rank);
  return rank_of({c[0] + d[0], c[1] + d[1], c[2] + d[2]});
}

std::vector<Message> Decomposition::messages(int rank) const {
  std::vector<Message> out;
  int64_t offset = 0;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int crossed = (dx != 0) + (dy != 0) + (dz != 0);
        if (crossed == 0) continue;
        if (pattern_ == Pattern::k7Point && crossed != 1) continue;
        Message m{};
        m.offset = {dx, dy, dz};
        m.direction = direction_index(dx, dy, dz);
        m.kind = crossed == 1 ? MessageKind::kFace
                              : (crossed == 2 ? MessageKind::kEdge : MessageKind::kCorner);
        m.peer = neighbour(rank, m.offset);
        m.send_tag = m.direction;
        m.recv_tag = direction_index(-dx, -dy, -dz);
        for (int a = 0; a < 3; ++a) {
          axis_range(m.offset[a], n_[a], true, &m.send_box.lo[a], &m.send_box.hi[a]);
          axis_range(m.offset[a], n_[a], false, &m.recv_box.lo[a], &m.recv_box.hi[a]);
        }
        const int64_t doubles = m.send_box.volume() * vars_;
        m.bytes = doubles * static_cast<int64_t>(sizeof(double));
        m.send_offset_doubles = offset;
        m.recv_offset_doubles = offset;  // same geometry both ways.
        offset = align_up(offset + doubles, kMessageAlignDoubles);
        out.push_back(m);
      }
    }
  }
  return out;
}

int64_t Decomposition::buffer_doubles() const {
  std::vector<Message> ms = messages(0);
  const Message& last = ms.back();
  return align_up(last.send_offset_doubles + last.bytes / 8, kMessageAlignDoubles);
}

int64_t Decomposition::global_of(int rank, int axis, int c) const {
  const Int3 rc = rank_coords(rank);
  return wrap(static_cast<int64_t>(rc[axis]) * n_[axis] + c, global_[axis]);
}

RankOrigin Decomposition::origin(int rank) const {
  const Int3 rc = rank_coords(rank);
  RankOrigin o{};
  for (int a = 0; a < 3; ++a) {
    o.origin[a] = static_cast<int64_t>(rc[a]) * n_[a];
    o.global[a] = global_[a];
  }
  return o;
}

std::string Decomposition::describe() const {
  return "global " + int3_text(global_) + ", procs " + int3_text(procs_) + ", per-rank " +
         int3_text(n_) + ", vars " + std::to_string(vars_) + ", " +
         (pattern_ == Pattern::k27Point ? "27-point" : "7-point");
}

void pack_reference(const FieldLayout& layout, const MessageDesc& m, const double* field,
                    double* buffer) {
  for (int64_t e = 0; e < m.doubles; ++e) {
    buffer[m.offset_doubles + e] = field[message_element(layout, m, e)];
  }
}

void unpack_reference(const FieldLayout& layout, const MessageDesc& m, const double* buffer,
                      double* field) {
  for (int64_t e = 0; e < m.doubles; ++e) {
    field[message_element(layout, m, e)] = buffer[m.offset_doubles + e];
  }
}

MessageTable make_table(const std::vector<Message>& messages, bool send_side) {
  MessageTable t{};
  t.count = static_cast<int>(messages.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    t.msg[i].box = send_side ? m.send_box : m.recv_box;
    t.msg[i].offset_doubles = send_side ? m.send_offset_doubles : m.recv_offset_doubles;
    t.msg[i].doubles = m.bytes / static_cast<int64_t>(sizeof(double));
  }
  return t;
}

}  // namespace xferlab::halo
