import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * RFC 8058 one-click unsubscribe: the link carries the user id and an HMAC of it under the server
 * secret, so it works without logging in and cannot be forged for someone else.
 */
const sign = (secret: string, userId: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${userId}`).digest('base64url').slice(0, 32);

export function unsubscribeUrl(publicUrl: string, secret: string, userId: string): string {
  return `${publicUrl}/api/mail/unsubscribe?u=${userId}&t=${sign(secret, userId)}`;
}

export function verifyUnsubscribe(secret: string, userId: string, token: string): boolean {
  const expected = Buffer.from(sign(secret, userId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
