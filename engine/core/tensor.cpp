// tensor.cpp — storage, shape and dtype checks for pt::Tensor (see tensor.h).
#include "core/tensor.h"
#include "core/hot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

namespace pt {

size_t dtype_size(DType d) {
  switch (d) {
    case DType::Float32: return 4;
    case DType::Int8: return 1;
    case DType::UInt8: return 1;
    case DType::Int16: return 2;
    case DType::Int32: return 4;
  }
  return 4;
}

const char* dtype_name(DType d) {
  switch (d) {
    case DType::Float32: return "float32";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Int16: return "int16";
    case DType::Int32: return "int32";
  }
  return "float32";
}

namespace {
std::string without_torch_prefix(const std::string& name) {  // "torch.qint8" -> "qint8"
  return name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
}
}  // namespace

DType dtype_from_name(const std::string& raw) {
  const std::string n = without_torch_prefix(raw);
  if (n == "float32" || n == "float") return DType::Float32;
  if (n == "int8" || n == "qint8") return DType::Int8;
  if (n == "uint8" || n == "quint8") return DType::UInt8;
  if (n == "int16" || n == "short") return DType::Int16;
  if (n == "int32" || n == "int" || n == "qint32") return DType::Int32;
  throw TypeError("unknown dtype '" + raw + "': expected one of float32, int8, uint8, int16, int32");
}

bool is_quantized_dtype_name(const std::string& raw) {
  const std::string n = without_torch_prefix(raw);
  return n == "quint8" || n == "qint8" || n == "qint32";
}

const char* torch_dtype_name(DType d, bool quantized) {
  if (quantized && d == DType::UInt8) return "quint8";
  if (quantized && d == DType::Int8) return "qint8";
  if (quantized && d == DType::Int32) return "qint32";
  return dtype_name(d);
}

std::string shape_str(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t checked_numel(const Shape& shape, const char* what) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      throw ValueError(std::string(what) + " " + shape_str(shape) + ": every dimension must be >= 0, got " +
                       std::to_string(d));
    if (d != 0 && n > std::numeric_limits<int32_t>::max() / d)
      throw ValueError(std::string(what) + " " + shape_str(shape) + " has too many elements (limit 2^31-1)");
    n *= d;
  }
  return n;
}

int64_t checked_nbytes(const Shape& shape, DType dtype, const char* what) {
  const int64_t n = checked_numel(shape, what);  // < 2^31, so the product below cannot overflow int64
  const int64_t bytes = n * static_cast<int64_t>(dtype_size(dtype));
  if (bytes > kMaxTensorBytes)
    throw ValueError(std::string(what) + " " + shape_str(shape) + " has too many elements for " + dtype_name(dtype) +
                     ": " + std::to_string(bytes) + " bytes (limit 2^31-1 bytes per tensor)");
  return bytes;
}

Tensor::Tensor() : storage_(std::make_shared<Storage>()) {}

// The storage is allocated after every check; when the heap cannot hold it (wasm memory exhausted,
// or natively the system refusing), a RuntimeError names the shape, as torch's allocator does.
Tensor Tensor::allocate(const Shape& shape, DType dtype, bool fill) {
  const int64_t bytes = checked_nbytes(shape, dtype);
  Tensor t;
  try {
    t.storage_ = fill ? std::make_shared<Storage>(static_cast<size_t>(bytes), std::byte{0})
                      : std::make_shared<Storage>(static_cast<size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw RuntimeError("out of memory: cannot allocate " + std::to_string(bytes) + " bytes for a tensor of shape " +
                       shape_str(shape) + " (" + dtype_name(dtype) + ")");
  }
  t.numel_ = bytes / static_cast<int64_t>(dtype_size(dtype));
  t.shape_ = shape;
  t.dtype_ = dtype;
  return t;
}

Tensor Tensor::empty(const Shape& shape, DType dtype) { return allocate(shape, dtype, true); }
Tensor Tensor::zeros(const Shape& shape, DType dtype) { return allocate(shape, dtype, true); }
Tensor Tensor::uninitialized(const Shape& shape, DType dtype) { return allocate(shape, dtype, false); }

Tensor Tensor::full(const Shape& shape, float value) {
  Tensor t = uninitialized(shape);
  std::fill_n(t.data<float>(), t.numel(), value);
  return t;
}

Tensor Tensor::scalar(float value) { return full({}, value); }

int64_t Tensor::size(int64_t d) const {
  const int64_t n = dim();
  if (d < -n || d >= n)
    throw IndexError("Dimension out of range (expected to be in range of [" + std::to_string(-n) + ", " +
                     std::to_string(n - 1) + "], but got " + std::to_string(d) + ")");
  return shape_[static_cast<size_t>(d < 0 ? d + n : d)];
}

void Tensor::throw_dtype_mismatch(DType want) const {
  throw TypeError(std::string("expected a ") + dtype_name(want) + " tensor, got " + dtype_name(dtype_));
}

Tensor Tensor::clone() const {
  Tensor t = uninitialized(shape_, dtype_);
  if (nbytes()) std::memcpy(t.bytes(), bytes(), nbytes());
  return t;
}

Tensor Tensor::reshape(const Shape& shape) const {
  Shape s = shape;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == -1) {
      if (infer >= 0) throw RuntimeError("only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
    } else {
      if (s[i] < 0) throw RuntimeError("invalid shape dimension " + std::to_string(s[i]));
      // Saturated past int64 (no tensor has that many elements, so the shape is refused below).
      if (__builtin_mul_overflow(known, s[i], &known)) known = std::numeric_limits<int64_t>::max();
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel_ % known != 0)
      throw RuntimeError("shape '" + shape_str(shape) + "' is invalid for input of size " + std::to_string(numel_));
    s[static_cast<size_t>(infer)] = numel_ / known;
  }
  if (checked_numel(s) != numel_)
    throw RuntimeError("shape '" + shape_str(shape) + "' is invalid for input of size " + std::to_string(numel_));
  Tensor t = *this;
  t.shape_ = s;
  return t;
}

