/**
 * The app opens again without a network (public/sw.js): a reload during a cut loses nothing.
 *
 * The worker keeps what goes through it. What the page loaded before the worker took it (on a first visit, the
 * app's own scripts and styles; on a page opened while the worker was still installing, everything, since the
 * activation's `clients.claim()` passes over a page that is not yet running) would be missing offline. So once
 * the worker is active the page tells it the built assets it has loaded; the worker keeps those it lacks and
 * takes the page.
 */
export function registerServiceWorker(): void {
  const register = () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const keep = () =>
          registration.active?.postMessage({
            type: 'keep',
            assets: loadedAssets(performance.getEntriesByType('resource'), location.origin),
          });
        keep();
        // What loaded between that message and the worker taking the page went by it unseen: told once more.
        if (!navigator.serviceWorker.controller) navigator.serviceWorker.addEventListener('controllerchange', keep, { once: true });
      })
      .catch(() => {
        // Without a service worker the app works the same, only not offline.
      });
  };
  // Started after the first paint (decision 118), the app may run once the page has loaded.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register);
}

/** The built assets (content-hashed, under /assets/) among the resources the page has loaded, once each. */
export function loadedAssets(entries: ReadonlyArray<Pick<PerformanceEntry, 'name'>>, origin: string): string[] {
  const prefix = `${origin}/assets/`;
  return [...new Set(entries.map((entry) => entry.name.split('#')[0]).filter((name) => name.startsWith(prefix)))];
}
