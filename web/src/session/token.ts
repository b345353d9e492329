import { SIGNED_IN_COOKIE } from '@olympe/contract/public-config';

/** docs/product.md#spec-9: the jwt lives in localStorage under the key `jwt`. */
export const TOKEN_KEY = 'jwt';

/**
 * Decision 117: the server leaves a visitor's pre-rendered screen out of the pages of a browser that keeps a
 * session. The cookie says only that; the token itself never leaves localStorage but in the Authorization header.
 */
export function markSignedIn(signedIn: boolean): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SIGNED_IN_COOKIE}=${signedIn ? '1; Max-Age=31536000' : '; Max-Age=0'}; Path=/; SameSite=Lax${secure}`;
}

export function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    // Private modes may forbid storage; behave as logged out rather than crash.
    return null;
  }
}

export function writeToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
  markSignedIn(true);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  markSignedIn(false);
  // Impersonation (groups issue): logging out ends the admin's kept session too.
  localStorage.removeItem(ADMIN_TOKEN_KEY);
}

// --- Impersonation (groups issue, "Simuler"): while an admin acts as another user, the admin's own
// token is kept under `jwt_admin` so "Revenir à mon compte" needs no new login. Used only by
// web/src/hooks/use-impersonation.ts.
export const ADMIN_TOKEN_KEY = 'jwt_admin';

export function readAdminToken(): string | null {
  try {
    return localStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function writeAdminToken(token: string): void {
  localStorage.setItem(ADMIN_TOKEN_KEY, token);
}

export function clearAdminToken(): void {
  localStorage.removeItem(ADMIN_TOKEN_KEY);
}

/**
 * The user id a stored token was issued for (the JWT's `sub`), read without verifying it: only to
 * refuse sending one user's queued answers with another user's token. Undefined when unreadable.
 */
export function tokenSubject(token: string | null): string | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub: unknown = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}
