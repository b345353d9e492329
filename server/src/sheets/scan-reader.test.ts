import { randomUUID } from 'node:crypto';
import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeScan, printGray, scannerPdf, soilSheets } from '../../test/fixtures/fake-scan.js';
import { renderAnswerSheets } from './render.js';
import { readScan } from './scan-reader.js';

/**
 * Sheets printed by pdftoppm (poppler-utils), then turned, skewed, soiled and saved as a scanner
 * would: the reader must find every pupil, exercise, page and the turn that makes it upright.
 */
const secret = 'a-test-secret-a-test-secret';
const chapterId = randomUUID();
const exercises = [
  { id: randomUUID(), title: 'Géométrie' },
  { id: randomUUID(), title: 'Arithmétique' },
];
const pupils = [
  { id: randomUUID(), firstName: 'Émilie', lastName: 'Du Châtelet' },
  { id: randomUUID(), firstName: 'Sophie', lastName: 'Germain' },
];
let sheets: Uint8Array;
/** Expected code of each printed page: cover (exercise null, page 0), then 2 pages per exercise. */
const expected = pupils.flatMap((p) => [
  { userId: p.id, exerciseId: null, page: 0 },
  ...exercises.flatMap((e) => [1, 2].map((page) => ({ userId: p.id, exerciseId: e.id, page }))),
]);

beforeAll(async () => {
  sheets = await renderAnswerSheets({
    secret,
    chapter: { id: chapterId, title: 'Coupe papier' },
    centreName: 'Collège Pascal',
    exercises,
    pupils,
    spare: 1,
  });
});

describe('reading scanned answer sheets', () => {
  it('prints one cover and (1 + spare) pages per exercise for each pupil', async () => {
    expect((await PDFDocument.load(sheets)).getPageCount()).toBe(10);
  });

  it('reads every page turned by 0/90/180/270°, skewed by 2° and noisy, with the turn that makes it upright', async () => {
    const turns = [0, 90, 180, 270] as const;
    const scan = await fakeScan(
      sheets,
      expected.map((_, i) => ({ page: i, turn: turns[i % 4], skew: i % 2 ? 2 : -2, noise: 0.2, scribbles: i % 3 === 0 })),
    );
    const readings = await readScan(scan, secret, chapterId);
    expect(readings.map((r) => r.status)).toEqual(Array(10).fill('read'));
    readings.forEach((r, i) => {
      expect(r.code).toEqual({ chapterId, ...expected[i] });
      expect(r.rotation, `page ${i}`).toBe((360 - turns[i % 4]) % 360);
    });
  });

  it('a page whose code is torn off is unreadable; the others still read', async () => {
    const scan = await fakeScan(sheets, [{ page: 0 }, { page: 1, torn: true }, { page: 2, turn: 180, torn: true }, { page: 3 }]);
    const readings = await readScan(scan, secret, chapterId);
    expect(readings.map((r) => r.status)).toEqual(['read', 'unreadable', 'unreadable', 'read']);
  });

  it('codes of another chapter are foreign, codes made with another secret forged', async () => {
    const scan = await fakeScan(sheets, [{ page: 0 }, { page: 1, turn: 90 }]);
    expect((await readScan(scan, secret, randomUUID())).map((r) => r.status)).toEqual(['foreign', 'foreign']);
    expect((await readScan(scan, 'another-secret-another-secret', chapterId)).map((r) => r.status)).toEqual(['forged', 'forged']);
  });

  it('takes the page /Rotate and a turned drawing of the picture into account', async () => {
    const doc = await PDFDocument.load(await fakeScan(sheets, [{ page: 1 }]));
    // Page 1: displayed turned 90° clockwise by /Rotate: turning it on by 270° makes it upright.
    doc.getPage(0).setRotation(degrees(90));
    // Page 2: a landscape page drawing the portrait scan turned 90° counter-clockwise.
    const upright = await PDFDocument.load(await fakeScan(sheets, [{ page: 2 }]));
    const [image] = await doc.embedPages([upright.getPage(0)]);
    const { width, height } = upright.getPage(0).getSize();
    doc.addPage([height, width]).drawPage(image, { x: height, y: 0, rotate: degrees(90) });
    const readings = await readScan(await doc.save(), secret, chapterId);
    expect(readings.map((r) => [r.status, r.rotation])).toEqual([
      ['read', 270],
      ['read', 90],
    ]);
  });

  it('reads raw (Flate) scanner pictures, and vector pages through the renderer', async () => {
    const printed = await printGray(
      await soilSheets(sheets, [
        { page: 3, turn: 180 },
        { page: 4, turn: 180, noise: 0.1 },
      ]),
      150,
    );
    const flate = await scannerPdf(printed, 150);
    expect((await readScan(flate, secret, chapterId)).map((r) => [r.status, r.rotation, r.code?.page])).toEqual([
      ['read', 180, 1],
      ['read', 180, 2],
    ]);
    // The generated sheets themselves: vector pages, no picture, rendered by pdftoppm.
    const readings = await readScan(sheets, secret, chapterId);
    expect(readings.map((r) => r.status)).toEqual(Array(10).fill('read'));
    readings.forEach((r, i) => expect(r.code).toEqual({ chapterId, ...expected[i] }));
  });

  it('a page without ink is blank; a page with ink but no code is unreadable', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595, 842]);
    doc.addPage([595, 842]).drawText('Brouillon : 2 + 2 = 4, puis la suite de la démonstration', { x: 60, y: 500, size: 14 });
    expect((await readScan(await doc.save(), secret, chapterId)).map((r) => r.status)).toEqual(['blank', 'unreadable']);
  });
});
