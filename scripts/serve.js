// serve.js — the site's static server: http://127.0.0.1:${PORT:-8080}/ serves the repo root
// (index.html, embed.html, web/, dist/, lessons/, and the local copies of markdown-it and KaTeX
// under node_modules/). Loopback only; nothing outside the folder, nothing hidden (.git).
//   node scripts/serve.js            prints the URL and serves until stopped
//   import { startServer } from './serve.js'; const { url, close } = await startServer({ port: 0 });
// web/bundle/*.{js,css} (the pages' modules and styles in one file each, scripts/bundle.js) is rebuilt before it is served
// whenever a file of web/app or web/api is newer, and a lesson page (web/bundle/lessons/<id>/page.<lang>.json)
// whenever a file of its lesson is, so editing the modules or a lesson needs no build step.
import http from 'node:http';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleApp, renderLessonPages } from './bundle.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml', '.woff2': 'font/woff2',
  '.woff': 'font/woff', '.ttf': 'font/ttf', '.txt': 'text/plain; charset=utf-8',
};

async function handle(req, res) {
  let rel;
  try {
    rel = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  } catch {
    res.writeHead(400).end('bad request');
    return;
  }
  if (rel.endsWith('/')) rel += 'index.html';
  if (/^\/web\/bundle\/[^/]+\.(js|css)$/.test(rel)) await freshBundle();
  const page = rel.match(/^\/web\/bundle\/lessons\/(M\d{2}(?:-\d+)?)\/page\.([\w-]+)\.json$/);
  if (page) await renderLessonPages({ ifStale: true, only: [page[1], page[2]] }).catch((e) => console.error(`serve: lesson ${page[1]}: ${e.message}`));
  const file = path.resolve(root, '.' + rel);
  const inside = file.startsWith(root + path.sep);
  const hidden = path.relative(root, file).split(path.sep).some((part) => part.startsWith('.'));
  if (!inside || hidden || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404).end('not found');
    return;
  }
  let stat;
  try {
    stat = await fs.stat(file);
  } catch {
    stat = null;
  }
  if (!stat || !stat.isFile()) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  const head = {
    'Content-Type': types[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': stat.size,
    'Cache-Control': 'no-cache',
  };
  if (req.method === 'HEAD') { res.writeHead(200, head).end(); return; }
  // Files up to 8 MB (all of the site's, the 1.6 MB wasm included) go out in one write: far fewer
  // event-loop turns than a stream, which matters while the machine is busy.
  if (stat.size <= 8 << 20) {
    const body = await fs.readFile(file);
    res.writeHead(200, { ...head, 'Content-Length': body.length }).end(body);
  } else {
    res.writeHead(200, head);
    createReadStream(file).pipe(res);
  }
}

// One rebuild at a time; a failed build leaves the old bundle (or none: the pages fall back).
let bundling = null;
function freshBundle() {
  bundling ??= bundleApp({ ifStale: true })
    .catch((e) => console.error(`serve: bundling failed: ${e.message}`))
    .finally(() => { bundling = null; });
  return bundling;
}

export function startServer({ port = Number(process.env.PORT ?? 8080), host = '127.0.0.1' } = {}) {
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      handle(req, res).catch(() => res.writeHead(500).end('server error'));
    });
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ url: `http://${host}:${actual}/`, close: () => new Promise((r) => server.close(r)), server });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { url } = await startServer().catch((e) => {
    console.error(`serve: cannot listen: ${e.message} (set PORT to another port)`);
    process.exit(1);
  });
  console.log(`PT2E Playground is at ${url}`);
}
