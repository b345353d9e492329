// Olympe's service worker: the app itself (page and built assets) opens without a network, so a
// pupil who reloads during a cut gets the app back, keeps the answers queued in localStorage, and
// sends them when the network returns. API calls are never cached: they carry one person's data
// and a school computer is shared.
const SHELL_CACHE = 'olympe-shell-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(['/', '/boot.js']))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== SHELL_CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// The page sends, once this worker is active, the built assets it loaded before the worker took it
// (web/src/offline/service-worker.ts). They are kept if missing, then the page is taken: a page that opened
// while this worker was installing is passed over by the activation's claim, and would stay outside until reloaded.
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'keep' || !Array.isArray(data.assets)) return;
  const assets = data.assets.filter((asset) => {
    try {
      const url = new URL(asset);
      return url.origin === self.location.origin && url.pathname.startsWith('/assets/') && !url.search;
    } catch {
      return false;
    }
  });
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) =>
        Promise.all(
          assets.slice(0, 200).map((asset) =>
            cache.match(asset).then((cached) =>
              cached
                ? undefined
                : cache.add(asset).catch(() => {
                    // Gone from the server (a newer version): the next visit keeps the new one.
                  }),
            ),
          ),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;

  // boot.js starts the app on a page that carries its screen (decision 118): without it offline, the app
  // would never start. It has no hash in its name: network first, like the page.
  if (request.mode === 'navigate' || url.pathname === '/boot.js') {
    const key = request.mode === 'navigate' ? '/' : '/boot.js';
    // Network first: a new version is picked up at once; the cached page when the network fails.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(SHELL_CACHE).then((cache) => cache.put(key, copy));
          }
          return response;
        })
        .catch(() => caches.match(key).then((cached) => cached ?? Response.error())),
    );
    return;
  }

  if (url.pathname.startsWith('/assets/')) {
    // Built assets have content hashes in their names: the cached copy is always right.
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});
