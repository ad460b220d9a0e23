// test_kernels.cpp — the kernel tester's checks over its table (kernel_table.h: one row per kernel of
// engine/kernels, how to draw its arguments): every kernel has a row, every variant returns its scalar
// reference's bits, and the tester reports a deliberately broken variant (kernel_tester.h runs the loop).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "kernel_table.h"
#include "kernels/kernels.h"

namespace {

using namespace pt::kernels;

// The scalar result with one bit flipped in one element: the last count, from 1000 elements on.
AMinMax broken_histc_aminmax(const float* x, size_t n, HistcRange range, uint32_t* counts) noexcept {
  const AMinMax s = f32_histc_aminmax.reference().fn(x, n, range, counts);
  if (n >= 1000) counts[4 * range.bins - 1] ^= 1u;
  return s;
}

}  // namespace

TEST_CASE("the kernel tester has a row for every kernel in engine/kernels") {
  std::vector<std::string> rows;
  for (const kt::KernelUnderTest& k : kernels_under_test()) rows.push_back(k.name);
  for (std::string_view name : kernel_names()) {
    INFO("kernel " << name);
    CHECK(std::find(rows.begin(), rows.end(), std::string(name)) != rows.end());
  }
}

TEST_CASE("every kernel variant returns its scalar reference's bits") {
  for (const kt::KernelUnderTest& k : kernels_under_test()) {
    REQUIRE(k.isas.size() >= 2);  // a kernel without a variant beside its reference tests nothing
    const kt::Result res = kt::check(k);
    std::string variants;
    for (const std::string& isa : k.isas) variants += (variants.empty() ? "" : ", ") + isa;
    std::cout << "kernel tester: " << k.name << " [" << variants << "]: " << res.calls
              << " calls, sizes 0.." << res.largest << ": " << (res.mismatch.empty() ? "all bits equal" : res.mismatch)
              << "\n";
    INFO(res.mismatch);
    CHECK(res.mismatch.empty());
    CHECK(res.calls > 100);
  }
}

TEST_CASE("the kernel tester reports a broken variant: kernel, variant, shape, first differing element") {
  const Variant<HistcAMinMaxFn> variants[] = {f32_histc_aminmax.reference(), {"broken", broken_histc_aminmax, 4}};
  const Kernel<HistcAMinMaxFn> broken{"f32_histc_aminmax", variants};
  const kt::Result res = kt::check(kt::under_test(broken, draw_histc_aminmax));
  std::cout << "kernel tester, self-test: " << res.mismatch << "\n";
  REQUIRE(!res.mismatch.empty());
  CHECK(res.mismatch.rfind("f32_histc_aminmax: variant broken differs from the scalar reference on n=", 0) == 0);
  // The shape names n and bins; the element is the last count, n is the first size from 1000 on.
  long long n = 0, bins = 0;
  REQUIRE(std::sscanf(res.mismatch.c_str() + res.mismatch.find("n="), "n=%lld bins=%lld", &n, &bins) == 2);
  CHECK(n == 1000);
  const std::string element = "counts[" + std::to_string(4 * bins - 1) + "]";
  CHECK(res.mismatch.find("first difference " + element + " = ") != std::string::npos);
}
