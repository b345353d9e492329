import { inflateRawSync } from 'node:zlib';

/**
 * Decision 132: the one ZIP reader of the server (an XLSX is a ZIP of XML). Every entry it reads is
 * inflated by native zlib with `maxOutputLength` set to what the archive may still inflate: zlib
 * stops as soon as its output passes it, so a bomb costs at most `budget` bytes and a few
 * milliseconds, whatever sizes the archive declares (they are not even read). The archive is read
 * from its central directory, as unzip and Excel do; a data span is checked against the file's end.
 */

/** The archive inflates past its budget. */
export class ArchiveBombError extends Error {
  constructor(readonly budget: number) {
    super(`the archive inflates past ${budget} bytes`);
  }
}

/** Not a ZIP this reader opens: damaged, encrypted, an unknown compression, too many entries. */
export class ArchiveReadError extends Error {}

export interface UnzipOptions {
  /** Bytes all the entries read may inflate to, together. */
  budget: number;
  /** Entries the central directory may list. */
  maxEntries: number;
  /** Entries to read, by name; the others are neither inflated nor counted. */
  wanted: (name: string) => boolean;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const FULL32 = 0xffffffff;

/** The wanted entries of a ZIP, inflated, by name; throws ArchiveBombError or ArchiveReadError. */
export function unzipWithin(bytes: Uint8Array, options: UnzipOptions): Record<string, Uint8Array> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { count, offset } = centralDirectory(buf);
  if (count > options.maxEntries) throw new ArchiveReadError(`${count} entries`);
  const out: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
  let left = options.budget;
  let at = offset;
  for (let i = 0; i < count; i++) {
    need(buf, at, 46);
    if (buf.readUInt32LE(at) !== CENTRAL) throw new ArchiveReadError('broken central directory');
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    let compressed = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    let local = buf.readUInt32LE(at + 42);
    need(buf, at + 46, nameLength + extraLength);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    if (compressed === FULL32 || local === FULL32) {
      ({ compressed, local } = zip64Sizes(buf, at + 46 + nameLength, extraLength, buf.readUInt32LE(at + 24) === FULL32, compressed, local));
    }
    at += 46 + nameLength + extraLength + commentLength;
    if (!options.wanted(name)) continue;
    if (flags & 1) throw new ArchiveReadError('encrypted entry');
    need(buf, local, 30);
    if (buf.readUInt32LE(local) !== LOCAL) throw new ArchiveReadError('broken local header');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    need(buf, start, compressed);
    const data = buf.subarray(start, start + compressed);
    let inflated: Uint8Array;
    if (method === 0) inflated = data;
    else if (method === 8) inflated = inflateWithin(data, left, options.budget);
    else throw new ArchiveReadError(`compression method ${method}`);
    left -= inflated.length;
    if (left < 0) throw new ArchiveBombError(options.budget);
    out[name] = inflated;
  }
  return out;
}

/** One entry's raw deflate data, inflated; zlib gives up past `left` bytes, while inflating. */
function inflateWithin(data: Uint8Array, left: number, budget: number): Uint8Array {
  if (left <= 0) throw new ArchiveBombError(budget);
  try {
    return inflateRawSync(data, { maxOutputLength: left, chunkSize: 64 * 1024 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ArchiveBombError(budget);
    throw new ArchiveReadError(`corrupt entry: ${(err as Error).message}`);
  }
}

/** Where the central directory starts and how many entries it lists (ZIP64 included). */
function centralDirectory(buf: Buffer): { count: number; offset: number } {
  // The end record is in the last 22 bytes plus a comment of at most 65,535.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ArchiveReadError('no end of central directory');
  let count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  if ((count === 0xffff || offset === FULL32) && eocd >= 20 && buf.readUInt32LE(eocd - 20) === ZIP64_LOCATOR) {
    const record = Number(buf.readBigUInt64LE(eocd - 12));
    need(buf, record, 56);
    if (buf.readUInt32LE(record) !== ZIP64_EOCD) throw new ArchiveReadError('broken ZIP64 record');
    count = Number(buf.readBigUInt64LE(record + 32));
    offset = Number(buf.readBigUInt64LE(record + 48));
  }
  return { count, offset };
}

/** The ZIP64 extra field (0x0001) holds, in order, the 64-bit values whose 32-bit field is full. */
function zip64Sizes(buf: Buffer, from: number, length: number, sizeFull: boolean, compressed: number, local: number) {
  for (let at = from; at + 4 <= from + length;) {
    const id = buf.readUInt16LE(at);
    const size = buf.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const next = () => {
        need(buf, field, 8);
        const value = Number(buf.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (sizeFull) next();
      if (compressed === FULL32) compressed = next();
      if (local === FULL32) local = next();
      return { compressed, local };
    }
    at += 4 + size;
  }
  throw new ArchiveReadError('ZIP64 sizes missing');
}

function need(buf: Buffer, at: number, length: number): void {
  if (!Number.isSafeInteger(at) || at < 0 || length < 0 || at + length > buf.length) throw new ArchiveReadError('truncated archive');
}
