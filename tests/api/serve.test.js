// serve.test.js — the last step of `npm start`: scripts/serve.js prints the URL (PORT overrides the
// port) and serves the site from the repo root, nothing outside it and nothing hidden, every response
// with the site's security headers (scripts/site_headers.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
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

// A request sent exactly as written (fetch and new URL would normalise '..' away before it leaves).
function rawGet(port, rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serve.js refuses traversal in every encoding, hidden files and links out of the site', async () => {
  const { startServer } = await import('../../scripts/serve.js');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'pt2e-serve-'));
  writeFileSync(path.join(tmp, 'secret.txt'), 'secret');
  const link = path.join(root, 'web', 'e2e-link-out-of-site');
  symlinkSync(tmp, link);
  const { url, close } = await startServer({ port: 0 });
  const port = Number(new URL(url).port);
  try {
    assert.equal(await rawGet(port, '/web/app/lesson.js'), 200);
    const refused = [
      '/../../../../etc/passwd', '/web/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      '/..%2f..%2f..%2fetc%2fpasswd', '/web/app/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/..%5c..%5cetc%5cpasswd', '/web\\..\\..\\etc\\passwd',
      '/%252e%252e/%252e%252e/etc/passwd', '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd', '/%e0%80%ae%e0%80%ae/etc/passwd',
      '/.git/config', '/.git/HEAD', '/%2egit/config', '/web/../.git/config', '/node_modules/.bin/esbuild', '/.gitignore',
      '/index.html%00.png', '/web/app/lesson.js%00', '//etc/passwd', '/web//app/lesson.js', '/./index.html', '/web/./app/lesson.js',
      '/web/e2e-link-out-of-site/secret.txt', 'index.html', '*',
    ];
    for (const p of refused) {
      const status = await rawGet(port, p);
      assert.ok([400, 404].includes(status), `${p}: HTTP ${status}`);
    }
  } finally {
    await close();
    unlinkSync(link);
    rmSync(tmp, { recursive: true });
  }
});

test('every response carries the security headers; the CSP names each inline script of a page by its hash', async () => {
  const { startServer } = await import('../../scripts/serve.js');
  const { inlineScriptHashes } = await import('../../scripts/site_headers.js');
  const { url, close } = await startServer({ port: 0 });
  try {
    for (const page of ['', 'index.html', 'embed.html', 'web/app/lesson.js', 'lessons/index.json']) {
      const res = await fetch(url + page);
      assert.equal(res.status, 200, page);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', page);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', page);
      const csp = res.headers.get('content-security-policy');
      assert.match(csp, /default-src 'none'/, page);
      assert.doesNotMatch(csp, /https?:|\*\.|'unsafe-inline'[^;]*;.*script|script-src[^;]*'unsafe-inline'/, page);
      assert.match(csp, new RegExp(`frame-ancestors ${page === 'embed.html' ? '\\*' : "'none'"}`), page);
      if (page.endsWith('.html') || page === '') {
        const hashes = inlineScriptHashes(readFileSync(`${root}${page || 'index.html'}`, 'utf8'));
        assert.ok(hashes.length >= 2, page);
        for (const h of hashes) assert.ok(csp.includes(h), `${page}: ${h}`);
      }
    }
  } finally {
    await close();
  }
});
