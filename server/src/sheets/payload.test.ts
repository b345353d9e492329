import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSheetCode, encodeSheetCode } from './payload.js';

const secret = 'a-test-secret-a-test-secret';
const code = { chapterId: randomUUID(), exerciseId: randomUUID(), userId: randomUUID(), page: 3 };

describe('sheet codes', () => {
  it('a pupil page, a cover and a blank page read back as written', () => {
    expect(decodeSheetCode(secret, encodeSheetCode(secret, code))).toEqual(code);
    const cover = { ...code, exerciseId: null, page: 0 };
    expect(decodeSheetCode(secret, encodeSheetCode(secret, cover))).toEqual(cover);
    const blank = { ...code, userId: null };
    const bytes = encodeSheetCode(secret, blank);
    expect(bytes.length).toBe(42);
    expect(decodeSheetCode(secret, bytes)).toEqual(blank);
  });

  it('a code altered to name another pupil, page or chapter fails its check value', () => {
    const bytes = encodeSheetCode(secret, code);
    for (const offset of [1, 20, 40, 49, 55]) {
      const forged = Buffer.from(bytes);
      forged[offset] ^= 0x01;
      expect(decodeSheetCode(secret, forged)).toBeNull();
    }
    // A blank code turned into a pupil code by its first byte is refused by its length.
    const blank = Buffer.from(encodeSheetCode(secret, { ...code, userId: null }));
    blank[0] = 0x11;
    expect(decodeSheetCode(secret, blank)).toBeNull();
  });

  it('a code made with another server secret, truncated or of another kind is refused', () => {
    expect(decodeSheetCode('another-secret-another-secret', encodeSheetCode(secret, code))).toBeNull();
    expect(decodeSheetCode(secret, encodeSheetCode(secret, code).subarray(0, 50))).toBeNull();
    expect(decodeSheetCode(secret, Buffer.from('https://example.org/'))).toBeNull();
    expect(decodeSheetCode(secret, new Uint8Array())).toBeNull();
  });

  it('page numbers outside one byte are refused when printing', () => {
    expect(() => encodeSheetCode(secret, { ...code, page: 256 })).toThrow();
    expect(() => encodeSheetCode(secret, { ...code, page: -1 })).toThrow();
  });
});
