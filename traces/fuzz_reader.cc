// traces/fuzz_reader.cc — fuzz_one_input and the libFuzzer entry point.
#include "traces/fuzz_reader.h"

#include <sys/mman.h>
#include <unistd.h>

#include <sstream>
#include <string>

#include "traces/check.h"
#include "traces/perfetto.h"
#include "traces/reader.h"

namespace xferlab::traces {
namespace {

// An in-memory file with a path, so the reader runs its real file code.
class MemFile {
 public:
  MemFile(const uint8_t* data, size_t size) {
    fd_ = ::memfd_create("fuzz_trace", MFD_CLOEXEC);
    if (fd_ < 0) return;
    size_t done = 0;
    while (done < size) {
      ssize_t n = ::write(fd_, data + done, size - done);
      if (n <= 0) break;
      done += size_t(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

uint64_t exercise(const std::string& path, const ReaderOptions& options) {
  Result<TraceReader> r = TraceReader::open(path, options);
  if (!r.ok()) return 0;
  uint64_t streamed = 0;
  uint64_t checksum = 0;
  Status s = r->for_each([&](const Event& e) {
    ++streamed;
    checksum += e.time_ns;
  });
  if (r->num_events() > 0) {
    (void)r->event_at(r->num_events() / 2);
    (void)r->event_at(r->num_events() - 1);
    (void)r->seek_event(r->num_events() / 3);
    (void)r->next_batch();
    const uint64_t mid = r->min_time_ns() / 2 + r->max_time_ns() / 2;
    (void)r->for_each_in_window(mid, r->max_time_ns(), [&](const Event& e) { checksum ^= e.id; });
  }
  if (s.ok() && r->rewind().ok()) {
    (void)check_trace(*r, 10);
    std::ostringstream json;
    if (r->rewind().ok()) (void)export_perfetto(*r, json);
  }
  return streamed + (checksum & 0);  // checksum keeps the loops from being elided.
}

}  // namespace

uint64_t fuzz_one_input(const uint8_t* data, size_t size) {
  MemFile file(data, size);
  if (file.path().empty()) return 0;
  uint64_t n = exercise(file.path(), ReaderOptions{});
  ReaderOptions forgiving;
  forgiving.allow_truncated = true;
  forgiving.validate_gpus = false;
  exercise(file.path(), forgiving);
  ReaderOptions strict;
  strict.strict = true;
  exercise(file.path(), strict);
  return n;
}

}  // namespace xferlab::traces

#ifdef XFERLAB_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  xferlab::traces::fuzz_one_input(data, size);
  return 0;
}
#endif
