import type { Mock } from 'vitest';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One endpoint a page test answers: method, URL pattern (its groups come first to the handler), the answer. The
 * handler's second argument is the body sent, or for GET and DELETE the call's options (their query `params`).
 */
export type Route = [Method, RegExp, (params: string[], body: unknown) => unknown];

/**
 * Page tests mock api/client's `api` (docs/architecture.md « The web's data pattern »), so the real
 * hooks and fetchers run: each call goes to the first route of its method whose pattern matches the
 * URL, and resolves to `{ data }` with what the handler answered; a call no route knows fails.
 */
export function routeHttp(http: Partial<Record<Method, Mock>>, routes: Route[]) {
  for (const [method, mock] of Object.entries(http) as Array<[Method, Mock]>) {
    mock.mockImplementation(async (url: string, ...rest: unknown[]) => {
      for (const [m, pattern, answer] of routes) {
        const match = m === method ? pattern.exec(url) : null;
        if (match) return { data: await answer(match.slice(1), rest[0]) };
      }
      throw new Error(`No route for ${method.toUpperCase()} ${url}`);
    });
  }
}
