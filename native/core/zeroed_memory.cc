#include "zeroed_memory.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#if !defined(_WIN32)
#include <sys/mman.h>
#endif

namespace simhash_zh {

#if defined(MADV_HUGEPAGE)
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kPage = 4096;

// A table about to be written whole, of a huge page or more: mapped 2 MB-aligned with huge
// pages asked for, then touched page by page. Mapping 4 KB pages costs about 1.5 us each in a
// VM (an 8 MB table 3 ms, most of the packed trie's cost at load); a huge page is mapped in one
// fault. Where the kernel has none to give, the pages are 4 KB ones as before. nullptr when
// even the mapping fails.
void* map_huge_zeroed(size_t bytes) {
  const size_t length = (bytes + kPage - 1) & ~(kPage - 1);
  void* raw = ::mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) & ~(uintptr_t{kHugePage} - 1);
  // Keep [aligned, aligned + length): unmap_zeroed(memory, bytes) frees exactly that.
  if (aligned > start) ::munmap(raw, aligned - start);
  const uintptr_t end = aligned + length;
  const uintptr_t raw_end = start + length + kHugePage;
  if (raw_end > end) ::munmap(reinterpret_cast<void*>(end), raw_end - end);
  auto* memory = reinterpret_cast<unsigned char*>(aligned);
  ::madvise(memory, length, MADV_HUGEPAGE);  // advice: failing, the pages are small ones
  for (size_t offset = 0; offset < length; offset += kPage) memory[offset] = 0;
  return memory;
}

}  // namespace
#endif

void* map_zeroed(size_t bytes, bool populate) {
  if (bytes == 0) bytes = 1;
#if !defined(_WIN32) && defined(MAP_ANONYMOUS)
#if defined(MADV_HUGEPAGE)
  if (populate && bytes >= kHugePage) {
    if (void* memory = map_huge_zeroed(bytes)) return memory;
    throw std::bad_alloc();
  }
#endif
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
