// traces/make_malformed_corpus.cc — writes the regression corpus in
// traces/testdata/malformed/: small valid traces (also the fuzzer's seeds) and
// one file per kind of damage, with MANIFEST listing for each file the text
// its error message must contain ("OK" for files that must be accepted).
//
//   bazel run //traces:make_malformed_corpus -- $PWD/traces/testdata/malformed
// (testdata/malformed_v1_0/ keeps the same damage in format 1.0 files.)
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "common/flags.h"
#include "traces/checksum.h"
#include "traces/file_format.h"
#include "traces/generator.h"
#include "traces/writer.h"

namespace xferlab::traces {
namespace {

using Bytes = std::vector<char>;

Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

template <typename T>
T get(const Bytes& b, size_t offset) {
  T v;
  std::memcpy(&v, b.data() + offset, sizeof(T));
  return v;
}

template <typename T>
void put(Bytes& b, size_t offset, T v) {
  std::memcpy(b.data() + offset, &v, sizeof(T));
}

// Layout of a valid file, found through its footer and index.
struct Layout {
  format::Footer footer;
  uint64_t first_block;  ///< offset of block 0's header.
  uint64_t first_entry;  ///< offset of index entry 0.
  uint64_t meta0;        ///< offset of the initial metadata section.
};

Layout layout(const Bytes& b) {
  Layout l{};
  l.footer = get<format::Footer>(b, b.size() - sizeof(format::Footer));
  const auto ih = get<format::IndexHeader>(b, l.footer.index_offset);
  l.first_entry = l.footer.index_offset + ih.section.header_bytes + uint64_t(ih.num_kinds) * 8;
  l.first_block = get<format::IndexEntry>(b, l.first_entry).offset;
  l.meta0 = sizeof(format::FileHeader);
  return l;
}

// reseal: recompute the checksum of the block at `block` after editing its
// payload, so the damage reaches the per-record checks (a producer bug, not
// corruption on disk, which the checksum catches first).
void reseal(Bytes& b, uint64_t block) {
  const auto h = get<format::BlockHeader>(b, block);
  const format::BlockChecksum c{
      xxh64(b.data() + block + h.section.header_bytes, h.section.payload_bytes, h.first_event)};
  put(b, block + sizeof(format::BlockHeader), c);
}

// replace_all: same-length text substitution (keeps every offset valid).
void replace_all(Bytes& b, const std::string& from, const std::string& to) {
  for (size_t i = 0; i + from.size() <= b.size(); ++i) {
    if (std::memcmp(b.data() + i, from.data(), from.size()) == 0) {
      std::memcpy(b.data() + i, to.data(), to.size());
    }
  }
}

// Corpus: the files written to a directory and MANIFEST, which lists for
// each the text the reader's error must contain ("OK": must be accepted).
class Corpus {
 public:
  explicit Corpus(const std::string& dir) : dir_(dir), manifest_(dir + "/MANIFEST") {
    manifest_ << "# file<TAB>text the reader's error must contain (OK: must be accepted)\n";
  }
  void list(const std::string& name, const std::string& expect) {
    manifest_ << name << "\t" << expect << "\n";
  }
  void emit(const std::string& name, const Bytes& bytes, const std::string& expect) {
    std::ofstream(dir_ + "/" + name, std::ios::binary).write(bytes.data(), bytes.size());
    list(name, expect);
  }

