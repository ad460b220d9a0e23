// bundle.js — bundles the page's ES modules into one file per page, so a cold page load fetches one
// script instead of a waterfall of ~18 modules fetched level by level (web/app/README.md, "Loading"),
// and writes every lesson page ahead (its files and its prose rendered, one file per language), so a page
// fetches a lesson in one request and needs no markdown-it and KaTeX to show it.
//   node scripts/bundle.js            writes web/bundle/{shell,embed,markdown,cell_worker}.js (+ .map), web/bundle/style.css
//                                     (KaTeX's CSS + web/app/style.css, KaTeX fonts in web/bundle/fonts/) and
//                                     web/bundle/lessons/<id>/page.<lang>.json; run by scripts/build.sh
//   import { bundleApp, renderLessonPages } from './bundle.js'; await bundleApp({ ifStale: true })   (scripts/serve.js)
// Inputs: web/app/{shell,embed}.js and what they import (web/app, web/api); web/app/markdown.js (markdown-it,
// KaTeX) is its own file, which cell_runner.js's loadLessonPage imports only when a lesson page file is missing.
// The engine (dist/pt2e_engine.{mjs,wasm}) stays separate: web/api/engine.js loads it at run time.
// web/bundle/ sits at the same depth as web/app/, so import.meta.url-relative paths (../../dist/,
// the site root for lessons) mean the same in both. index.html / embed.html load the bundle and
// fall back to web/app/*.js when it is missing (no esbuild installed): the modules stay runnable.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'web', 'bundle');
const entries = ['shell', 'embed', 'markdown', 'cell_worker'].map((n) => path.join(root, 'web', 'app', `${n}.js`));

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

// True when a bundle is missing or older than a source file of web/app or web/api.
export function bundleStale() {
  const outs = [...entries.map((e) => path.join(outdir, path.basename(e))), path.join(outdir, 'style.css')];
  if (!outs.every((o) => existsSync(o))) return true;
  const built = Math.min(...outs.map((o) => statSync(o).mtimeMs));
  return ['app', 'api'].some((d) => newest(path.join(root, 'web', d)) > built);
}

// Builds web/bundle/ (when ifStale: only if stale). Resolves to false when esbuild is not installed.
export async function bundleApp({ ifStale = false } = {}) {
  if (ifStale && !bundleStale()) return true;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return false;
  }
  await esbuild.build({
    entryPoints: entries,
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    keepNames: true,              // error classes name themselves (this.constructor.name)
    sourcemap: true,
    external: ['node:*'],          // engine.js's Node-only branch (never taken in a browser)
    logLevel: 'warning',
    legalComments: 'eof',
  });
  // One stylesheet instead of two: the page's scripts wait for every stylesheet, and the browser
  // opens only 6 connections to the site at once (the wasm holds one while it downloads).
  await esbuild.build({
    stdin: { contents: '@import "./node_modules/katex/dist/katex.min.css";\n@import "./web/app/style.css";\n', resolveDir: root, loader: 'css', sourcefile: 'style.css' },
    outfile: path.join(outdir, 'style.css'),
    bundle: true,
    minify: true,
    loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file' },
    assetNames: 'fonts/[name]',
    logLevel: 'warning',
  });
  writeOfflineManifest();
  return true;
}

// web/bundle/sw-version.js, read by the service worker (sw.js): the files it caches at install — the pages, the
// bundle and its fonts, the engine, the course plan, every lesson page and the files the notebook button reads —
// and a version that is a hash of their bytes, so a new deployment gets a new cache and the old one is dropped.
export function writeOfflineManifest() {
  const files = ['index.html', 'embed.html', 'lessons/index.json', 'lessons/pt2e_course.py',
    'dist/pt2e_engine.mjs', 'dist/pt2e_engine.wasm', 'sw.js'];
  const under = (dir, test) => (existsSync(path.join(root, dir)) ? readdirSync(path.join(root, dir), { recursive: true })
    .map((f) => `${dir}/${f}`.split(path.sep).join('/')).filter((f) => test(f) && statSync(path.join(root, f)).isFile()) : []);
  files.push(...under('web/bundle', (f) => /\.(js|css|json|woff2)$/.test(f) && !f.endsWith('sw-version.js')));
  files.push(...under('lessons', (f) => /\/prose\.[\w-]+\.md$/.test(f)));
  const present = files.filter((f) => existsSync(path.join(root, f))).sort();
  const hash = createHash('sha256');
  for (const f of present) hash.update(f).update(readFileSync(path.join(root, f)));
  const precache = ['./', ...present];
  writeFileSync(path.join(outdir, 'sw-version.js'), `// written by scripts/bundle.js: the service worker's cache version and install list (sw.js)\n` +
    `self.PT2E_VERSION = '${hash.digest('hex').slice(0, 16)}';\nself.PT2E_PRECACHE = ${JSON.stringify(precache)};\n`);
  return precache.length;
}

// Lesson pages written ahead: lessons/<id>/ (lesson.json, cells/*, prose.<lang>.md) -> web/bundle/lessons/<id>/page.<lang>.json,
// { lesson, parts } as cell_runner.js's loadLessonPage gives it (loadLesson + markdown.js's proseParts): one
// request per lesson page and no Markdown renderer in the page. `only: [id, lang]` writes that one file;
// ifStale skips a file newer than every file of its lesson, markdown.js and cell_runner.js.
// Resolves to the number of files written, or false when markdown-it / KaTeX are not installed.
export async function renderLessonPages({ ifStale = false, only = null } = {}) {
  let proseParts, loadLesson, lessonPagePath;
  try {
    ({ proseParts } = await import('../web/app/markdown.js'));
    ({ loadLesson, lessonPagePath } = await import('../web/app/cell_runner.js'));
  } catch {
    return false;
  }
  const code = Math.max(...['markdown.js', 'cell_runner.js'].map((f) => statSync(path.join(root, 'web', 'app', f)).mtimeMs));
  const lessons = path.join(root, 'lessons');
  const sources = only
    ? [{ id: only[0], lang: only[1] }]
    : readdirSync(lessons, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) =>
      readdirSync(path.join(lessons, e.name)).map((f) => f.match(/^prose\.(.+)\.md$/)).filter(Boolean).map((m) => ({ id: e.name, lang: m[1] })));
  const readText = (rel) => readFileSync(path.join(root, rel), 'utf8');
  let written = 0;
  for (const { id, lang } of sources) {
    const dir = path.join(lessons, id);
    const src = path.join(dir, `prose.${lang}.md`);
    if (!existsSync(src) || !existsSync(path.join(dir, 'lesson.json'))) continue;
    const out = path.join(root, lessonPagePath(id, lang));
    if (ifStale && existsSync(out) && statSync(out).mtimeMs > Math.max(code, newest(dir))) continue;
    const page = { lesson: await loadLesson(id, async (rel) => readText(rel)), parts: proseParts(readText(path.relative(root, src))) };
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(page));
    written++;
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const pages = await renderLessonPages();
  if (pages === false) console.error('bundle: markdown-it / KaTeX are not installed (npm ci); pages will render prose themselves');
  else console.log(`bundle: web/bundle/lessons/ ${pages} lesson pages written`);
  if (!(await bundleApp())) {
    console.error('bundle: esbuild is not installed (npm ci); the pages will load web/app/*.js unbundled');
    process.exit(0);
  }
  const size = entries.map((e) => `${path.basename(e)} ${(statSync(path.join(outdir, path.basename(e))).size / 1024).toFixed(0)} kB`);
  console.log(`bundle: web/bundle/ ${size.join(', ')}`);
}
