// traces/checksum.h — XXH64 (Yann Collet's xxHash, 64-bit variant; spec:
// https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md), the
// checksum of an event block's stored bytes (FORMAT.md, format 2.0). Fast
// enough (several GB/s) that verifying every block costs little next to
// reading it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xferlab::traces {

uint64_t xxh64(const void* data, size_t size, uint64_t seed);

}  // namespace xferlab::traces
