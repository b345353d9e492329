/**
 * The calls web/public/boot.js sent before the app ran (decision 97), keyed by method, URL and body.
 * Only the session's own calls are there, and only for the token they were sent with.
 */
interface EarlyRequests {
  token: string;
  responses: Record<string, Promise<Response> | undefined>;
}

declare global {
  interface Window {
    olympeEarly?: EarlyRequests;
  }
}

/**
 * The answer boot.js already asked for this exact call, taken once: a second call (a reload of the
 * session, a retry after a network failure) goes to the network. Never for another token than the one
 * it was sent with, so a login or a logout never reads another user's answer.
 */
export function takeEarlyResponse(
  method: string,
  url: string,
  body: BodyInit | undefined,
  token: string | null,
): Promise<Response> | undefined {
  const early = window.olympeEarly;
  if (!early || token === null || early.token !== token) return undefined;
  if (body !== undefined && typeof body !== 'string') return undefined;
  const key = `${method} ${url} ${body ?? ''}`;
  const response = early.responses[key];
  delete early.responses[key];
  return response;
}
