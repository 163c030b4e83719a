// The service worker: after a first visit the app works offline. It caches
// the app's own files only: same origin and inside its scope (the folder the
// app is served from, whatever subpath that is); requests anywhere else are
// left to the browser. Files whose names carry trunk's content hash never
// change, so they are served from the cache first; everything else
// (index.html, boot.js, data files) from the network first, the cache only
// when offline. A new build ships new hashed names, so an update needs no
// version here: the names the latest index.html no longer references are
// dropped whenever it is fetched.
const CACHE = 'warpscope';
const SCOPE = self.registration.scope;
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.[a-z0-9]+$/;

const ours = (url) => url.startsWith(SCOPE);

/** The app's files that an index.html references (script, preloads, styles,
 *  icon, the split build's loader and manifest), and the files the manifest
 *  lists for precaching (tools/split): every chunk (a first visit caches every
 *  panel), the texts of both languages, the measured tables. Hashed names are
 *  `refs` (fetched once); the others are `fresh` (fetched again for a new build). */
async function references(html) {
  const urls = [...html.matchAll(/\s(?:href|src|data-js|data-wasm|data-loader|data-manifest)="([^"]+)"/g)]
    .map((m) => new URL(m[1], SCOPE).href.split('#')[0]);
  const fresh = [];
  const manifest = html.match(/\sdata-manifest="([^"]+)"/);
  if (manifest) {
    const url = new URL(manifest[1], SCOPE).href;
    // Without the list nothing is adopted (it would drop the cached chunks
    // as stale): the next visit tries again.
    const r = (await caches.match(url)) ?? (await fetch(url));
    const list = r.ok ? (await r.clone().json()).precache : null;
    if (!Array.isArray(list)) throw new Error(`no precache list in ${url}`);
    for (const f of list) {
      const u = new URL(f, url).href;
      (HASHED.test(new URL(u).pathname) ? urls : fresh).push(u);
    }
  }
  return { refs: [...new Set(urls)].filter(ours), fresh: [...new Set(fresh)].filter(ours) };
}

/** Cache a fresh index.html and everything it references, the texts and
 *  the measured tables; drop stale hashed files. */
async function adopt(cache, response) {
  const html = await response.clone().text();
  const { refs, fresh } = await references(html);
  // The unhashed files again only for a new build (a new index.html) or
  // when missing; a failed fetch keeps the copy there is.
  const before = await cache.match(SCOPE);
  const newBuild = !before || (await before.text()) !== html;
  await Promise.all(fresh.map(async (url) => {
    if (newBuild || !(await cache.match(url))) {
      try {
        const r = await fetch(url, { cache: 'no-cache' });
        if (r.ok) await cache.put(url, r);
      } catch {
        // Offline: the next visit tries again.
      }
    }
  }));
  await cache.put(SCOPE, response);
  await Promise.all(refs.map(async (url) => {
    if (!(await cache.match(url))) {
      const r = await fetch(url);
      if (r.ok) await cache.put(url, r);
    }
  }));
  for (const req of await cache.keys()) {
    if (HASHED.test(new URL(req.url).pathname) && !refs.includes(req.url)) await cache.delete(req);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const response = await fetch(SCOPE, { cache: 'no-cache' });
    if (response.ok) await adopt(cache, response);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** The app's page: the scope itself or its index.html (any query). */
function isAppPage(url) {
  const u = new URL(url);
  const path = u.origin + u.pathname;
  return path === SCOPE || path === SCOPE + 'index.html';
}

/** An HTML document (not a data file someone opened, such as a measured JSON). */
const isHtml = (response) => (response.headers.get('content-type') || '').toLowerCase().startsWith('text/html');

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !ours(request.url)) return;
  const url = request.url.split('#')[0];
  // Only the app's own page is adopted as the app: a visit to any other file
  // in scope (assets/measured/h200.json, which the measured labels cite) is
  // that file, cached under its own address, never the offline start page.
  const isIndex = isAppPage(url);
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    if (!isIndex && HASHED.test(new URL(url).pathname)) {
      const hit = await cache.match(url);
      if (hit) return hit;
    }
    try {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') {
        if (isIndex && isHtml(response)) event.waitUntil(adopt(cache, response.clone()));
        else if (!isIndex) event.waitUntil(cache.put(url, response.clone()));
      }
      return response;
    } catch (offline) {
      const hit = await cache.match(isIndex ? SCOPE : url);
      if (hit) return hit;
      throw offline;
    }
  })());
});
