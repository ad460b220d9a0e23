// check_rooms.test.js — the room-order check (scripts/check_rooms.js): the repository passes it, and on
// a small tree written to a temp folder it catches each kind of bad include, naming file:line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRooms } from '../../scripts/check_rooms.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// A tree that keeps the order: CMakeLists.txt's room line, includes of the own room, of lower rooms,
// from web into the engine, and two that are not ours (imgui.h, <cstdint>).
const good = {
  'CMakeLists.txt': 'set(PT_ROOMS core kernels ops quant)\n',
  'engine/core/tensor.h': '#pragma once\n',
  'engine/kernels/kernels.h': '#pragma once\n#include <cstdint>\n',
  'engine/kernels/f32_x/scalar.cpp': '#include "kernels/kernels.h"\n#include "core/tensor.h"\n',
  'engine/quant/observer.h': '#include "core/tensor.h"\n#include "kernels/kernels.h"\n#include "observer_impl.h"\n',
  'engine/quant/observer_impl.h': '#pragma once\n',
  'web/views/view.h': '#include "imgui.h"\n#include "quant/observer.h"\n',
  'web/bindings/bind.cpp': '#include "view.h"\n#include "quant/observer.h"\n',
};

// checkRooms on `good` plus the given files (path -> text), written to a temp folder.
function checkTree(files) {
  const root = mkdtempSync(path.join(tmpdir(), 'rooms-'));
  try {
    for (const [f, text] of Object.entries({ ...good, ...files })) {
      mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      writeFileSync(path.join(root, f), text);
    }
    return checkRooms(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the repository keeps the room order', () => {
  const { order, includes, violations } = checkRooms(repo);
  assert.deepEqual(violations, []);
  assert.deepEqual(order.slice(0, 4), ['engine/core', 'engine/kernels', 'engine/ops', 'engine/quant']);
  assert.ok(includes > 100, `only ${includes} includes found`);
});

test('includes of the own room, of lower rooms and from web into the engine pass; third-party ones are skipped', () => {
  const { includes, violations } = checkTree({});
  assert.deepEqual(violations, []);
  assert.equal(includes, 8);
});

test('a lower room including a higher one fails, naming file:line', () => {
  const { violations } = checkTree({ 'engine/kernels/f32_x/wasmsimd.cpp': '// a kernel\n#include "kernels/kernels.h"\n#include "quant/observer.h"\n' });
  assert.equal(violations.length, 1);
  assert.match(violations[0], /^engine\/kernels\/f32_x\/wasmsimd\.cpp:3: #include "quant\/observer\.h" runs up the room order: engine\/kernels includes engine\/quant/);
});

test('a relative include is resolved before its room is judged', () => {
  const { violations } = checkTree({ 'engine/core/tensor.cpp': '#include "tensor.h"\n#include "../quant/observer.h"\n' });
  assert.equal(violations.length, 1);
  assert.match(violations[0], /^engine\/core\/tensor\.cpp:2: .* engine\/core includes engine\/quant/);
});

test('the engine including web/ fails, and so does views including bindings', () => {
  const { violations } = checkTree({
    'engine/quant/draw.cpp': '#include "view.h"\n',
    'web/bindings/common.h': '#pragma once\n',
    'web/views/chart.cpp': '#include "view.h"\n#include "../bindings/common.h"\n',
  });
  assert.equal(violations.length, 2);
  assert.match(violations[0], /^engine\/quant\/draw\.cpp:1: #include "view\.h" reaches from engine\/ into web\/ \(web\/views\/view\.h\)/);
  assert.match(violations[1], /^web\/views\/chart\.cpp:2: .* web\/views includes web\/bindings/);
});

test('C++ in a folder that is not a room fails', () => {
  const { violations } = checkTree({ 'engine/extras/helper.cpp': '#include "core/tensor.h"\n' });
  assert.equal(violations.length, 1);
  assert.match(violations[0], /^engine\/extras\/helper\.cpp:1: engine\/extras\/ is not a room/);
});
