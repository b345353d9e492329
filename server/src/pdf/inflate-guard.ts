import { constants, inflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFContext, PDFRawStream } from '@cantoo/pdf-lib';

/** A decoded stream as pdf-lib hands it out (its type is not exported by name). */
type StreamType = ReturnType<typeof decodePDFRawStream>;

/**
 * What the streams pdf-lib decodes while loading a file (object streams and cross-reference
 * streams) may inflate to, all together (decision 35). A worker's heap cap does not see these
 * bytes (they live in ArrayBuffers), so they are counted here, before pdf-lib runs.
 */
export const INFLATE_BUDGET_BYTES = 64 * 1024 * 1024;

export class PdfBombError extends Error {
  constructor(readonly inflated: number) {
    super(`the load-time streams inflate past ${inflated} bytes`);
  }
}

const KNOWN_FILTERS = new Set([
  'FlateDecode',
  'Fl',
  'LZWDecode',
  'LZW',
  'ASCIIHexDecode',
  'AHx',
  'ASCII85Decode',
  'A85',
  'RunLengthDecode',
  'RL',
]);

/**
 * Inflates every object stream and cross-reference stream of `bytes`, as pdf-lib's parser would
 * meet them (it reads the file from start to end, not through the xref table), and throws
 * PdfBombError when their total output passes `budget`. Flate goes through node:zlib with
 * `maxOutputLength`, so a bomb costs at most `budget` bytes and a few milliseconds; LZW, RunLength
 * and the ASCII filters of a chain go through pdf-lib's own decoders, read up to the budget only.
 * A stream this scan cannot decode is left to pdf-lib, which will refuse it as well.
 */
export function assertInflateWithinBudget(bytes: Uint8Array, budget = INFLATE_BUDGET_BYTES): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let used = 0;
  for (const s of loadTimeStreams(text)) {
    let data: Uint8Array = bytes.subarray(s.start, s.end);
    for (const filter of s.filters) {
      if (!KNOWN_FILTERS.has(filter)) break;
      const decoded = decodeWithin(filter, data, s.earlyChange, budget - used);
      if (decoded === null) throw new PdfBombError(budget);
      data = decoded;
    }
    if (s.filters.length) used += data.length;
    if (used > budget) throw new PdfBombError(budget);
  }
}

/** One filter's output, or null when it would pass `limit` bytes. */
function decodeWithin(filter: string, data: Uint8Array, earlyChange: 0 | 1, limit: number): Uint8Array | null {
  if (limit < 0) return null;
  if (filter === 'FlateDecode' || filter === 'Fl') {
    try {
      // Z_SYNC_FLUSH: a truncated stream gives what it holds, as pdf-lib's lenient inflater does.
      return inflateSync(data, { maxOutputLength: Math.max(1, limit), finishFlush: constants.Z_SYNC_FLUSH });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return null;
      // Corrupt data: pdf-lib stops at the same fault (what came before is under the limit).
      return new Uint8Array(0);
    }
  }
  const context = PDFContext.create();
  const dict = context.obj({ Filter: filter, ...(filter.startsWith('LZW') ? { DecodeParms: { EarlyChange: earlyChange } } : {}) });
  try {
    return readWithin(decodePDFRawStream(PDFRawStream.of(dict, data)), limit);
  } catch {
    return new Uint8Array(0);
  }
}

/**
 * A pdf-lib decoder's whole output, or null past `limit` bytes. Read by chunks: asking pdf-lib for
 * `limit` bytes at once would allocate them up front.
 */
export function readWithin(stream: StreamType, limit: number): Uint8Array | null {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = stream.getBytes(1024 * 1024) as Uint8Array;
    if (chunk.length === 0) break;
    total += chunk.length;
    if (total > limit) return null;
    chunks.push(chunk.slice());
  }
  return Buffer.concat(chunks, total);
}

