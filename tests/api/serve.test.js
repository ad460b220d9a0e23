// serve.test.js — the last step of `npm start`: scripts/serve.js prints the URL (PORT overrides the
// port) and serves the site from the repo root, nothing outside it and nothing hidden.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

function startServe(port) {
  const child = spawn(process.execPath, ['scripts/serve.js'], { cwd: root, env: { ...process.env, PORT: String(port) } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ child, url: m[0], port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`serve.js exited ${code}: ${out}`)));
  });
}

test('serve.js prints its URL and serves index.html and the engine', async () => {
  const { child, url, port } = await startServe(0);
  try {
    assert.ok(port > 0);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /text\/html/);
    assert.equal(await res.text(), readFileSync(`${root}index.html`, 'utf8'));
    const wasm = await fetch(`${url}dist/pt2e_engine.wasm`);
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    for (const bad of ['.git/config', '..%2F..%2Fetc%2Fpasswd', 'nope.html', '%E0%A4%A']) {
      assert.ok([400, 404].includes((await fetch(url + bad)).status), bad);
    }
  } finally {
    child.kill();
  }
});

test('PORT chooses the port', async () => {
  const probe = await startServe(0);
  probe.child.kill();
  await new Promise((r) => probe.child.on('exit', r));
  const { child, port } = await startServe(probe.port);
  child.kill();
  assert.equal(port, probe.port);
});
