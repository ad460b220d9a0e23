// tensor.h — the one tensor type of the engine.
//
// A Tensor is a contiguous, row-major block of one dtype (float32, int8, uint8, int16, int32) with
// a shape. Copies share storage, as torch tensors do; clone() makes an independent copy. A 0-dim
// tensor (shape {}) holds one element. Ops are free functions elsewhere (engine/ops, engine/quant);
// this file knows only storage, shape and dtype, and checks them with typed errors.
//
//   pt::Tensor x = pt::Tensor::empty({2, 3});          // float32
//   float* p = x.data<float>();                         // throws TypeError if the dtype differs
//   pt::Tensor q = pt::Tensor::zeros({4}, pt::DType::Int8);
//
// empty() and zeros() both hand out zero-filled storage, so a read of an element nobody wrote gives 0
// in every build, never stale memory. uninitialized() skips the fill (torch.empty's behaviour): only
// for an operator whose loop writes every element before anything reads the tensor.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace pt {

enum class DType { Float32, Int8, UInt8, Int16, Int32 };

using Shape = std::vector<int64_t>;

size_t dtype_size(DType d);
const char* dtype_name(DType d);    // "float32", "int8", ...
DType dtype_from_name(const std::string& name);  // accepts torch spellings too ("torch.int8", "qint8")
// torch spells three of these dtypes two ways: torch.uint8 / torch.quint8, int8 / qint8, int32 / qint32. The engine
// keeps one DType for both; where torchao tells them apart (an observer's reduce_range check, how a module prints
// its dtype) the spelling travels beside the DType as a flag, `quantized`.
bool is_quantized_dtype_name(const std::string& name);   // "quint8", "torch.qint8", "qint32"
const char* torch_dtype_name(DType d, bool quantized);   // "quint8" for (UInt8, true), "uint8" for (UInt8, false)

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<float>() { return DType::Float32; }
template <> constexpr DType dtype_of<int8_t>() { return DType::Int8; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::UInt8; }
template <> constexpr DType dtype_of<int16_t>() { return DType::Int16; }
template <> constexpr DType dtype_of<int32_t>() { return DType::Int32; }

// Validates a shape (every dimension >= 0) and returns its element count; `what` names the
// argument in the error message.
int64_t checked_numel(const Shape& shape, const char* what = "shape");
// The most bytes one tensor may hold, on every platform: the wasm engine's heap is at most 2 GiB
// (Emscripten's MAXIMUM_MEMORY) and its size_t is 32-bit, so a bigger block could never be allocated
// (and 2^30 floats would overflow size_t to 0). Natively the same limit keeps both builds alike.
inline constexpr int64_t kMaxTensorBytes = (int64_t{1} << 31) - 1;
// checked_numel plus the byte size of `dtype` elements against kMaxTensorBytes: the ValueError names
// the shape, before anything is allocated. Returns the byte size.
int64_t checked_nbytes(const Shape& shape, DType dtype, const char* what = "shape");
std::string shape_str(const Shape& shape);

// std::allocator, except that constructing an element without a value leaves it as it is (default-
// initialisation), so that Tensor::uninitialized() skips the fill.
template <class T> struct NoFillAllocator {
  using value_type = T;
  NoFillAllocator() = default;
  template <class U> NoFillAllocator(const NoFillAllocator<U>&) noexcept {}
  T* allocate(size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
  template <class U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
  template <class U, class... A> void construct(U* p, A&&... a) { ::new (static_cast<void*>(p)) U(std::forward<A>(a)...); }
  template <class U> bool operator==(const NoFillAllocator<U>&) const noexcept { return true; }
};

// n elements of scratch space, not filled (as Tensor::uninitialized): for a buffer its user writes before reading.
template <class T> std::unique_ptr<T[]> scratch_buffer(int64_t n) { return std::unique_ptr<T[]>(new T[static_cast<size_t>(n)]); }

class Tensor {
 public:
  Tensor();  // an empty float32 tensor of shape {0}
  static Tensor empty(const Shape& shape, DType dtype = DType::Float32);
  static Tensor uninitialized(const Shape& shape, DType dtype = DType::Float32);
  static Tensor zeros(const Shape& shape, DType dtype = DType::Float32);
  static Tensor full(const Shape& shape, float value);
  static Tensor scalar(float value);  // 0-dim float32
  template <class T> static Tensor from(const std::vector<T>& values, const Shape& shape) {
    Tensor t = empty(shape, dtype_of<T>());
    if (static_cast<int64_t>(values.size()) != t.numel())
      throw ValueError("Tensor.from: " + std::to_string(values.size()) + " values do not fill shape " +
                       shape_str(shape));
    std::copy(values.begin(), values.end(), t.data<T>());
    return t;
  }

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t size(int64_t d) const;  // negative d counts from the end, as in torch
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return static_cast<size_t>(numel_) * dtype_size(dtype_); }

  template <class T> T* data() {
    check_dtype(dtype_of<T>());
    return reinterpret_cast<T*>(bytes());
  }
  template <class T> const T* data() const {
    check_dtype(dtype_of<T>());
    return reinterpret_cast<const T*>(bytes());
  }
  template <class T> std::span<T> span() { return {data<T>(), static_cast<size_t>(numel_)}; }
  template <class T> std::span<const T> span() const { return {data<T>(), static_cast<size_t>(numel_)}; }
  std::byte* bytes() { return storage_ ? storage_->data() : nullptr; }
  const std::byte* bytes() const { return storage_ ? storage_->data() : nullptr; }

  Tensor clone() const;
  Tensor reshape(const Shape& shape) const;  // shares storage; one dim may be -1
  Tensor to(DType dtype) const;               // value cast (float->int truncates toward zero, as torch)
  float item() const;                          // one-element tensors only, as float
  bool same_storage(const Tensor& other) const { return storage_ == other.storage_; }

 private:
  // Inline, so that data<T>() is a compare and only a mismatch calls out to throw (engine/core/hot.h: in
  // wasm a call that may throw costs a trip through JavaScript).
  void check_dtype(DType want) const {
    if (want != dtype_) [[unlikely]] throw_dtype_mismatch(want);
  }
  [[noreturn]] void throw_dtype_mismatch(DType want) const;
  DType dtype_ = DType::Float32;
  Shape shape_{0};
  int64_t numel_ = 0;
  using Storage = std::vector<std::byte, NoFillAllocator<std::byte>>;
  static Tensor allocate(const Shape& shape, DType dtype, bool fill);
  std::shared_ptr<Storage> storage_;
};

}  // namespace pt
