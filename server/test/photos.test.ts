import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from '@cantoo/pdf-lib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAPER_CHAPTER_MESSAGE } from '../src/answers/policies.js';
import { accessGroups, chapters, exercises, files, institutions } from '../src/db/schema.js';
import { PHOTO_PIXELS_MESSAGE, PHOTO_UNREADABLE_MESSAGE } from '../src/pdf/pdf-pool.js';
import { parsePpm, type Rgb } from '../src/sheets/raster.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * POST /pdfs/photos (decision 140): a pupil's photos of a proof, JPEG, PNG or HEIC, made into one PDF in
 * the PDF workers, a page a photo, upright; what cannot be read is refused in French.
 */

let t: TestApp;
let schoolId: string;
let pdfExercise: string;
let paperExercise: string;

type Photo = { name: string; bytes: Buffer; type?: string };

/** A white picture of `width` × `height` pixels with a coloured 30 % × 15 % block in its top-left corner. */
const marked = (width: number, height: number, color: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite([
    {
      input: { create: { width: Math.round(width * 0.3), height: Math.round(height * 0.15), channels: 3, background: color } },
      left: 0,
      top: 0,
    },
  ]);

const RED = { r: 220, g: 0, b: 0 };
const BLUE = { r: 0, g: 0, b: 220 };

let rotatedJpeg: Buffer;
let png: Buffer;
let heic: Buffer;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  [{ id: schoolId }] = await db.insert(institutions).values({ name: 'Collège Sophie Germain' }).returning();
  const [online] = await db.insert(chapters).values({ title: 'Tour photos' }).returning();
  const [paper] = await db.insert(chapters).values({ title: 'Tour sur papier', offline: true }).returning();
  await db.insert(accessGroups).values([
    { chapterId: online.id, position: 0 },
    { chapterId: paper.id, position: 0 },
  ]);
  [{ id: pdfExercise }, { id: paperExercise }] = await db
    .insert(exercises)
    .values([
      { chapterId: online.id, title: 'Preuve', answerFormat: 'pdf' },
      { chapterId: paper.id, title: 'Preuve sur papier', answerFormat: 'pdf' },
    ])
    .returning();
  // A phone held upright writes its picture sideways, 300 × 200 with the mark in the stored top-left corner, and
  // EXIF Orientation 6 (turn 90° clockwise to display): upright, the picture is 200 × 300 with the mark top right.
  rotatedJpeg = await marked(300, 200, RED).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
  png = await marked(200, 300, BLUE).png().toBuffer();
  // Made once by ImageMagick with its HEIC encoder: 200 × 300, white, a green block top-left (decision 140).
  heic = readFileSync(new URL('./fixtures/photo-green-mark.heic', import.meta.url));
});
afterAll(async () => t.close());

const pupil = () =>
  createUser(t, 'pupil', {
    firstName: 'Sophie',
    lastName: 'Germain',
    gender: 'female',
    birthDate: '2009-04-01',
    grade: '2nde',
    defaultChoice: 'local',
    emailParent: 'parent@exemple.fr',
    institutionId: schoolId,
  });

