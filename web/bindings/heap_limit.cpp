// heap_limit.cpp — a reserve of PT_HEAP_RESERVE bytes that the engine's own allocations (operator new: tensors,
// graphs, strings) never use, kept for the runtime's plain mallocs; an engine allocation the heap cannot hold is a
// std::bad_alloc that guarded() turns into the typed "out of memory" RuntimeError (common.h).
//
// Why: the runtime allocates with plain malloc, outside C++'s reach — a string or array crossing from JS (Embind).
// When the heap was truly full those got a null pointer and wrote through it, so a learner filling the heap
// (keep.push(pt.rand([2 ** 24])) in a loop) could make the next call corrupt memory or end in a bare number instead of
// a typed error. (Exception objects have libc++abi's own emergency pool.)
//
// The rule: the engine allocates only while the reserve is held. A plain malloc that finds no room frees the reserve
// and asks again; the engine's next allocation takes the reserve back first, and is refused while it cannot.
// (An earlier rule refused engine blocks by address, in the heap's top 64 MiB; but once that top had been
// freed as one region, emmalloc, which takes the smallest free region that fits, kept offering it to small requests,
// and each was refused although lower memory was free.) Only this module (the page's engine) has the reserve; the
// native and wasm test builds use their allocators as they are.
#include <cstdlib>
#include <new>

#include <emscripten/emmalloc.h>

#include "common.h"

namespace {

void* reserve = nullptr;

void* allocate(size_t n) {
  if (!reserve) reserve = emscripten_builtin_malloc(PT_HEAP_RESERVE);
  void* p = reserve ? emscripten_builtin_malloc(n ? n : 1) : nullptr;
  if (!p) {
    ptjs::bad_alloc_thrown() = true;
    throw std::bad_alloc();
  }
  return p;
}

}  // namespace

// The runtime's malloc (Embind's _malloc from JS, and every plain malloc in C): emmalloc's, with the reserve given up
// when nothing else is left. emmalloc's own malloc is a weak symbol, so this one takes its place.
extern "C" void* malloc(size_t n) {
  void* p = emscripten_builtin_malloc(n);
  if (!p && reserve) {
    emscripten_builtin_free(reserve);
    reserve = nullptr;
    p = emscripten_builtin_malloc(n);
  }
  return p;
}

void* operator new(size_t n) { return allocate(n); }
void* operator new[](size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
