// qparams.cpp — fuzz target: qparams math and the quantize ops (engine/quant/qparams.h, quantize.h,
// range_quantization.h, fake_quantize.h's choose_quantization_params): ranges given or not, of every dtype,
// reduce_range; min / max tensors of any values and shapes; scales of 0, denormal, NaN or Inf, zero points
// out of range, axes out of range, per-channel qparams of the wrong length; fake quant with its mask.
#include "fuzz_input.h"
#include "quant/fake_quantize.h"
#include "quant/quantize.h"
#include "quant/range_quantization.h"
#include "quant_input.h"

using namespace pt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  for (int step = 0; step < 6 && !in.empty(); ++step) {
    fuzz::expect_typed([&] {
      const int64_t qmin = in.edgy_int(), qmax = in.edgy_int();
      const DType dtype = fuzz::any_dtype(in);
      switch (in.byte() % 9) {
        case 0: calculate_qmin_qmax(fuzz::maybe_int(in), fuzz::maybe_int(in), dtype, in.flag()); break;
        case 1: {
          const Shape s = in.flag() ? Shape{} : Shape{in.range(0, 8)};
          calculate_qparams(in.tensor(s), in.tensor(in.flag() ? s : in.small_shape(0, 1)), qmin, qmax, fuzz::any_qscheme(in), dtype,
                            in.special_float(), in.flag());
          break;
        }
        case 2: {
          Tensor x = in.tensor(in.small_shape());
          Tensor q = quantize_per_tensor(x, in.special_double(), in.edgy_int(), qmin, qmax, dtype);
          dequantize_per_tensor(q, in.special_double(), in.edgy_int(), qmin, qmax, in.flag() ? dtype : q.dtype());
          break;
        }
        case 3: {
          Tensor x = in.tensor(in.small_shape(0, 4));
          const int64_t axis = in.range(-3, 4), c = in.range(0, 6);
          Tensor scales = in.tensor({c});
          Tensor zps = Tensor::zeros({in.flag() ? c : in.range(0, 6)}, in.flag() ? DType::Int32 : DType::Float32);
          Tensor q = quantize_per_channel(x, scales, zps, axis, qmin, qmax, dtype);
          dequantize_per_channel(q, scales, in.flag() ? std::optional<Tensor>(zps) : std::nullopt, axis, qmin, qmax, q.dtype());
          break;
        }
        case 4: {
          Tensor x = in.tensor(in.small_shape());
          if (in.flag()) choose_qparams(x, qmin, qmax, in.special_float(), dtype);
          else choose_qparams_symmetric(x, qmin, qmax, in.special_float(), dtype);
          break;
        }
        case 5: {
          Tensor x = in.tensor(in.small_shape());
          FakeQuantOutput o = fake_quantize_per_tensor_affine_cachemask(x, in.special_float(), in.edgy_int(), qmin, qmax);
          fake_quantize_backward(in.flag() ? x : in.tensor(in.small_shape()), o.mask);
          break;
        }
        case 6: {
          Tensor x = in.tensor(in.small_shape(0, 4));
          const int64_t c = in.range(0, 6);
          Tensor zp = Tensor::zeros({in.flag() ? c : in.range(0, 6)}, in.flag() ? DType::Int32 : DType::Float32);
          fake_quantize_per_channel_affine(x, in.tensor({c}), zp, in.range(-3, 4), qmin, qmax);
          break;
        }
        case 7: {
          const std::vector<float> v = in.floats(in.range(0, 256));
          range_quantization(v, in.special_double(), in.special_double(), RangeQuant{qmin, qmax, in.flag(), dtype});
          break;
        }
        default: {
          choose_quantization_params(in.special_float(), in.special_float(), static_cast<int32_t>(in.range(-300, 300)),
                                     static_cast<int32_t>(in.range(-300, 300)), in.flag());
          const Shape s = in.small_shape();
          (void)sqnr(in.tensor(s), in.flag() ? in.tensor(s) : in.tensor(in.small_shape()));
          break;
        }
      }
    });
  }
  return 0;
}
