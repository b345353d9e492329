import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers helmet would set (CSP, nosniff, frame-ancestors, referrer policy...),
 * computed once by running its middleware against a recording response: they never depend on the
 * request (no CSP nonces here), so every response gets the same object.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as never, response as never, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}
