// engine.spec.js — the page starts: "pt2e: ready" with the home view drawn, the browser takes SIMD128 wasm, and the
// engine module computes torch.randn bit for bit.
import { detail, expect, sharedPage, test } from '../fixtures.js';

let page, readyLine;
sharedPage('', (p, line) => { page = p; readyLine = line; });

test('page logs "pt2e: ready" with one view drawn', async () => {
  expect(readyLine).toMatch(/^pt2e: ready.*1 view drawn with WebGL2/);
  detail(readyLine);
});

test('browser validates a WebAssembly SIMD128 module', async () => {
  const ok = await page.evaluate(() => WebAssembly.validate(new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11])));
  expect(ok, 'WebAssembly.validate(v128.const module)').toBe(true);
});

test('engine module (built with -msimd128) instantiated and computes torch.randn', async () => {
  const r = await page.evaluate(() => {
    const { pt } = window.pt2e;
    return pt.scope(() => { pt.manual_seed(0); return Array.from(pt.randn([3]).data()); });
  });
  const want = [1.5409960746765137, -0.293428897857666, -2.1787893772125244];  // torch.manual_seed(0); torch.randn(3)
  r.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(1e-6));
});