namespace {
template <class From, class To> PT_HOT_LOOP void cast_into(const From* src, To* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<To>(src[i]);
}
// Whether every value converts to an integer of [lo, hi] by truncation (NaN and ±inf do not); a value outside
// would be undefined behaviour in C++ and differs between machines in torch.
PT_HOT_LOOP bool all_in_range(std::span<const float> x, double lo, double hi) {
  for (float v : x)
    if (!(v > lo - 1.0 && v < hi + 1.0)) return false;
  return true;
}
std::pair<double, double> int_range(DType d) {
  switch (d) {
    case DType::Int8: return {-128, 127};
    case DType::UInt8: return {0, 255};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {-2147483648.0, 2147483647.0};
    case DType::Float32: break;
  }
  return {-HUGE_VAL, HUGE_VAL};
}
template <class From> void cast_from(const From* src, Tensor& out) {
  const int64_t n = out.numel();
  switch (out.dtype()) {
    case DType::Float32: cast_into(src, out.data<float>(), n); break;
    case DType::Int8: cast_into(src, out.data<int8_t>(), n); break;
    case DType::UInt8: cast_into(src, out.data<uint8_t>(), n); break;
    case DType::Int16: cast_into(src, out.data<int16_t>(), n); break;
    case DType::Int32: cast_into(src, out.data<int32_t>(), n); break;
  }
}
}  // namespace

Tensor Tensor::to(DType dtype) const {
  if (dtype == dtype_) return clone();
  Tensor out = empty(shape_, dtype);
  if (dtype_ == DType::Float32 && dtype != DType::Float32) {
    const auto [lo, hi] = int_range(dtype);
    if (!all_in_range(span<float>(), lo, hi))
      throw ValueError(std::string("cannot cast float32 to ") + dtype_name(dtype) + ": a value is non-finite or outside [" +
                       std::to_string(static_cast<int64_t>(lo)) + ", " + std::to_string(static_cast<int64_t>(hi)) + "]");
  }
  switch (dtype_) {
    case DType::Float32: cast_from(data<float>(), out); break;
    case DType::Int8: cast_from(data<int8_t>(), out); break;
    case DType::UInt8: cast_from(data<uint8_t>(), out); break;
    case DType::Int16: cast_from(data<int16_t>(), out); break;
    case DType::Int32: cast_from(data<int32_t>(), out); break;
  }
  return out;
}

float Tensor::item() const {
  if (numel_ != 1)
    throw RuntimeError("a Tensor with " + std::to_string(numel_) + " elements cannot be converted to Scalar");
  switch (dtype_) {  // as to(Float32) of the one element
    case DType::Float32: return data<float>()[0];
    case DType::Int8: return static_cast<float>(data<int8_t>()[0]);
    case DType::UInt8: return static_cast<float>(data<uint8_t>()[0]);
    case DType::Int16: return static_cast<float>(data<int16_t>()[0]);
    case DType::Int32: return static_cast<float>(data<int32_t>()[0]);
  }
  throw RuntimeError("item: unknown dtype");
}

}  // namespace pt
