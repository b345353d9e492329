import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What an answer sheet's QR code carries, as raw bytes (a binary QR is smaller, so its modules
 * are larger on paper and easier to read on a poor scan):
 *
 *   [0]      format: 0x11 a pupil's sheet, 0x12 a blank sheet (name written by hand)
 *   [1..16]  chapter id
 *   [17..32] exercise id (all zeros on the cover page)
 *   [33..48] pupil id (pupil sheets only)
 *   next     page number: 0 the cover, 1.. the answer pages of the exercise
 *   last 8   HMAC-SHA256 of everything before, keyed by the server's secret, truncated
 *
 * The MAC makes a forged code, or one edited to point at another pupil, fail to verify; the
 * chapter inside it makes a sheet of another chapter recognisable as such.
 */
export interface SheetCode {
  chapterId: string;
  /** Null on the cover page. */
  exerciseId: string | null;
  /** Null on a blank sheet. */
  userId: string | null;
  page: number;
}

const PUPIL = 0x11;
const BLANK = 0x12;
const MAC_BYTES = 8;
const NIL = '00000000-0000-0000-0000-000000000000';

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (bytes: Buffer) => {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const macOf = (secret: string, body: Buffer) =>
  createHmac('sha256', secret).update('olympe-sheet:').update(body).digest().subarray(0, MAC_BYTES);

/** The bytes to put in the QR code of one page. */
export function encodeSheetCode(secret: string, code: SheetCode): Buffer {
  if (!Number.isInteger(code.page) || code.page < 0 || code.page > 255) throw new Error(`page out of range: ${code.page}`);
  const parts = [
    Buffer.from([code.userId ? PUPIL : BLANK]),
    uuidBytes(code.chapterId),
    uuidBytes(code.exerciseId ?? NIL),
    ...(code.userId ? [uuidBytes(code.userId)] : []),
    Buffer.from([code.page]),
  ];
  const body = Buffer.concat(parts);
  return Buffer.concat([body, macOf(secret, body)]);
}

/** Checks and unpacks a code read from a scan; null when this server did not make it (forged, altered, foreign). */
export function decodeSheetCode(secret: string, bytes: Uint8Array): SheetCode | null {
  const buf = Buffer.from(bytes);
  const length = buf[0] === PUPIL ? 58 : buf[0] === BLANK ? 42 : -1;
  if (buf.length !== length) return null;
  const body = buf.subarray(0, length - MAC_BYTES);
  if (!timingSafeEqual(macOf(secret, body), buf.subarray(length - MAC_BYTES))) return null;
  const exerciseId = uuidOf(buf.subarray(17, 33));
  return {
    chapterId: uuidOf(buf.subarray(1, 17)),
    exerciseId: exerciseId === NIL ? null : exerciseId,
    userId: buf[0] === PUPIL ? uuidOf(buf.subarray(33, 49)) : null,
    page: buf[length - MAC_BYTES - 1],
  };
}
