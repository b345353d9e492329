/**
 * Where a user goes back after logging in or choosing a password (`?retour=` on /login, /signup and
 * /confirm): a path of this site only. Anything else (another host, `//host`, a scheme) is dropped,
 * so a link cannot send a user elsewhere after they typed their password.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 500) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\u0000-\u001f]/.test(value)) return null;
  return value;
}
