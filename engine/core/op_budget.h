// op_budget.h — the most work one op call may do, checked before the op allocates or loops.
//
// A tensor holds at most kMaxTensorBytes (tensor.h), which bounds every op whose work follows its tensors
// (elementwise ops, reductions, quantize). Some ops do more work than their tensors hold: conv2d and linear
// (multiply-accumulates: output elements × the reduction length), the pooling ops (output elements × the
// window). Their arguments can be small and legal and still ask for hours: a 3×3 conv from 512 to 512
// channels over one 1024×2048 image is 4.9·10^12 multiply-accumulates. torch would start and run as long
// as it takes; the engine has no way to stop a call once it runs (a learner's cell in the page has its
// time limit, a script in Node has none), so such a call is refused up front with a RuntimeError naming
// the op, its shapes and its work.
//
// The bound, kMaxOpWork = 2^35 ≈ 3.4·10^10 steps, is generous: a batch of 64 32×32 images through a 3×3
// conv from 32 to 32 channels (bigger than any call of the lessons) is 6·10^8; 2^35 is tens of seconds
// of the engine in the browser.
//
//   pt::check_op_work("conv2d", "input [1, 512, 1024, 2048] and weight [512, 512, 3, 3]", {N, O, OH, OW, K});
//   pt::check_op_work("int8.conv2d", [&] { return "input " + shape_str(x.shape()); }, {N, O, P, K});
#pragma once
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/error.h"

namespace pt {

// The fuzz build lowers it (CMakeLists.txt, PT_FUZZ): under ASan an input that stays inside 2^35 can run for
// minutes, which libFuzzer reports as a timeout; at 2^26 the same paths are refused or run in milliseconds.
#ifndef PT_MAX_OP_WORK_LOG2
#define PT_MAX_OP_WORK_LOG2 35
#endif
inline constexpr int64_t kMaxOpWork = int64_t{1} << PT_MAX_OP_WORK_LOG2;

// The product of `factors` (each >= 0), saturating instead of overflowing; a RuntimeError when it exceeds
// kMaxOpWork. `op` names the op and `what` its arguments in the message: a string, or a function that
// returns one, so a hot op's call builds the text only when it throws.
template <typename What>
void check_op_work(std::string_view op, const What& what, std::initializer_list<int64_t> factors) {
  int64_t work = 1;
  for (int64_t f : factors) {
    if (f <= 0) return;  // nothing to do
    work = work > std::numeric_limits<int64_t>::max() / f ? std::numeric_limits<int64_t>::max() : work * f;
  }
  if (work <= kMaxOpWork) return;
  std::string text;
  if constexpr (std::is_invocable_v<const What&>) text = what();
  else text = what;
  throw RuntimeError(std::string(op) + ": " + text + " would take " + std::to_string(work) +
                     " multiply-accumulates or window reads, more than one op call may do (2^35; engine/core/op_budget.h)");
}

}  // namespace pt
