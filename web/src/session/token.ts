/** SPEC §9: the jwt lives in localStorage under the key `jwt`. */
export const TOKEN_KEY = 'jwt';

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
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}
