import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

/**
 * An access token lives 15 minutes (decision 136): the session behind it (`sid`) is refreshed by its refresh
 * token (auth/sessions.ts) and checked on every request, so a logout ends it at once.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface TokenClaims {
  userId: string;
  tokenVersion: number;
  /** Set on an impersonation token: the admin who obtained it. */
  actorId?: string;
  /**
   * The auth_sessions row the token belongs to (decision 136), checked on every request. Every token a user
   * obtains has one; only scripts and benches sign tokens without (they hold JWT_SECRET anyway).
   */
  sessionId?: string;
}

/** docs/product.md#design-3: HS256 JWT carrying the user id, the token version and the session, valid 15 minutes. */
export function createTokenSigner(secret: string) {
  const key = new TextEncoder().encode(secret);
  const hmacKey = createSecretKey(Buffer.from(key));
  return {
    async sign(claims: TokenClaims, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
      const jwt = new SignJWT({
        tv: claims.tokenVersion,
        ...(claims.actorId ? { act: claims.actorId } : {}),
        ...(claims.sessionId ? { sid: claims.sessionId } : {}),
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds);
      return jwt.sign(key);
    },
    /** Returns null for any token that is malformed, tampered, expired or signed by another key. */
    async verify(token: string): Promise<TokenClaims | null> {
      return verifyHs256(token, hmacKey, undefined, { ours: true });
    },
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;

const B64URL = /^[A-Za-z0-9_-]+$/;
/** The subject is a users.id: anything else would reach PostgreSQL's uuid cast and fail there (500). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decodeJson(part: string): Record<string, unknown> | null {
  const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * The checks jose's `jwtVerify(token, key, { algorithms: ['HS256'] })` makes on our tokens, with
 * one HMAC from node:crypto: ~6 µs instead of ~170–220 µs per request (bench/rush/README.md).
 * Compact JWS only, header `alg` HS256 without `crit`/`b64`, constant-time signature comparison,
 * a JSON object payload, `exp` (strictly in the future), `nbf` and `iat` numbers when present.
 * `ours`: also what every token we sign has (decision 41): an `exp` (a token without one would never
 * die) and UUIDs as subject, actor and session (anything else failed PostgreSQL's uuid cast: 500); an
 * impersonation token names its session (decision 136: the session row holds the admin's token version).
 */
export function verifyHs256(
  token: string,
  key: ReturnType<typeof createSecretKey>,
  nowSeconds = Math.floor(Date.now() / 1000),
  opts: { ours?: boolean } = {},
): TokenClaims | null {
  try {
    if (typeof token !== 'string' || token.length > 4096) return null;
    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((part) => B64URL.test(part))) return null;
    const [headerPart, payloadPart, signaturePart] = parts;
    const expected = createHmac('sha256', key).update(`${headerPart}.${payloadPart}`).digest();
    const signature = Buffer.from(signaturePart, 'base64url');
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
    const header = decodeJson(headerPart);
    if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return null;
    const payload = decodeJson(payloadPart);
    if (!payload) return null;
    if (payload.exp !== undefined && (typeof payload.exp !== 'number' || payload.exp <= nowSeconds)) return null;
    if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > nowSeconds)) return null;
    if (payload.iat !== undefined && typeof payload.iat !== 'number') return null;
    if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null;
    if (opts.ours && (payload.exp === undefined || !UUID.test(payload.sub) || !uuidOrAbsent(payload.act) || !uuidOrAbsent(payload.sid)))
      return null;
    if (opts.ours && payload.act !== undefined && payload.sid === undefined) return null;
    const claims: TokenClaims = {
      userId: payload.sub,
      tokenVersion: payload.tv,
      actorId: typeof payload.act === 'string' ? payload.act : undefined,
    };
    if (typeof payload.sid === 'string') claims.sessionId = payload.sid;
    return claims;
  } catch {
    return null;
  }
}

const uuidOrAbsent = (value: unknown) => value === undefined || (typeof value === 'string' && UUID.test(value));

/** E-mail link tokens: 32 random bytes sent, only their hash stored. */
export function newEmailToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashEmailToken(token) };
}

export function hashEmailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
