// vpu.h — the fictional VPU's integer-only simulation (lesson M10-1): a graph that VPUQuantizer
// (pt2e/quantizers/vpu_quantizer.h) annotated and convert_pt2e converted, lowered so that every op runs
// on integer codes and every requantization is a shift.
//
//   pt::Lowered sim = pt::simulate_vpu(converted);
//   sim.gm.forward({x});      // int8 codes between the ops, int16 Q3.12 codes at the output
//   sim.report.nodes ...      // every node of `converted` delegated (the input quantize and output
//                             // dequantize stay: the boundary)
//
// It is lower() (lower.h) with int8 activations and RequantKind::shift_even: with power-of-two scales the
// multiplier s_in·s_w / s_out of conv2d / linear is 2^-s, so requantization is acc + bias shifted right
// by s rounding half to even (or left, exactly, when s < 0) — what quantize's round does to the float
// value, which dq → op → q computes exactly (integers times powers of two, sums below 2^24), so the
// simulation equals the fake-quant graph bit for bit. add sums two codes of one scale (the shared add
// scale) and shifts; the means sum a power-of-two count of codes and shift; max_pool2d, cat and flatten
// copy codes. The output op writes int16 codes (i32_requantize's two-byte output).
//
// Errors (typed, naming the node; `converted` is never changed): not converted, mismatched qparams
// (max_pool2d / cat / flatten / add inputs of different scales) — ValueError from lower(); a scale that is
// no power of two reaching a shift — ValueError "node conv2d (...): requantization: a shift needs a
// multiplier 2^-s ..."; a node that stays float (an op the VPU cannot run, a pattern lower() does not
// match) — NotImplementedError "simulate_vpu: node <name> (<target>) stays float: <why>".
#pragma once
#include "lower/lower.h"

namespace pt {

Lowered simulate_vpu(const GraphModule& converted);

}  // namespace pt
