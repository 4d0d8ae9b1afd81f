#include "zeroed_memory.h"

#include <cstdlib>
#include <new>

#if !defined(_WIN32)
#include <sys/mman.h>
#endif

namespace simhash_zh {

void* map_zeroed(size_t bytes, bool populate) {
  if (bytes == 0) bytes = 1;
#if !defined(_WIN32) && defined(MAP_ANONYMOUS)
  int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#if defined(MAP_POPULATE)
  if (populate) flags |= MAP_POPULATE;  // faulting pages in one at a time costs milliseconds in a VM
#endif
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  return memory;
#else
  (void)populate;
  void* memory = std::calloc(bytes, 1);
  if (memory == nullptr) throw std::bad_alloc();
  return memory;
#endif
}

void unmap_zeroed(void* memory, size_t bytes) {
  if (memory == nullptr) return;
#if !defined(_WIN32) && defined(MAP_ANONYMOUS)
  ::munmap(memory, bytes == 0 ? 1 : bytes);
#else
  (void)bytes;
  std::free(memory);
#endif
}

}  // namespace simhash_zh
