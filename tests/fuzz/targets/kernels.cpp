// kernels.cpp — fuzz target: the kernels of engine/kernels (the integer kernels lowering runs, and the float
// ones) against their scalar references. Each input picks a row of the kernel tester's table
// (tests/engine/kernels/kernel_table.h), a size (usually small, around the variants' lanes, sometimes up to
// 5 000) and a seed for the row's draws (shapes, strides, values with their extremes), then runs the drawn
// call on every variant: a variant that returns other bits than the reference is a finding, and so is any
// read or write outside the exactly sized buffers the row allocates (ASan).
#include <stdexcept>

#include "../../engine/kernels/kernel_table.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pt::fuzz::Input in(data, size);
  static const std::vector<kt::KernelUnderTest> rows = kernels_under_test();
  const kt::KernelUnderTest& k = in.pick(rows);
  const size_t lanes = k.lanes.back();
  const size_t n = static_cast<size_t>(in.flag() ? in.range(0, 4 * static_cast<int64_t>(lanes) + 3) : in.range(0, 5000));
  kt::Rng r{(static_cast<uint64_t>(in.u32()) << 32) | in.u32()};
  const kt::KernelUnderTest::Drawn call = k.draw(r, n);
  const kt::VariantDifference d = kt::variant_difference(k, call);
  if (!d.difference.empty())
    throw std::logic_error(k.name + ": variant " + d.variant + " differs from the reference on " + call.shape + ": " + d.difference);
  return 0;
}
