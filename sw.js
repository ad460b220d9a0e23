// sw.js — the service worker that keeps the course working offline after a first visit. Scope: the whole site.
// - Every same-origin GET goes to the network first, and what comes back is kept in this deployment's cache;
//   when the network fails (offline), the cached copy answers. So a page opened online stays what the server
//   says, and everything a learner opened (the shell, the engine's wasm, lessons, fonts) works without a network.
// - At install it also caches the shell, the engine and every lesson page (web/bundle/sw-version.js's
//   PT2E_PRECACHE, written by scripts/bundle.js), so any lesson opens offline, not only the ones visited.
// - A new deployment has a new PT2E_VERSION (a hash of those files): the browser installs the new worker, which
//   deletes every other deployment's cache when it activates.
// Registered by web/app/offline.js once a page has rendered; without web/bundle/ (no build) it caches as it goes.
/* global self, caches, importScripts */
self.PT2E_VERSION = 'unbundled';
self.PT2E_PRECACHE = [];
try {
  importScripts('web/bundle/sw-version.js');
} catch { /* no bundle: a fixed cache name, filled as pages are fetched */ }
const CACHE = `pt2e-${self.PT2E_VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(self.PT2E_PRECACHE.map((rel) =>
    cache.add(new Request(rel, { cache: 'reload' })).catch(() => {})))).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith('pt2e-') && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') cache.put(request, response.clone()).catch(() => {});
      return response;
    } catch (offline) {
      // The same file under any query (index.html?lesson=M01 is index.html), then the site's front page.
      const cached = await cache.match(request, { ignoreSearch: true })
        ?? (request.mode === 'navigate' ? await cache.match('index.html') : undefined);
      if (cached) return cached;
      throw offline;
    }
  })());
});