 private:
  std::string dir_;
  std::ofstream manifest_;
};

// Valid: the two valid files (raw and zstd-compressed blocks) damage starts from.
struct Valid {
  Bytes raw, packed;
  Layout l, lz;
  uint64_t event0;  ///< offset of the raw file's first event.
};

// header_damage: file header, truncation and metadata.
void header_damage(Corpus& corpus, const Valid& v) {
  const auto& [raw, packed, l, lz, event0] = v;
  Bytes b;
  // A newer minor version with an event kind this reader does not know.
  b = raw;
  put<uint16_t>(b, 10, kFormatMinor + 3);
  replace_all(b, "\"minor\": " + std::to_string(kFormatMinor),
              "\"minor\": " + std::to_string(kFormatMinor + 3));
  put<uint16_t>(b, event0 + 8, 999);
  reseal(b, l.first_block);
  corpus.emit("newer_minor_unknown_kind.xft", b, "OK");

  corpus.emit("empty.xft", Bytes(), "shorter than the 32-byte file header");
  b = raw;
  b[0] = 'Z';
  corpus.emit("bad_magic.xft", b, "not an xferlab trace");
  b = raw;
  put<uint16_t>(b, 8, kFormatMajor + 1);
  corpus.emit("newer_major.xft", b, "is newer than this reader");
  b = raw;
  put<uint32_t>(b, 16, 64);
  corpus.emit("bad_event_size.xft", b, "event record size 64");
  corpus.emit("truncated_half.xft", Bytes(raw.begin(), raw.begin() + raw.size() / 2), "truncated");
  corpus.emit("truncated_footer.xft", Bytes(raw.begin(), raw.end() - 10), "no footer");
  corpus.emit("truncated_in_header.xft", Bytes(raw.begin(), raw.begin() + 40), "truncated");
  b = raw;
  put<uint64_t>(b, l.meta0 + 8, uint64_t(1) << 40);
  corpus.emit("absurd_metadata_size.xft", b, "exceeds");
  b = raw;
  b[l.meta0 + sizeof(format::SectionHeader)] = '[';
  corpus.emit("metadata_not_json.xft", b, "not valid JSON");
  b = raw;
  replace_all(b, "\"sm_count\": 2", "\"sm_count\":{}");
  corpus.emit("metadata_wrong_type.xft", b, "gpus[0].sm_count: expected an integer");
}

// index_and_block_damage: the block index and the blocks' headers and records.
void index_and_block_damage(Corpus& corpus, const Valid& v) {
  const auto& [raw, packed, l, lz, event0] = v;
  Bytes b;
  b = raw;
  put<uint64_t>(b, l.footer.index_offset + 24, uint64_t(1) << 50);
  corpus.emit("absurd_block_count.xft", b, "impossible for this file");
  b = raw;
  put<uint32_t>(b, l.first_block + 20, 0xffffffffu);
  corpus.emit("absurd_block_events.xft", b, "block of 4294967295 events");
  b = raw;
  put<uint16_t>(b, l.first_block + 16, 7);
  corpus.emit("unknown_codec.xft", b, "unknown block compression codec 7");
  b = raw;
  put<uint16_t>(b, event0 + 8, 0);
  reseal(b, l.first_block);
  corpus.emit("kind_zero.xft", b, "invalid event kind 0");
  b = raw;
  put<uint16_t>(b, event0 + 32 + 12, 9);
  reseal(b, l.first_block);
  corpus.emit("gpu_out_of_range.xft", b,
              "event #1 (byte offset " + std::to_string(event0 + 32) +
                  "): gpu 9 is not in the metadata's gpus table");
  b = raw;
  put<uint64_t>(b, event0 + 64, get<uint64_t>(b, event0 + 64) + (uint64_t(1) << 40));
  reseal(b, l.first_block);
  corpus.emit("time_outside_block.xft", b, "outside its block's range");
  b = raw;
  put<uint64_t>(b, l.first_entry + 24, UINT64_MAX);
  corpus.emit("impossible_time_range.xft", b, "impossible time range");
  b = raw;
  put<uint64_t>(b, b.size() - sizeof(format::Footer) + 48, raw.size() + 8);
  corpus.emit("footer_size_mismatch.xft", b, "footer records");
  b = raw;
  put<uint64_t>(b, l.first_entry + 8, 5);
  corpus.emit("index_first_event.xft", b, "first event 5, expected 0");
  b = packed;
  put<uint32_t>(b, lz.first_block + format::kChecksummedBlockHeaderBytes, 0);  // zstd magic
  reseal(b, lz.first_block);
  corpus.emit("corrupt_zstd.xft", b, "corrupt compressed block");
}

// disk_damage: flipped bits the block checksums (format 2.0) catch, and a
// dropped checksum.
void disk_damage(Corpus& corpus, const Valid& v) {
  const auto& [raw, packed, l, lz, event0] = v;
  Bytes b;
  // Damage on disk: the block checksums (format 2.0) catch what the record
  // checks cannot, e.g. a flipped bit in a value or id.
  b = raw;
  b[event0 + 24] ^= 0x10;  // event 0's value
  corpus.emit("flipped_value_bit.xft", b, "block checksum mismatch");
  b = packed;
  b[lz.first_block + format::kChecksummedBlockHeaderBytes + 20] ^= 0x01;
  corpus.emit("flipped_zstd_bit.xft", b, "block checksum mismatch");
  b = raw;
  b[l.first_block + sizeof(format::BlockHeader) + 3] ^= 0x40;  // the checksum itself
  corpus.emit("flipped_checksum.xft", b, "block checksum mismatch");
  b = raw;
  put<uint32_t>(b, l.first_block + 4, sizeof(format::BlockHeader));
  corpus.emit("checksum_dropped.xft", b, "has no checksum (format 2.0 needs one)");
  b = raw;
  put<uint64_t>(b, l.first_block + 24, 3);
  corpus.emit("block_first_event.xft", b, "block starts at event 3");
}

int run(const std::string& dir) {
  GenerateOptions g;
  g.gpus = 2;
  g.chunks = 2;
  g.ctas = 4;
  g.iterations = 1;
  g.sms = 2;
  WriterOptions small_blocks;
  small_blocks.events_per_block = 16;  // several blocks in a tiny file.
  const std::string raw_path = dir + "/valid_small.xft";
  const std::string zstd_path = dir + "/valid_zstd.xft";
  WriterOptions zstd = small_blocks;
  zstd.compression = Compression::kZstd;
  for (auto [path, options] : {std::pair{raw_path, small_blocks}, std::pair{zstd_path, zstd}}) {
    Status s = generate_trace(path, g, options);
    if (!s.ok()) {
      std::cerr << s.error().message << "\n";
      return 1;
    }
  }
  Valid v{read_file(raw_path), read_file(zstd_path), {}, {}, 0};
  v.l = layout(v.raw);
  v.lz = layout(v.packed);
  v.event0 = v.l.first_block + format::kChecksummedBlockHeaderBytes;
  Corpus corpus(dir);
  corpus.list("valid_small.xft", "OK");
  corpus.list("valid_zstd.xft", "OK");
  header_damage(corpus, v);
  index_and_block_damage(corpus, v);
  disk_damage(corpus, v);
  std::cout << "wrote corpus to " << dir << "\n";
  return 0;
}

}  // namespace
}  // namespace xferlab::traces

int main(int argc, char** argv) {
  xferlab::FlagSet flags("make_malformed_corpus",
                         "Writes the malformed-trace regression corpus and its MANIFEST into DIR.");
  flags.set_positionals("DIR", 1, 1, "output folder (traces/testdata/malformed)");
  xferlab::parse_flags_or_exit(flags, argc, argv);
  return xferlab::traces::run(flags.positionals()[0]);
}
