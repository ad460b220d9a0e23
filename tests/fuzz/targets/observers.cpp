// observers.cpp — fuzz target: observer and fake-quantize options and inputs (engine/quant/observer.h,
// fake_quantize.h, histogram_observer.h): any registered class (or a name none has) built by make_observer
// with any subset of the keyword table (quant/observer_kwargs.h) at edgy values, then fed tensors of NaN,
// ±Inf, -0, denormals, empty and huge values, in any shape and any number of batches, with the fake-quant
// switches flipped between them; calculate_qparams and the buffers read after each.
#include "fuzz_input.h"
#include "quant/fake_quantize.h"
#include "quant_input.h"

using namespace pt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  return fuzz::expect_typed([&] {
    std::unique_ptr<ObserverBase> obs = make_observer(fuzz::observer_name(in), fuzz::observer_args(in));
    const Shape shape = in.small_shape(0, 4);  // one shape per observer, as a model feeds it (sometimes another)
    for (int batch = 0, n = static_cast<int>(in.range(1, 6)); batch < n; ++batch) {
      if (auto* fq = dynamic_cast<FakeQuantizeBase*>(obs.get()); fq && in.byte() % 4 == 0) {
        fq->enable_observer(in.flag());
        fq->enable_fake_quant(in.flag());
      }
      fuzz::expect_typed([&] { obs->forward(in.tensor(in.byte() % 8 == 0 ? in.small_shape(0, 4) : shape)); });
      fuzz::expect_typed([&] { (void)obs->calculate_qparams(); });
      for (const auto& [name, t] : obs->named_buffers()) (void)t.numel();
    }
  });
}
