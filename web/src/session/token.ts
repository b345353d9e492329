import { SIGNED_IN_COOKIE } from '@olympe/contract/public-config';

/** docs/product.md#spec-9: the jwt lives in localStorage under the key `jwt`. */
export const TOKEN_KEY = 'jwt';
/** Decision 136: the session's refresh token, which gets a new 15-minute `jwt` (api/client.ts). */
export const REFRESH_KEY = 'jwt_refresh';

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

/** `refreshToken`: undefined keeps the stored one (a refreshed `jwt`), null removes it. */
export function writeToken(token: string, refreshToken?: string | null): void {
  localStorage.setItem(TOKEN_KEY, token);
  if (refreshToken) localStorage.setItem(REFRESH_KEY, refreshToken);
  else if (refreshToken === null) localStorage.removeItem(REFRESH_KEY);
  markSignedIn(true);
}

export function readRefreshToken(): string | null {
  try {
    return localStorage.getItem(REFRESH_KEY);
  } catch {
    return null;
  }
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(REFRESH_KEY);
  markSignedIn(false);
  // Impersonation (groups issue): logging out ends the admin's kept session too.
  clearAdminToken();
}

// --- Impersonation (groups issue, "Simuler"): while an admin acts as another user, the admin's own
// token is kept under `jwt_admin` so "Revenir à mon compte" needs no new login. Used only by
// web/src/hooks/use-impersonation.ts.
export const ADMIN_TOKEN_KEY = 'jwt_admin';
export const ADMIN_REFRESH_KEY = 'jwt_admin_refresh';

export function readAdminToken(): string | null {
  try {
    return localStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function readAdminRefreshToken(): string | null {
  try {
    return localStorage.getItem(ADMIN_REFRESH_KEY);
  } catch {
    return null;
  }
}

export function writeAdminToken(token: string, refreshToken: string | null): void {
  localStorage.setItem(ADMIN_TOKEN_KEY, token);
  if (refreshToken) localStorage.setItem(ADMIN_REFRESH_KEY, refreshToken);
  else localStorage.removeItem(ADMIN_REFRESH_KEY);
}

export function clearAdminToken(): void {
  localStorage.removeItem(ADMIN_TOKEN_KEY);
  localStorage.removeItem(ADMIN_REFRESH_KEY);
}

/**
 * The user id a stored token was issued for (the JWT's `sub`), read without verifying it: only to
 * refuse sending one user's queued answers with another user's token. Undefined when unreadable.
 */
export function tokenSubject(token: string | null): string | undefined {
  const sub = claimOf(token, 'sub');
  return typeof sub === 'string' ? sub : undefined;
}

/** When a stored token expires (its `exp`, in ms), read without verifying it; undefined when unreadable. */
export function tokenExpiry(token: string | null): number | undefined {
  const exp = claimOf(token, 'exp');
  return typeof exp === 'number' ? exp * 1000 : undefined;
}

function claimOf(token: string | null, claim: string): unknown {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    return (JSON.parse(json) as Record<string, unknown>)[claim];
  } catch {
    return undefined;
  }
}
