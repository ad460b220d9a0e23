// offline.js — registers the site's service worker (sw.js at the site root), which keeps the course working
// without a network after a first visit. Called once a page has rendered, so it never delays the first lesson;
// where service workers are unavailable (file:, an old browser, a blocked context) the page works as before.
export function registerOffline() {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return null;
  const root = new URL('../../', import.meta.url);   // web/app/ or web/bundle/ -> the site root
  return navigator.serviceWorker.register(new URL('sw.js', root).href, { scope: root.href }).catch(() => null);
}