interface LoadTimeStream {
  start: number;
  end: number;
  filters: string[];
  earlyChange: 0 | 1;
}

/** Names as pdf-lib reads them: `#xx` escapes decoded (/Obj#53tm is /ObjStm). */
const unescapeNames = (s: string) => s.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * The `stream` keywords that follow a dictionary (`>>`) saying /Type /ObjStm or /XRef, or naming
 * its type through a reference (which pdf-lib may resolve): their data span, found the way pdf-lib
 * does, by /Length when it is a direct number followed by `endstream`, else by the next unnested
 * `endstream`. The dictionary is looked for between the previous stream's end and the keyword: a
 * non-stream object in between may make a stream count that pdf-lib would not decode, never the
 * reverse. A file crafted to mislead this lexical scan still meets the decoder cap inside the
 * worker (pdf-worker.ts), which counts what pdf-lib itself inflates.
 */
function* loadTimeStreams(text: string): Generator<LoadTimeStream> {
  let from = 0;
  let previousEnd = 0;
  for (;;) {
    const at = text.indexOf('stream', from);
    if (at < 0) return;
    from = at + 6;
    if (text.startsWith('end', at - 3) || !/>>\s*$/.test(text.slice(Math.max(0, at - 64), at))) continue;
    const header = unescapeNames(text.slice(Math.max(previousEnd, at - 8192), at));
    let start = at + 6;
    if (text.startsWith('\r\n', start)) start += 2;
    else if (text[start] === '\n' || text[start] === '\r') start += 1;
    const end = streamEnd(text, header, start);
    from = previousEnd = Math.max(from, end);
    if (!/\/Type\s*(\/(ObjStm|XRef)(?![^\s/<>[\]()])|\d+\s+\d+\s+R)/.test(header)) continue;
    yield { start, end, filters: filtersOf(text, header), earlyChange: lastMatch(header, /\/EarlyChange\s+(\d)/g)?.[1] === '0' ? 0 : 1 };
  }
}

function streamEnd(text: string, header: string, start: number): number {
  const length = lastMatch(header, /\/Length\s+(\d+)(?![\d.])(?!\s+\d+\s+R)/g);
  if (length) {
    const end = start + Number(length[1]);
    if (end <= text.length && /^\s*endstream/.test(text.slice(end, end + 64))) return end;
  }
  let nesting = 1;
  let at = start;
  while (nesting > 0) {
    const next = text.indexOf('stream', at);
    if (next < 0) return text.length;
    if (text.startsWith('end', next - 3) && next - 3 >= at) {
      nesting--;
      if (nesting === 0) return next - 3;
    } else {
      nesting++;
    }
    at = next + 6;
  }
  return text.length;
}

/** /Filter as a name or an array of names, directly or through one indirect reference. */
function filtersOf(text: string, header: string): string[] {
  let value = lastMatch(header, /\/Filter\s*(\/[^\s/<>[\]()]+|\[[^\]]*\]|\d+\s+\d+\s+R)/g)?.[1];
  const ref = value && /^(\d+)\s+(\d+)\s+R$/.exec(value);
  if (ref) {
    const target = new RegExp(`(?:^|[^0-9])${ref[1]}\\s+${ref[2]}\\s+obj\\s*(\\/[^\\s/<>[\\]()]+|\\[[^\\]]*\\])`).exec(text);
    // An unresolvable filter: assume Flate, the one that expands most, rather than skip the stream.
    value = target ? unescapeNames(target[1]) : '/FlateDecode';
  }
  if (!value) return [];
  return [...value.matchAll(/\/([^\s/<>[\]()]+)/g)].map((m) => m[1]);
}

/** The dictionary of a stream ends its header: the last occurrence of a key is its own. */
function lastMatch(text: string, pattern: RegExp): RegExpMatchArray | undefined {
  let last: RegExpMatchArray | undefined;
  for (const m of text.matchAll(pattern)) last = m;
  return last;
}
