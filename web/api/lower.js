// lower.js — lowering a converted graph to integer kernels (engine/lower), and the delegation report:
//   const lowered = pt.lower(converted, 'xnnpack');          // or 'x86'; { requantization: 'fixed_point' }
//   lowered.forward(x);                                      // int8 ops on the SIMD128 kernels
//   lowered.delegation_info                                  // { num_delegated_subgraphs, num_delegated_nodes,
//                                                            //   num_non_delegated_nodes, nodes: [{ name, target,
//                                                            //   delegated, lowered_as, reason }] }
//   pt.integer_picture(lowered, 'conv2d', x, { index: 5 })  // one output element step by step (M07): the codes it
//                                                            // reads, weights, products, int32 accumulator, bias,
//                                                            // multiplier, requantized code (engine/lower/integer_picture.h);
//                                                            // an x86 op with a float output: float_output, bias_f32, relu, output_f32
//   pt.integer_picture(lowered, 'conv2d', x, { indices: [32, 33, 34] })  // an array of such pictures, in that order,
//                                                            // from one run of the graph (at most max_integer_pictures)
//   const sim = pt.simulate_vpu(converted);                 // the fictional VPU (M10-1, engine/lower/vpu.h): every op on
//   sim.forward(x); sim.delegation_info                      // integer codes, every requantization a shift (shift_even)
//   const et = pt.to_edge_transform_and_lower(converted, { partitioner: [new pt.XnnpackPartitioner()] });
//   et.exported_program();  et.delegation_info               // the same for XNNPACK, with ExecuTorch's names
// Two spellings, because learners meet two: for XNNPACK they run ExecuTorch's to_edge_transform_and_lower
// with an XnnpackPartitioner, while x86 has no partitioner (Inductor lowers a torch.compile'd model), so
// pt.lower(converted, backend) names the backend directly. The report's numbers are ExecuTorch's
// get_delegation_info's; `nodes` lists every call_function node of the converted graph, so a lesson can
// table it and a graph view of the converted graph can mark what was delegated (delegated nodes of the
// lowered graph have kind 'delegate').
import { show } from './engine.js';

export function installLower(pt, M, tools) {
  const { call } = tools;
  const E = pt.errors;
  const backends = ['xnnpack', 'x86'];
  // The engine's names (lower.h requant_names) but f32_output, the float output stage lowering picks itself.
  const requantizations = M.requant_names().filter((name) => name !== 'f32_output');

  const withReport = (r) => {
    const gm = pt.wrapGraphModule(r.gm);
    gm.delegation_info = r.report;
    return gm;
  };

  pt.lower = (converted, backend = 'xnnpack', options) => {
    const { requantization = 'fp32' } = pt.check.options('lower', options, 'options', ['requantization']);
    if (!backends.includes(backend)) throw new E.ValueError(`lower(): backend must be one of ${backends.join(', ')}, got ${show(backend)}`);
    if (!requantizations.includes(requantization)) {
      throw new E.ValueError(`lower(): requantization must be one of ${requantizations.join(', ')}, got ${show(requantization)}`);
    }
    return withReport(call(M.lower, pt.gmArg('lower', converted), backend, requantization));
  };

  pt.simulate_vpu = (converted) => withReport(call(M.simulate_vpu, pt.gmArg('simulate_vpu', converted)));

  // An output element's flat index, as given: an exact integer (an inexact one is outside every output).
  const anIndex = (v, name) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new E.TypeError(`integer_picture(): argument '${name}' must be an integer, got ${show(v)}`);
    if (!Number.isSafeInteger(v)) throw new E.ValueError(`integer_picture(): argument '${name}' (${v}) is outside any output`);
    return v;
  };
  // { index } (0 when neither is given) pictures one element, { indices } many from one run of the graph.
  pt.integer_picture = (lowered, node, inputs, options) => {
    const { index, indices } = pt.check.options('integer_picture', options, 'options', ['index', 'indices']);
    if (index !== undefined && indices !== undefined) throw new E.ValueError("integer_picture(): give 'index' or 'indices', not both");
    const xs = (Array.isArray(inputs) ? pt.check.list('integer_picture', inputs, 'inputs') : [inputs]).map((x, i) => {
      if (!(x instanceof pt.Tensor)) throw new E.TypeError(`integer_picture(): input ${i} must be a Tensor, got ${typeof x}`);
      return x.handle;
    });
    const list = indices === undefined ? [anIndex(index ?? 0, 'index')]
      : pt.check.list('integer_picture', indices, 'indices', M.max_integer_pictures).map((v, i) => anIndex(v, `indices[${i}]`));
    const name = typeof node === 'object' && node !== null ? String(node.name) : String(node);
    const pictures = call(M.integer_pictures, pt.gmArg('integer_picture', lowered), name, xs, list);
    return indices === undefined ? pictures[0] : pictures;
  };

  // ExecuTorch backends/xnnpack/partition/xnnpack_partitioner.py XnnpackPartitioner.
  class XnnpackPartitioner {
    constructor(options) {
      const { requantization = 'fp32' } = pt.check.options('XnnpackPartitioner', options, 'options', ['requantization']);
      this.backend = 'xnnpack';
      this.requantization = requantization;
    }
  }
  pt.XnnpackPartitioner = XnnpackPartitioner;

  // executorch.exir.to_edge_transform_and_lower: one partitioner here (the engine lowers for one backend).
  pt.to_edge_transform_and_lower = (program, options) => {
    const { partitioner = [] } = pt.check.options('to_edge_transform_and_lower', options, 'options', ['partitioner']);
    const parts = Array.isArray(partitioner) ? partitioner : [partitioner];
    if (parts.length !== 1 || !(parts[0] instanceof XnnpackPartitioner)) {
      throw new E.ValueError('to_edge_transform_and_lower(): pass partitioner: [new pt.XnnpackPartitioner()]');
    }
    const gm = pt.lower(program, 'xnnpack', { requantization: parts[0].requantization });
    return { exported_program: () => gm, delegation_info: gm.delegation_info };
  };
}