function multipart(fields: Record<string, string>, photos: Photo[]) {
  const boundary = '----olympe' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const photo of photos) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="${photo.name}"\r\nContent-Type: ${photo.type ?? 'image/jpeg'}\r\n\r\n`,
      ),
      photo.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function send(headers: Record<string, string>, exercise: string, photos: Photo[]) {
  const { payload, contentType } = multipart({ exercise }, photos);
  return inject(t, { method: 'POST', url: '/api/pdfs/photos', headers: { ...headers, 'content-type': contentType }, payload });
}

const fileCount = async () => (await t.database.db.select({ id: files.id }).from(files)).length;

/** Page `page` (from 1) of the stored PDF as poppler draws it, at 20 dpi. */
function renderPage(pdf: Buffer, page: number): Rgb {
  return parsePpm(execFileSync('pdftoppm', ['-r', '20', '-f', String(page), '-l', String(page), '-'], { input: pdf }));
}

/** The average colour of a square at a corner of the page, 8 % of its width from each edge. */
function corner(page: Rgb, where: 'top-left' | 'top-right' | 'bottom-left'): { r: number; g: number; b: number } {
  const size = Math.max(2, Math.round(page.width * 0.04));
  const x0 = where === 'top-right' ? page.width - Math.round(page.width * 0.08) - size : Math.round(page.width * 0.08);
  const y0 = where === 'bottom-left' ? page.height - Math.round(page.height * 0.08) - size : Math.round(page.height * 0.08);
  const sum = { r: 0, g: 0, b: 0 };
  for (let y = y0; y < y0 + size; y++) {
    for (let x = x0; x < x0 + size; x++) {
      const i = (y * page.width + x) * 3;
      sum.r += page.data[i];
      sum.g += page.data[i + 1];
      sum.b += page.data[i + 2];
    }
  }
  const n = size * size;
  return { r: sum.r / n, g: sum.g / n, b: sum.b / n };
}

const isWhite = (c: { r: number; g: number; b: number }) => c.r > 200 && c.g > 200 && c.b > 200;
const isRed = (c: { r: number; g: number; b: number }) => c.r > 150 && c.g < 90 && c.b < 90;
const isBlue = (c: { r: number; g: number; b: number }) => c.b > 150 && c.r < 90 && c.g < 90;
const isGreen = (c: { r: number; g: number; b: number }) => c.g > 120 && c.r < 90 && c.b < 90;

describe('POST /pdfs/photos', () => {
  it('makes a JPEG, a PNG and a HEIC into one PDF, a page each in the order sent, upright, then saves it as the answer', async () => {
    const p = await pupil();
    const res = await send(p.headers, pdfExercise, [
      { name: 'IMG_0001.jpg', bytes: rotatedJpeg },
      { name: 'page2.png', bytes: png, type: 'image/png' },
      { name: 'IMG_0003.HEIC', bytes: heic, type: 'image/heic' },
    ]);
    expect(res.status).toBe(200);
    const match = /^pdfs\/([0-9a-f-]{36})\.pdf$/.exec(res.body.path);
    expect(match).not.toBeNull();
    const [row] = await t.database.db.select().from(files).where(eq(files.id, match![1]));
    expect(row).toMatchObject({ ownerId: p.id, originalName: 'IMG_0001.pdf', pages: 3 });

    const pdf = Buffer.from((await t.app.inject({ method: 'GET', url: `/api/${res.body.path}`, headers: p.headers })).rawPayload);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(3);
    for (const page of doc.getPages()) {
      // A4 portrait: every photo is taller than wide once upright.
      expect([Math.round(page.getWidth()), Math.round(page.getHeight())]).toEqual([595, 842]);
    }
    // Page 1, the JPEG turned by its EXIF orientation: the mark at the top right, nothing at the top left.
    // The picture (200 × 300) fills the page's width: its corners are the page's, give or take the centring.
    const first = renderPage(pdf, 1);
    expect(isRed(corner(first, 'top-right'))).toBe(true);
    expect(isWhite(corner(first, 'top-left'))).toBe(true);
    // Page 2, the PNG; page 3, the HEIC: their mark at the top left.
    const second = renderPage(pdf, 2);
    expect(isBlue(corner(second, 'top-left'))).toBe(true);
    expect(isWhite(corner(second, 'top-right'))).toBe(true);
    const third = renderPage(pdf, 3);
    expect(isGreen(corner(third, 'top-left'))).toBe(true);
    expect(isWhite(corner(third, 'bottom-left'))).toBe(true);

    const saved = await inject(t, {
      method: 'POST',
      url: '/api/answer',
      headers: p.headers,
      payload: { exerciseId: pdfExercise, answer: res.body.path, seq: 1 },
    });
    expect(saved.status).toBe(200);
    // The first photos load sharp and the HEIC decoder in the workers: 15–25 s on a loaded machine.
  }, 120_000);

  it('keeps the order the pupil chose', async () => {
    const p = await pupil();
    const res = await send(p.headers, pdfExercise, [
      { name: 'b.png', bytes: png, type: 'image/png' },
      { name: 'a.jpg', bytes: rotatedJpeg },
    ]);
    expect(res.status).toBe(200);
    const pdf = Buffer.from((await t.app.inject({ method: 'GET', url: `/api/${res.body.path}`, headers: p.headers })).rawPayload);
    expect(isBlue(corner(renderPage(pdf, 1), 'top-left'))).toBe(true);
    expect(isRed(corner(renderPage(pdf, 2), 'top-right'))).toBe(true);
  });

  it('refuses a text named .jpg in French, and stores nothing', async () => {
    const p = await pupil();
    const before = await fileCount();
    const res = await send(p.headers, pdfExercise, [{ name: 'copie.jpg', bytes: Buffer.from('Ceci est ma copie, promis.\n') }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Cette image n’a pas pu être lue\u00a0: envoyez une photo JPEG, PNG ou HEIC, ou un PDF.');
    expect(res.body.message).toBe(PHOTO_UNREADABLE_MESSAGE);
    // Among several photos, the message says which.
    const second = await send(p.headers, pdfExercise, [
      { name: 'a.png', bytes: png, type: 'image/png' },
      { name: 'b.heic', bytes: Buffer.concat([heic.subarray(0, 40), Buffer.alloc(200)]), type: 'image/heic' },
    ]);
    expect(second.status).toBe(400);
    expect(second.body.message).toBe(
      'Photo 2\u00a0: cette image n’a pas pu être lue\u00a0: envoyez une photo JPEG, PNG ou HEIC, ou un PDF.',
    );
    expect(await fileCount()).toBe(before);
  });

  it('refuses a 20,000 × 20,000 PNG of a few kilobytes quickly, without decoding it', async () => {
    const p = await pupil();
    const bomb = pixelBombPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(200_000);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const res = await send(p.headers, pdfExercise, [{ name: 'bombe.png', bytes: bomb, type: 'image/png' }]);
    const elapsed = performance.now() - started;
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(PHOTO_PIXELS_MESSAGE);
    // Decoded, its 400 million pixels would take 1.2 GB and seconds (the bound is loose for a loaded machine).
    expect(elapsed).toBeLessThan(10_000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
  });

  it('refuses a paper chapter, a missing exercise, no photo, and anonymous callers', async () => {
    const p = await pupil();
    const photo = [{ name: 'a.png', bytes: png, type: 'image/png' }];
    const paper = await send(p.headers, paperExercise, photo);
    expect(paper.status).toBe(403);
    expect(paper.body.message).toBe(PAPER_CHAPTER_MESSAGE);
    expect((await send(p.headers, 'abc', photo)).body.message).toBe('Exercice invalide.');
    const none = await send(p.headers, pdfExercise, []);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Aucune photo reçue\u00a0: prenez ou choisissez une photo de votre copie.');
    expect((await send({}, pdfExercise, photo)).status).toBe(401);
  });
});

/** A valid 1-bit grey PNG of `width` × `height` white pixels: a pixel bomb of a few tens of kilobytes. */
function pixelBombPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grey
  const row = Buffer.alloc(1 + Math.ceil(width / 8), 0xff);
  row[0] = 0; // filter: none
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
