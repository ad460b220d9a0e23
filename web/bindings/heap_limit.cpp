// heap_limit.cpp — the engine's own allocations (operator new: tensors, graphs, strings) stay below the address
// PT_HEAP_HEADROOM bytes short of the most the wasm heap can grow to (PT_WASM_MAXIMUM_MEMORY, CMakeLists.txt's -sMAXIMUM_MEMORY), with a
// std::bad_alloc that guarded() turns into the typed "out of memory" RuntimeError (common.h).
//
// Why: the runtime itself allocates with plain malloc, outside C++'s reach — a thrown exception's object
// (__cxa_allocate_exception), a string crossing from JS (Embind). When the heap was truly full those got a
// null pointer and wrote through it, so a learner filling the heap (keep.push(pt.rand([2 ** 24])) in a loop) could
// make the next error escape as a bare number instead of a typed error. Stopping the engine's allocations short of
// the end keeps that room free. Only this module (the page's engine) has the limit; the native and wasm test builds
// use their allocators as they are.
#include <cstdint>
#include <cstdlib>
#include <new>

#include "common.h"

namespace {

constexpr uintptr_t kLimit = static_cast<uintptr_t>(PT_WASM_MAXIMUM_MEMORY) - static_cast<uintptr_t>(PT_HEAP_HEADROOM);

// The rule is on addresses, so nothing has to be counted (a count kept across new and delete drifted): a block the
// allocator placed, wholly or partly, above kLimit is given back and refused. Below kLimit the engine may use every
// byte; above it only the runtime's plain mallocs live.
[[noreturn]] void refuse() {
  ptjs::bad_alloc_thrown() = true;
  throw std::bad_alloc();
}
void* allocate(size_t n) {
  if (n > kLimit) refuse();
  void* p = std::malloc(n ? n : 1);
  if (!p) refuse();
  if (reinterpret_cast<uintptr_t>(p) + n > kLimit) {
    std::free(p);
    refuse();
  }
  return p;
}

}  // namespace

void* operator new(size_t n) { return allocate(n); }
void* operator new[](size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
