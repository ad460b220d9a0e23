// test_tensor.cpp — pt::Tensor: shapes, dtypes, storage sharing and typed errors.
#include <catch2/catch.hpp>

#include "core/tensor.h"

using namespace pt;

TEST_CASE("Tensor holds a contiguous block of one dtype", "[tensor]") {
  Tensor t = Tensor::zeros({2, 3}, DType::Int16);
  CHECK(t.numel() == 6);
  CHECK(t.dim() == 2);
  CHECK(t.size(-1) == 3);
  CHECK(t.nbytes() == 12);
  CHECK(t.data<int16_t>()[5] == 0);
  CHECK_THROWS_AS(t.data<float>(), TypeError);
  CHECK(Tensor::scalar(2.5f).dim() == 0);
  CHECK(Tensor::scalar(2.5f).item() == 2.5f);
}

TEST_CASE("copies share storage, clone does not", "[tensor]") {
  Tensor a = Tensor::full({4}, 1.0f);
  Tensor b = a;
  Tensor c = a.clone();
  a.data<float>()[0] = 7.0f;
  CHECK(b.data<float>()[0] == 7.0f);
  CHECK(c.data<float>()[0] == 1.0f);
  CHECK(a.reshape({2, -1}).shape() == Shape{2, 2});
  CHECK(a.reshape({2, 2}).same_storage(a));
}

TEST_CASE("bad shapes and dtypes raise typed errors", "[tensor][errors]") {
  CHECK_THROWS_AS(Tensor::empty({2, -1}), ValueError);
  CHECK_THROWS_WITH(Tensor::empty({-3}), Catch::Contains("shape [-3]"));
  CHECK_THROWS_WITH(Tensor::full({4}, 0.f).reshape({3, -1}), "shape '[3, -1]' is invalid for input of size 4");
  CHECK_THROWS_AS(Tensor::full({4}, 0.f).reshape({3, -1}), RuntimeError);
  CHECK_THROWS_WITH(Tensor::full({4}, 0.f).reshape({-1, -1}), "only one dimension can be inferred");
  CHECK_THROWS_WITH(Tensor::full({4}, 0.f).item(), "a Tensor with 4 elements cannot be converted to Scalar");
  CHECK_THROWS_AS(Tensor::full({4}, 0.f).size(2), IndexError);
  CHECK_THROWS_AS(dtype_from_name("complex64"), TypeError);
  CHECK(dtype_from_name("torch.qint8") == DType::Int8);
  CHECK_THROWS_AS(Tensor::full({2}, 1.f).item(), RuntimeError);
}

TEST_CASE("dtype casts follow torch", "[tensor]") {
  Tensor f = Tensor::from<float>({-1.7f, 2.9f, 0.f}, {3});
  Tensor i = f.to(DType::Int32);
  CHECK(i.data<int32_t>()[0] == -1);
  CHECK(i.data<int32_t>()[1] == 2);
  Tensor back = i.to(DType::Float32);
  CHECK(back.data<float>()[1] == 2.0f);
}
