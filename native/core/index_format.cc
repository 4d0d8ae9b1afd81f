#include "index_format.h"

#include <algorithm>
#include <array>
#include <vector>

namespace simhash_zh {

namespace {

constexpr uint8_t kMagic[8] = {0x89, 'S', 'H', 'Z', 'I', 'D', 'X', '\n'};

// Slicing-by-8 tables for the reflected polynomial 0xEDB88320.
struct Crc32Tables {
  std::array<std::array<uint32_t, 256>, 8> t{};
  Crc32Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320U : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i) {
      for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
    }
  }
};

const Crc32Tables& crc_tables() {
  static const Crc32Tables tables;  // immutable after construction; thread-safe init
  return tables;
}

void put_u16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint16_t get_u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t get_u32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

IndexLoadResult fail(IndexLoadError error, std::string message) {
  IndexLoadResult result;
  result.error = error;
  result.message = std::move(message);
  return result;
}

}  // namespace

uint32_t crc32(uint32_t crc, const uint8_t* data, size_t size) {
  const auto& t = crc_tables().t;
  crc = ~crc;
  while (size >= 8) {
    const uint32_t a = crc ^ get_u32(data);
    const uint32_t b = get_u32(data + 4);
    crc = t[7][a & 0xff] ^ t[6][(a >> 8) & 0xff] ^ t[5][(a >> 16) & 0xff] ^ t[4][a >> 24] ^
          t[3][b & 0xff] ^ t[2][(b >> 8) & 0xff] ^ t[1][(b >> 16) & 0xff] ^ t[0][b >> 24];
    data += 8;
    size -= 8;
  }
  while (size-- > 0) crc = (crc >> 8) ^ t[0][(crc ^ *data++) & 0xff];
  return ~crc;
}

size_t serialized_size(const SimHashIndex& index) {
  const size_t words = static_cast<size_t>(index.bits() / 64);
  return kIndexHeaderSize + index.size() * 8 * (1 + words) + 4;
}

void serialize_index(const SimHashIndex& index, uint8_t* out) {
  const size_t n = index.size();
  const size_t words = static_cast<size_t>(index.bits() / 64);
  std::copy(kMagic, kMagic + 8, out);
  put_u32(out + 8, kIndexFormatVersion);
  out[12] = static_cast<uint8_t>(index.bits());
  out[13] = static_cast<uint8_t>(index.max_distance());
  put_u16(out + 14, static_cast<uint16_t>(index.table_count()));
  put_u64(out + 16, n);
  put_u32(out + 24, 0);
  put_u32(out + 28, crc32(0, out, 28));
  uint8_t* ids = out + kIndexHeaderSize;
  uint8_t* fps = ids + 8 * n;
  size_t i = 0;
  index.for_each([&](uint64_t id, Fingerprint fp) {
    put_u64(ids + 8 * i, id);
    put_u64(fps + 8 * words * i, fp.lo);
    if (words == 2) put_u64(fps + 8 * words * i + 8, fp.hi);
    ++i;
  });
  const size_t payload = n * 8 * (1 + words);
  put_u32(ids + payload, crc32(0, ids, payload));
}

IndexLoadResult deserialize_index(const uint8_t* data, size_t size) {
  // Magic: a short prefix of it is a truncated file, anything else is not an index file.
  const size_t magic_seen = std::min<size_t>(size, 8);
  if (!std::equal(data, data + magic_seen, kMagic)) {
    return fail(IndexLoadError::kCorrupt, "not a simhash-zh index (bad magic bytes)");
  }
  if (size < 12) return fail(IndexLoadError::kTruncated, "index is truncated (" + std::to_string(size) + " bytes, no header)");
  const uint32_t version = get_u32(data + 8);
  if (version != kIndexFormatVersion) {
    return fail(IndexLoadError::kVersion, "index format version " + std::to_string(version) +
                                              " is not supported (this build reads version " +
                                              std::to_string(kIndexFormatVersion) + ")");
  }
  if (size < kIndexHeaderSize) {
    return fail(IndexLoadError::kTruncated, "index is truncated (" + std::to_string(size) + " bytes, header is 32)");
  }
  if (crc32(0, data, 28) != get_u32(data + 28)) {
    return fail(IndexLoadError::kCorrupt, "index header checksum mismatch");
  }
  const int bits = data[12];
  const int max_distance = data[13];
  const int tables = get_u16(data + 14);
  const uint64_t count = get_u64(data + 16);
  const uint32_t flags = get_u32(data + 24);
  IndexLayout layout;
  if (flags != 0 || !make_index_layout(bits, max_distance, tables, layout)) {
    return fail(IndexLoadError::kCorrupt, "index header has unsupported fields");
  }
  if (count > kMaxIndexEntries) return fail(IndexLoadError::kCorrupt, "index header has an impossible entry count");
  const uint64_t words = static_cast<uint64_t>(bits / 64);
  const uint64_t payload = count * 8 * (1 + words);  // < 2^32 * 24: no overflow
  const uint64_t expected = kIndexHeaderSize + payload + 4;
  if (static_cast<uint64_t>(size) < expected) {
    return fail(IndexLoadError::kTruncated, "index is truncated (" + std::to_string(size) + " of " +
                                                std::to_string(expected) + " bytes)");
  }
  if (static_cast<uint64_t>(size) > expected) {
    return fail(IndexLoadError::kCorrupt, "index has " + std::to_string(size - expected) + " trailing bytes");
  }
  const uint8_t* ids = data + kIndexHeaderSize;
  const uint8_t* fps = ids + 8 * count;
  if (crc32(0, ids, static_cast<size_t>(payload)) != get_u32(ids + payload)) {
    return fail(IndexLoadError::kCorrupt, "index payload checksum mismatch");
  }
  const size_t n = static_cast<size_t>(count);
  std::vector<uint64_t> id_values(n), fp_words(n * words);
  for (size_t i = 0; i < n; ++i) {
    id_values[i] = get_u64(ids + 8 * i);
    if (id_values[i] > kMaxIndexId) return fail(IndexLoadError::kCorrupt, "index holds an id above 2^53 - 1");
  }
  for (size_t i = 0; i < n * words; ++i) fp_words[i] = get_u64(fps + 8 * i);
  auto index = std::make_unique<SimHashIndex>(bits, max_distance, tables);
  index->add_many(id_values.data(), fp_words.data(), n);
  if (index->size() != n) return fail(IndexLoadError::kCorrupt, "index holds a repeated id");
  IndexLoadResult result;
  result.index = std::move(index);
  return result;
}

}  // namespace simhash_zh
