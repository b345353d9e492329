import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderConvocations, type ExamCentre } from './exam-pdfs.js';

/** Every word pdftotext finds on page 1, with its box in points (origin top left, as poppler gives it). */
async function wordsOf(bytes: Uint8Array): Promise<Array<{ text: string; xMin: number; yMin: number; xMax: number; yMax: number }>> {
  const child = promisify(execFile)('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-', '-'], { maxBuffer: 10 * 1024 * 1024 });
  child.child.stdin!.end(Buffer.from(bytes));
  const { stdout } = await child;
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5],
  }));
}

const centre: ExamCentre = {
  chapterId: '00000000-0000-4000-8000-0000000000c1',
  chapterTitle: 'Coupe papier',
  centreName: 'Collège Blaise Pascal',
  details: {
    sittingAt: null,
    address: '1 rue des Sciences',
    room: '',
    bring: 'Stylo',
    defaults: { sittingAt: true, address: true, bring: true },
  },
  instructions: '',
} as ExamCentre;

// The convocation's QR code: 120 points square in the top right corner, 50 points from the edges (A4 portrait).
const QR = { xMin: 595.28 - 50 - 120, yMin: 50, yMax: 50 + 120 };

describe('convocation PDF (decision 134)', () => {
  it('breaks a 100-letter word of a name so that it stays left of the QR code', async () => {
    const long = 'W'.repeat(100);
    const bytes = await renderConvocations(centre, [
      { id: '00000000-0000-4000-8000-0000000000a1', firstName: long, lastName: 'Martin', grade: '3eme', school: 'Collège' },
    ]);
    const words = await wordsOf(bytes);
    const name = words.filter((w) => /^W+$/.test(w.text));
    // All 100 letters are printed, over several lines.
    expect(name.map((w) => w.text).join('')).toBe(long);
    expect(name.length).toBeGreaterThan(1);
    for (const w of name) expect(w.xMax).toBeLessThanOrEqual(QR.xMin);
    // Nothing at all overlaps the QR code's box.
    const overQr = words.filter((w) => w.xMax > QR.xMin && w.yMax > QR.yMin && w.yMin < QR.yMax);
    expect(overQr).toEqual([]);
  });
});
