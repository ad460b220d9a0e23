// site_headers.js — the security headers every response of the site carries (scripts/serve.js sends them;
// a static host must send the same: `node scripts/site_headers.js` prints them for each page).
//
// Content-Security-Policy: nothing from any other origin, and no more than the pages need:
//   default-src 'none'                    whatever is not listed below is refused
//   script-src 'self' + the pages' inline scripts by hash (index.html / embed.html: the early wasm compile and
//              prefetch, the import map, the module that starts the page)
//              'unsafe-eval'              a cell's code runs through new Function (web/app/cell_runner.js), and so
//                                         do Embind's generated invokers (dist/pt2e_engine.mjs)
//              'wasm-unsafe-eval'         compiling the engine's WebAssembly
//   style-src 'self'; style-src-attr 'unsafe-inline'   stylesheets from the site; inline style attributes only,
//                                         which KaTeX's rendered math is made of (heights, vertical alignment)
//   font-src 'self' (KaTeX's fonts), img-src 'self' data: (the empty data: icon), connect-src 'self' (fetch: the
//   wasm, lessons), worker-src 'self' (the cell worker, the service worker sw.js), base-uri / form-action 'none',
//   frame-ancestors: embed.html may be framed by any page (that is what it is for); every other page by none.
// X-Content-Type-Options: nosniff (a file is only ever what its Content-Type says); Referrer-Policy: no-referrer.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The pages that may be framed by another site.
const EMBEDDABLE = new Set(['embed.html']);

// 'sha256-…' of each inline <script> of an HTML text (its exact content between the tags, as the browser hashes it).
export function inlineScriptHashes(html) {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}

export function contentSecurityPolicy(scriptHashes = [], { embeddable = false } = {}) {
  return [
    "default-src 'none'",
    `script-src 'self' ${[...scriptHashes, "'unsafe-eval'", "'wasm-unsafe-eval'"].join(' ')}`,
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "font-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${embeddable ? '*' : "'none'"}`,
  ].join('; ');
}

// An HTML page's hashes, read again only when the file changes.
const hashCache = new Map();
function pageHashes(file) {
  const mtime = statSync(file).mtimeMs;
  const hit = hashCache.get(file);
  if (hit?.mtime === mtime) return hit.hashes;
  const hashes = inlineScriptHashes(readFileSync(file, 'utf8'));
  hashCache.set(file, { mtime, hashes });
  return hashes;
}

// The headers for one served file (an absolute path inside the site).
export function securityHeaders(file) {
  const isPage = file.endsWith('.html');
  return {
    'Content-Security-Policy': contentSecurityPolicy(isPage ? pageHashes(file) : [], { embeddable: EMBEDDABLE.has(path.relative(root, file)) }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const page of ['index.html', 'embed.html', 'any other file']) {
    console.log(`# ${page}`);
    const headers = securityHeaders(page.endsWith('.html') ? path.join(root, page) : path.join(root, 'web/app/shell.js'));
    for (const [k, v] of Object.entries(headers)) console.log(`${k}: ${v}`);
    console.log();
  }
}
