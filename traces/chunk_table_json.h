// traces/chunk_table_json.h — the metadata's "chunks" table read without a
// JSON DOM, for Metadata::from_json.
//
// Format 1.0 proact traces list every chunk in "chunks" (16,384 per GPU at
// 16 KiB: 2.4 MB of the metadata's JSON), and building nlohmann's DOM for it
// was most of a replay's fixed cost (docs/performance.md). The table's usual
// form is one object of unsigned integers per chunk; these functions read
// exactly that form and refuse (nullopt) anything else, which from_json then
// reads through nlohmann as before: odd or invalid tables take the same path
// and give the same result or error.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "traces/metadata.h"

namespace xferlab::traces {

// top_level_value: [begin, end) of the value of `key` in the JSON object
// `text`, when `text` is an object whose top-level keys hold no escapes and
// name `key` exactly once; nullopt otherwise (or when the text cannot be
// scanned: it is left to the JSON parser).
std::optional<std::pair<size_t, size_t>> top_level_value(std::string_view text,
                                                         std::string_view key);

// plain_chunk_table: the entries of `array` (a JSON array) when every entry
// is an object whose keys are among id, gpu, offset_bytes, size_bytes,
// writers, destinations (each at most once) with unsigned decimal integers
// in range of their field, and no id repeats; nullopt otherwise.
std::optional<std::vector<ChunkInfo>> plain_chunk_table(std::string_view array);

}  // namespace xferlab::traces
