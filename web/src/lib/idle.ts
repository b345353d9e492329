/**
 * Calls `callback` in the browser's next idle moment (within 2 s), or after `fallbackMs` in a browser without
 * `requestIdleCallback`; returns what cancels it. For a file the page may need later, asked for when it no longer
 * shares a phone's slow line and CPU with what the page shows first (decisions 121 and 127).
 */
export function onIdle(callback: () => void, fallbackMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => callback(), { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, fallbackMs);
  return () => clearTimeout(timer);
}
