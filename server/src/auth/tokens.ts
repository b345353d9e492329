import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const TOKEN_TTL = '7d';
/** An impersonation token (carrying the admin as actor) lives 2 hours only. */
const IMPERSONATION_TTL = '2h';

export interface TokenClaims {
  userId: string;
  tokenVersion: number;
  /** Set on an impersonation token: the admin who obtained it. */
  actorId?: string;
}

/** DESIGN §3: HS256 JWT carrying the user id and the token version, valid 7 days. */
export function createTokenSigner(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: TokenClaims): Promise<string> {
      const jwt = new SignJWT({ tv: claims.tokenVersion, ...(claims.actorId ? { act: claims.actorId } : {}) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuedAt()
        .setExpirationTime(claims.actorId ? IMPERSONATION_TTL : TOKEN_TTL);
      return jwt.sign(key);
    },
    /** Returns null for any token that is malformed, tampered, expired or signed by another key. */
    async verify(token: string): Promise<TokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null;
        return {
          userId: payload.sub,
          tokenVersion: payload.tv,
          actorId: typeof payload.act === 'string' ? payload.act : undefined,
        };
      } catch {
        return null;
      }
    },
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;

/** E-mail link tokens: 32 random bytes sent, only their hash stored. */
export function newEmailToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashEmailToken(token) };
}

export function hashEmailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
