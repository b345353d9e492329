import { afterEach, describe, expect, it } from 'vitest';
import { clearToken, readToken, writeToken } from './token';

describe('the session cookie the server reads (decision 117)', () => {
  afterEach(() => clearToken());

  it('is set with the token and removed with it, the token itself staying in localStorage', () => {
    expect(document.cookie).not.toContain('olympe_signed_in');
    writeToken('a.b.c');
    expect(readToken()).toBe('a.b.c');
    expect(document.cookie).toContain('olympe_signed_in=1');
    expect(document.cookie).not.toContain('a.b.c');
    clearToken();
    expect(readToken()).toBeNull();
    expect(document.cookie).not.toContain('olympe_signed_in');
  });
});
