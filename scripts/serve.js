// serve.js — the site's static server: http://127.0.0.1:${PORT:-8080}/ serves the repo root
// (index.html, embed.html, web/, dist/, lessons/, and the local copies of markdown-it and KaTeX
// under node_modules/). Loopback only; nothing outside the folder, nothing hidden (.git): a request path
// is decoded once and refused (404) when any of its parts is empty of meaning ('.', '..') or hidden (starts
// with '.'), whatever the encoding ('%2e%2e', '..%2f', '%5c'), when it holds a backslash or a control character
// (400), and when the file it names — symbolic links followed — lies outside the folder. Every response carries
// the site's security headers (scripts/site_headers.js: Content-Security-Policy, nosniff, no referrer).
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
import { securityHeaders } from './site_headers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml', '.woff2': 'font/woff2',
  '.woff': 'font/woff', '.ttf': 'font/ttf', '.txt': 'text/plain; charset=utf-8',
};

// The site path a request names ('/index.html', '/web/app/lesson.js'), or an HTTP status refusing it.
export function requestPath(rawUrl) {
  const raw = String(rawUrl ?? '').split(/[?#]/)[0];
  if (!raw.startsWith('/') || raw.startsWith('//')) return { status: 400 };
  let rel;
  try {
    rel = decodeURIComponent(raw);
  } catch {
    return { status: 400 };  // not UTF-8 once decoded ('%E0%A4%A', an overlong '%c0%ae')
  }
  if (/[\\\u0000-\u001f\u007f]/.test(rel)) return { status: 400 };
  if (rel.endsWith('/')) rel += 'index.html';
  const parts = rel.slice(1).split('/');
  if (parts.some((p) => p === '' || p.startsWith('.'))) return { status: 404 };
  return { rel: `/${parts.join('/')}` };
}

// The file a site path names, when it is a file inside the site once every link is followed.
async function siteFile(rel) {
  const file = path.join(root, ...rel.slice(1).split('/'));
  try {
    const real = await fs.realpath(file);
    const relReal = path.relative(await realRoot, real);
    if (relReal.startsWith('..') || path.isAbsolute(relReal) || relReal.split(path.sep).some((p) => p.startsWith('.'))) return null;
    const stat = await fs.stat(real);
    return stat.isFile() ? { file: real, stat } : null;
  } catch {
    return null;
  }
}
const realRoot = fs.realpath(root);

async function handle(req, res) {
  const { rel, status } = requestPath(req.url);
  if (status) {
    res.writeHead(status, { 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' }).end(status === 400 ? 'bad request' : 'not found');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('method not allowed');
    return;
  }
  if (/^\/web\/bundle\/[^/]+\.(js|css)$/.test(rel)) await freshBundle();
  const page = rel.match(/^\/web\/bundle\/lessons\/(M\d{2}(?:-\d+)?)\/page\.([\w-]+)\.json$/);
  if (page) await renderLessonPages({ ifStale: true, only: [page[1], page[2]] }).catch((e) => console.error(`serve: lesson ${page[1]}: ${e.message}`));
  const found = await siteFile(rel);
  if (!found) {
    res.writeHead(404, { 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' }).end('not found');
    return;
  }
  const { file, stat } = found;
  const head = {
    'Content-Type': types[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': stat.size,
    'Cache-Control': 'no-cache',
    ...securityHeaders(file),
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
