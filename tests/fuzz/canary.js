// canary.js — proof that the engine still works after an error: manual_seed(0); randn([5]) must give
// torch's float32 bits exactly (tests/golden/random/randn_seed0_n5.bin, written by torch 1.13 through
// tests/golden/gen_random.py). Used after every failure by the JS fuzzer (tests/fuzz/js_api.fuzz.js),
// the soak (tests/fuzz/soak.js) and the allocation tests (tests/api/allocation.test.js).
//
//   import { canary } from '../fuzz/canary.js';
//   canary(pt);   // throws an Error saying what came back instead
import { readFileSync } from 'node:fs';

const golden = new Float32Array(new Uint8Array(readFileSync(new URL('../golden/random/randn_seed0_n5.bin', import.meta.url))).buffer);

export function canary(pt) {
  let got;
  try {
    got = pt.scope(() => {
      pt.manual_seed(0);
      return Array.from(pt.randn([5]).data());
    });
  } catch (e) {
    throw new Error(`canary: manual_seed(0); randn([5]) threw ${e?.name}: ${e?.message}`);
  }
  if (got.length !== 5 || got.some((v, i) => !Object.is(v, golden[i]))) {
    throw new Error(`canary: manual_seed(0); randn([5]) gave [${got}], torch gives [${Array.from(golden)}]`);
  }
}
