// The SimHashIndex file format, version 1. Both engines read and write it byte for byte
// identically (lib/index-format.ts is the TypeScript twin). All integers little-endian.
//
//   offset  size  field
//        0     8  magic 89 53 48 5A 49 44 58 0A ("\x89SHZIDX\n")
//        8     4  u32 format version = 1
//       12     1  u8  bits (64 | 128)
//       13     1  u8  maxDistance (0 .. bits/8)
//       14     2  u16 tables (one of supported_table_counts(bits, maxDistance))
//       16     8  u64 count (live entries, <= 4294967294)
//       24     4  u32 flags = 0 (reserved)
//       28     4  u32 CRC-32 (IEEE, as zlib) of bytes 0..27
//       32   8*n  ids, u64 each (< 2^53, unique), in insertion order
//        .  8*w*n fingerprints, w = bits/64 u64 words each, low word first
//      end     4  u32 CRC-32 of the ids and fingerprints
//
// Only entries are stored; the tables are rebuilt on load (about a second for 10M entries), so a file
// never depends on the layout code and nothing read from it is trusted as an offset.
//
// Reading validates every length before it reads: shorter than the header says → kTruncated, wrong
// magic, header CRC, field, trailing bytes, payload CRC, id range or a repeated id → kCorrupt,
// another format version → kVersion. A bad file never crashes and never loads as a wrong index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "simhash_index.h"

namespace simhash_zh {

constexpr uint32_t kIndexFormatVersion = 1;
constexpr size_t kIndexHeaderSize = 32;

// CRC-32 (IEEE 802.3, reflected, as zlib's crc32): crc32(0, data) for a fresh one.
uint32_t crc32(uint32_t crc, const uint8_t* data, size_t size);

size_t serialized_size(const SimHashIndex& index);
// Writes exactly serialized_size(index) bytes.
void serialize_index(const SimHashIndex& index, uint8_t* out);

enum class IndexLoadError { kNone, kTruncated, kCorrupt, kVersion };

struct IndexLoadResult {
  IndexLoadError error = IndexLoadError::kNone;
  std::string message;
  std::unique_ptr<SimHashIndex> index;
};

IndexLoadResult deserialize_index(const uint8_t* data, size_t size);

}  // namespace simhash_zh
