// tensor.cpp — fuzz target: tensor construction from data and shapes (engine/core/tensor.h, the generator and
// distributions of engine/core): shapes small, empty, negative, overflowing or past kMaxTensorBytes; every
// dtype; reshape (with -1), to(dtype) of NaN / ±Inf / huge values, item, clone; randn / rand / uniform_ /
// normal_ / student_t / chi2 with any parameters. Bad input must be a typed error, raised before allocating.
#include "core/distributions.h"
#include "core/generator.h"
#include "fuzz_input.h"

using namespace pt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  static const std::vector<DType> dtypes = {DType::Float32, DType::Int8, DType::UInt8, DType::Int16, DType::Int32};
  manual_seed(static_cast<uint64_t>(in.edgy_int()));
  for (int step = 0; step < 8 && !in.empty(); ++step) {
    fuzz::expect_typed([&] {
      const Shape s = in.shape();
      switch (in.byte() % 9) {
        case 0: {
          Tensor t = Tensor::zeros(s, in.pick(dtypes));
          if (t.numel() > fuzz::Input::kSmallNumel) __builtin_trap();  // the shape check let a big one through
          t.reshape(in.shape()).clone();
          break;
        }
        case 1: Tensor::full(s, in.special_float()).to(in.pick(dtypes)); break;
        case 2: {
          Tensor t = in.flag() ? randn(s) : rand(s);
          if (t.numel() == 1) (void)t.item();
          break;
        }
        case 3: {
          Tensor t = Tensor::empty(s);
          if (in.flag()) uniform_(t, in.special_double(), in.special_double());
          else normal_(t, in.special_double(), in.special_double());
          break;
        }
        case 4: student_t(in.special_double(), s); break;
        case 5: chi2(in.special_double(), s); break;
        case 6: {
          const Shape small = in.small_shape();
          Tensor t = in.tensor(small);
          Shape r = in.shape();
          if (!r.empty() && in.flag()) r[static_cast<size_t>(in.range(0, static_cast<int64_t>(r.size()) - 1))] = -1;
          t.reshape(r);
          break;
        }
        case 7: {
          const Shape small = in.small_shape();
          in.tensor(small).to(in.pick(dtypes)).to(DType::Float32).item();
          break;
        }
        default: {
          std::vector<float> v = in.floats(in.range(0, 64));
          Tensor::from(v, s);
          (void)dtype_from_name(in.name({"float32", "int8", "quint8", "torch.int32", "short", "qint32"}));
          break;
        }
      }
    });
  }
  return 0;
}
