import { createHmac } from 'node:crypto';

/**
 * The board's keys (decision 155): « C- » and 5 characters of base32 of an HMAC of the selection and the pupil, with
 * the server's secret (the way signed links and unsubscribe links are made), so a key is stable per selection and
 * pupil and links to no other route. 5 characters are 2^25 values: among 10,000 participants a pair may share one,
 * so the pupils whose short key another participant also has get 10 characters instead.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer, length: number): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length >= length) break;
  }
  return out;
}

/** Each participant's key, by user id: unique among `userIds`. */
export function boardKeys(secret: string, selectionId: string, userIds: readonly string[]): Map<string, string> {
  const digests = userIds.map((userId) => createHmac('sha256', secret).update(`selection:${selectionId}:${userId}`).digest());
  const short = digests.map((d) => `C-${base32(d, 5)}`);
  const count = new Map<string, number>();
  for (const key of short) count.set(key, (count.get(key) ?? 0) + 1);
  return new Map(userIds.map((userId, i) => [userId, count.get(short[i]!)! > 1 ? `C-${base32(digests[i]!, 10)}` : short[i]!]));
}
