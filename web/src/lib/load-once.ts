/**
 * A file the app fetches on demand (a module of its own, decision 121): asked for once and kept. A failed load (the
 * network lost at that moment) is forgotten, so the next call asks again.
 */
export function loadOnce<T>(fetch: () => Promise<T>): { load: () => Promise<T>; loaded: () => T | undefined } {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  return {
    load: () =>
      (pending ??= fetch().then(
        (v) => (value = v),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )),
    loaded: () => value,
  };
}
