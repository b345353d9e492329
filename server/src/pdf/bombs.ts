import { constants, deflateRawSync } from 'node:zlib';

/**
 * Hostile PDFs for the tests and bench/pdf-bombs (never used by the app): built as raw bytes so
 * that a 1 MB file inflates to 1 GB without ever holding the gigabyte here.
 */

const CHUNK = 1024 * 1024;

/**
 * A zlib stream of `megabytes` MiB of zero bytes. Each 1 MiB chunk is deflated on its own with a
 * full flush (byte-aligned, no back-reference into the previous chunk), so one compressed chunk
 * repeated n times is a valid stream of n MiB; the Adler-32 of n zeros is (n mod 65521) << 16 | 1.
 */
export function zeroBomb(megabytes: number): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(CHUNK), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const total = megabytes * CHUNK;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let i = 0; i < megabytes; i++) parts.push(chunk);
  parts.push(deflateRawSync(Buffer.alloc(0)), adler);
  return Buffer.concat(parts);
}

interface RawObject {
  body: string | Buffer;
}

/** A PDF file from numbered objects (1-based, in order), with a correct xref table. */
export function rawPdf(objects: Array<string | RawObject>, trailer = '/Root 1 0 R'): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0].length;
  objects.forEach((o, i) => {
    const body = typeof o === 'string' ? Buffer.from(o, 'latin1') : typeof o.body === 'string' ? Buffer.from(o.body, 'latin1') : o.body;
    const bytes = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push(at);
    parts.push(bytes);
    at += bytes.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const onePage = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>'];

const stream = (dict: string, data: Buffer): RawObject => ({
  body: Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]),
});

/** A one-page PDF with an object stream (/Type /ObjStm, FlateDecode) of `megabytes` MiB of zeros. */
export function objStmBomb(megabytes: number): Buffer {
  return rawPdf([...onePage, stream('/Type /ObjStm /N 1 /First 8 /Filter /FlateDecode', zeroBomb(megabytes))]);
}

/** The same bomb as a cross-reference stream (/Type /XRef), behind a filter chain. */
export function xrefStreamBomb(megabytes: number): Buffer {
  const hex = Buffer.from(zeroBomb(megabytes).toString('hex') + '>', 'latin1');
  return rawPdf([...onePage, stream('/Type /XRef /W [1 2 1] /Size 5 /Filter [/ASCIIHexDecode /FlateDecode]', hex)]);
}

/** A catalog holding an array nested `depth` deep ([[[[…]]]]): a recursive parser runs out of stack. */
export function deepNesting(depth: number): Buffer {
  return rawPdf([`<< /Type /Catalog /Pages 2 0 R /Nest ${'['.repeat(depth)}${']'.repeat(depth)} >>`, ...onePage.slice(1)]);
}

/** One array of `count` numbers: a few MB of text, many million objects on the parser's heap. */
export function hugeArray(count: number): Buffer {
  return rawPdf([...onePage, Buffer.concat([Buffer.from('['), Buffer.alloc(count * 2, '0 '), Buffer.from(']')]).toString('latin1')]);
}

/** Two classic cross-reference sections whose /Prev point at each other. */
export function xrefLoop(): Buffer {
  const base = rawPdf(onePage).toString('latin1');
  const first = base.lastIndexOf('xref\n');
  const second = base.length;
  const again = `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 4 /Root 1 0 R /Prev ${first} >>\nstartxref\n${second}\n%%EOF\n`;
  return Buffer.from(base.replace('/Root 1 0 R >>', `/Root 1 0 R /Prev ${second} >>`) + again, 'latin1');
}

/**
 * A page tree whose every node lists the next one twice, down to an empty node: 2^depth visits
 * for depth objects, and one real page. Nothing is large, only the walk is long: what the time
 * cap is for.
 */
export function pageTreeFanOut(depth: number): Buffer {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>'];
  for (let level = 0; level < depth; level++) {
    const next = objects.length + 2;
    objects.push(level === depth - 1 ? '<< /Type /Pages /Kids [] /Count 0 >>' : `<< /Type /Pages /Kids [${next} 0 R ${next} 0 R] /Count 0 >>`);
  }
  return rawPdf(objects);
}

/** A one-page "scan" whose 1000×1000 grey picture (Flate) inflates to `megabytes` MiB. */
export function imageBomb(megabytes: number): Buffer {
  const drawing = Buffer.from('q 595 0 0 842 0 0 cm /Im0 Do Q');
  return rawPdf([
    onePage[0],
    onePage[1],
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>',
    stream('', drawing),
    stream('/Type /XObject /Subtype /Image /Width 1000 /Height 1000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', zeroBomb(megabytes)),
  ]);
}
