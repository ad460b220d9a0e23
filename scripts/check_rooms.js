// check_rooms.js — the room-order check: every `#include "…"` under engine/ and web/ may only point to
// its own room or one before it in the room order, and nothing in engine/ may include web/.
//
//   node scripts/check_rooms.js [root]      prints each violation as file:line and exits 1 if any
//   import { checkRooms } from './check_rooms.js'; checkRooms(root) -> { order, includes, violations }
//
// The order: the engine rooms as CMakeLists.txt's `set(PT_ROOMS …)` lists them (core → kernels → ops →
// quant → graph → pt2e → lower → train), then web's C++ rooms, views and bindings (the Embind layer
// sits on top: it may include views, views may not include it). A quoted include is resolved as the
// compiler does with CMake's include directories: next to the including file, then engine/, then
// web/views/; one that resolves outside engine/ and web/ (Dear ImGui, system headers) is not ours and
// is skipped. A C++ file in a folder that is not a room is itself a violation: CMake would not build it.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_ROOMS = ['views', 'bindings'];
const SOURCE = /\.(h|hpp|cpp|cc|inc)$/;
const INCLUDE = /^\s*#\s*include\s*"([^"]+)"/;

// The engine's rooms in order, from the one line of CMakeLists.txt that lists them.
export function engineRooms(root) {
  const m = readFileSync(path.join(root, 'CMakeLists.txt'), 'utf8').match(/^\s*set\(PT_ROOMS\s+([^)]*)\)/m);
  if (!m) throw new Error(`${path.join(root, 'CMakeLists.txt')}: no set(PT_ROOMS ...) line`);
  return m[1].trim().split(/\s+/);
}

function sources(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .filter((f) => SOURCE.test(f) && statSync(path.join(dir, f)).isFile())
    .map((f) => path.join(dir, f));
}

export function checkRooms(root) {
  const order = [...engineRooms(root).map((r) => `engine/${r}`), ...WEB_ROOMS.map((r) => `web/${r}`)];
  const rank = new Map(order.map((r, i) => [r, i]));
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');
  const roomOf = (f) => rel(f).split('/').slice(0, 2).join('/');  // 'engine/quant', 'web/views'
  const ours = (f) => /^(engine|web)\//.test(rel(f));
  const resolve = (from, name) =>
    [path.dirname(from), path.join(root, 'engine'), path.join(root, 'web/views')]
      .map((dir) => path.resolve(dir, name))
      .find((f) => existsSync(f));

  const violations = [];
  let includes = 0;
  for (const file of [...sources(path.join(root, 'engine')), ...sources(path.join(root, 'web'))]) {
    const from = roomOf(file);
    if (!rank.has(from)) {
      violations.push(`${rel(file)}:1: ${from}/ is not a room (the order is ${order.join(' → ')}; engine rooms are CMakeLists.txt's PT_ROOMS)`);
      continue;
    }
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const m = line.match(INCLUDE);
      if (!m) return;
      const target = resolve(file, m[1]);
      if (!target || !ours(target)) return;
      includes += 1;
      const to = roomOf(target);
      const where = `${rel(file)}:${i + 1}: #include "${m[1]}"`;
      if (from.startsWith('engine/') && to.startsWith('web/')) {
        violations.push(`${where} reaches from engine/ into web/ (${rel(target)}): the engine knows nothing of the web side`);
      } else if (!rank.has(to)) {
        violations.push(`${where} reaches ${rel(target)}, which is in no room`);
      } else if (rank.get(to) > rank.get(from)) {
        violations.push(`${where} runs up the room order: ${from} includes ${to} (order: ${order.join(' → ')})`);
      }
    });
  }
  return { order, includes, violations };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const { order, includes, violations } = checkRooms(root);
  for (const v of violations) console.log(v);
  console.log(`check_rooms: ${includes} includes in ${order.join(' → ')}: ${violations.length} violation(s)`);
  process.exit(violations.length ? 1 : 0);
}
