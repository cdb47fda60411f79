// traces/compact.cc — compact_trace: re-encode, wrap, read back, compare, rename.
#include "traces/compact.h"

#include <sys/stat.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <span>

#include "common/output_path.h"
#include "traces/reader.h"
#include "traces/writer.h"

namespace xferlab::traces {
namespace {

// TempFile: a path beside the output, removed unless released.
class TempFile {
 public:
  explicit TempFile(std::string path) : path_(std::move(path)) {}
  ~TempFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  void release() { path_.clear(); }

 private:
  std::string path_;
};

Result<uint64_t> file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return make_error(path + ": cannot stat: " + std::strerror(errno));
  }
  return uint64_t(st.st_size);
}

// write_codec2: the trace `in` to `path`, block by block in codec 2.
Status write_codec2(TraceReader& in, const std::string& path, int zstd_level) {
  Result<Metadata> initial = in.initial_metadata();
  if (!initial.ok()) return initial.error();
  WriterOptions options;
  options.compression = Compression::kZstdDeltaShuffle;
  options.zstd_level = zstd_level;
  // No input block is split: each is appended and ended whole.
  options.events_per_block = 1;
  for (const BlockInfo& b : in.blocks())
    options.events_per_block = std::max(options.events_per_block, b.events);
  TraceWriter writer;
  XF_RETURN_IF_ERROR(writer.open(path, *initial, options));
  for (size_t b = 0; b < in.num_blocks(); ++b) {
    Result<std::span<const Event>> events = in.read_block(b);
    if (!events.ok()) return events.error();
    XF_RETURN_IF_ERROR(writer.append(events->data(), events->size()));
    XF_RETURN_IF_ERROR(writer.end_block());
  }
  writer.set_metadata(in.metadata());
  return writer.close();
}

// zstd_file: `from` compressed as one zstd frame (with content size and
// checksum, as the zstd command writes it) into `to`.
Status zstd_file(const std::string& from, const std::string& to, int zstd_level) {
  std::ifstream file(from, std::ios::binary);
  std::string plain((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) return make_runtime_error(from + ": read failed");
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (!cctx) return make_runtime_error(to + ": cannot create a zstd context");
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, zstd_level);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
  std::string packed(ZSTD_compressBound(plain.size()), '\0');
  const size_t z =
      ZSTD_compress2(cctx.get(), packed.data(), packed.size(), plain.data(), plain.size());
  if (ZSTD_isError(z)) {
    return make_runtime_error(to + ": zstd compression failed: " + ZSTD_getErrorName(z));
  }
  packed.resize(z);
  return write_file_checked(to, packed, "trace compact");
}

// same_metadata: equal but for the format version.
bool same_metadata(Metadata a, const Metadata& b) {
  a.format_major = b.format_major;
  a.format_minor = b.format_minor;
  return a == b;
}

// verify_same: `out` holds what `in` holds: metadata (both sections), block
// layout, kind counts and every record.
Status verify_same(TraceReader& in, TraceReader& out) {
  auto differs = [&](const std::string& what) {
    return make_error(out.path() + ": compact verification failed: " + what + " differs from " +
                      in.path());
  };
  if (!same_metadata(in.metadata(), out.metadata())) return differs("final metadata");
  Result<Metadata> initial_in = in.initial_metadata(), initial_out = out.initial_metadata();
  if (!initial_in.ok()) return initial_in.error();
  if (!initial_out.ok()) return initial_out.error();
  if (!same_metadata(*initial_in, *initial_out)) return differs("initial metadata");
  if (in.kind_counts() != out.kind_counts()) return differs("kind counts");
  if (in.num_blocks() != out.num_blocks() || in.num_events() != out.num_events()) {
    return differs("block count");
  }
  for (size_t b = 0; b < in.num_blocks(); ++b) {
    const BlockInfo &x = in.blocks()[b], &y = out.blocks()[b];
    if (x.first_event != y.first_event || x.events != y.events || x.min_time_ns != y.min_time_ns ||
        x.max_time_ns != y.max_time_ns) {
      return differs("block " + std::to_string(b) + "'s index entry");
    }
    Result<std::span<const Event>> a = in.read_block(b);
    if (!a.ok()) return a.error();
    Result<std::span<const Event>> c = out.read_block(b);
    if (!c.ok()) return c.error();
    if (std::memcmp(a->data(), c->data(), a->size_bytes()) != 0) {
      return differs("block " + std::to_string(b) + "'s events");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<CompactResult> compact_trace(const std::string& in, const std::string& out,
                                    const CompactOptions& options) {
  if (options.zstd_level < 1 || options.zstd_level > ZSTD_maxCLevel()) {
    return make_error("trace compact: zstd level " + std::to_string(options.zstd_level) +
                      " is not in 1.." + std::to_string(ZSTD_maxCLevel()));
  }
  Result<TraceReader> reader = TraceReader::open(in);
  if (!reader.ok()) return reader.error();
  CompactResult result;
  XF_ASSIGN(result.bytes_before, file_size(in));
  result.warnings = reader->warnings();
  result.events = reader->num_events();
  result.whole_file_zstd = reader->whole_file_zstd();

  TempFile plain(out + ".compact-tmp");
  XF_RETURN_IF_ERROR(write_codec2(*reader, plain.path(), options.zstd_level));
  TempFile wrapped(result.whole_file_zstd ? out + ".compact-tmp.zst" : "");
  TempFile& written = result.whole_file_zstd ? wrapped : plain;
  if (result.whole_file_zstd) {
    XF_RETURN_IF_ERROR(zstd_file(plain.path(), wrapped.path(), options.zstd_level));
  }

  Result<TraceReader> check = TraceReader::open(written.path());
  if (!check.ok()) return check.error();
  XF_RETURN_IF_ERROR(verify_same(*reader, *check));
  XF_ASSIGN(result.bytes_after, file_size(written.path()));
  if (std::rename(written.path().c_str(), out.c_str()) != 0) {
    return make_runtime_error(out + ": cannot replace it with " + written.path() + ": " +
                              std::strerror(errno));
  }
  written.release();
  return result;
}

}  // namespace xferlab::traces
