// Estimates of the heap memory a container holds, for memory_bytes() reports. No Node headers.
#pragma once

#include <cstddef>

namespace simhash_zh {

// A vector's or string's allocation: its capacity in elements.
template <class Vector>
size_t vector_heap_bytes(const Vector& v) {
  return v.capacity() * sizeof(typename Vector::value_type);
}

// A node-based hash map: per node the key and value, a next pointer and a cached hash; per bucket a pointer.
template <class Map>
size_t map_heap_bytes(const Map& m) {
  return m.size() * (sizeof(typename Map::value_type) + 2 * sizeof(void*)) + m.bucket_count() * sizeof(void*);
}

}  // namespace simhash_zh
