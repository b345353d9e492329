import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pupilName, renderAttendanceSheet, renderConvocations, type ExamCentre } from '../centers/exam-pdfs.js';
import { renderCertificate } from '../results/certificate.js';
import { renderAnswerSheets } from '../sheets/render.js';

const textOf = async (bytes: Uint8Array) => {
  const child = promisify(execFile)('pdftotext', ['-', '-'], { maxBuffer: 10 * 1024 * 1024 });
  child.child.stdin!.end(Buffer.from(bytes));
  return (await child).stdout.normalize('NFC');
};

/** pdffonts' table (it reads a file only): name, emb and sub of each font. */
async function fontsOf(bytes: Uint8Array) {
  const dir = await mkdtemp(join(tmpdir(), 'olympe-fonts-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), bytes);
    const { stdout } = await promisify(execFile)('pdffonts', [join(dir, 'doc.pdf')]);
    return stdout
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => {
        // name, type (one or two words), encoding, emb, sub, uni, object, generation: counted from the end.
        const cells = l.trim().split(/\s+/);
        return { name: cells[0], emb: cells.at(-5), sub: cells.at(-4) };
      });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// docs/product.md#design-3: names as people write them (decision 143).
const pupils = [
  { id: '00000000-0000-4000-8000-0000000000a1', firstName: 'Łukasz', lastName: 'Nguyễn', grade: '3eme', school: 'Collège Ørsted' },
  { id: '00000000-0000-4000-8000-0000000000a2', firstName: 'Ștefan', lastName: 'Țăranu', grade: '2nde', school: 'Lycée' },
  { id: '00000000-0000-4000-8000-0000000000a3', firstName: 'Øyvind', lastName: 'Ødegård', grade: '1ere', school: null },
  // Decomposed on purpose (e + U+0308): the PDF holds the composed letter.
  { id: '00000000-0000-4000-8000-0000000000a4', firstName: 'Zoe\u0308', lastName: 'L’Hôpital-Ñúñez', grade: 'terminale', school: null },
];
const printed = pupils.map((p) => pupilName(p).normalize('NFC'));

const centre = {
  chapterId: '00000000-0000-4000-8000-0000000000c1',
  chapterTitle: 'Coupe d’hiver — Tour 1',
  centreName: 'Collège Blaise Pascal',
  details: {
    sittingAt: null,
    address: '1 rue des Sciences',
    room: 'B12',
    bring: 'Stylo',
    defaults: { sittingAt: true, address: true, bring: true },
  },
  instructions: 'Arrivez à 8 h 30.',
} as ExamCentre;

async function expectEmbeddedSubsetsOnly(bytes: Uint8Array) {
  const fonts = await fontsOf(bytes);
  expect(fonts.length).toBeGreaterThan(0);
  for (const f of fonts) {
    expect(f.emb, f.name).toBe('yes');
    expect(f.sub, f.name).toBe('yes');
    expect(f.name).toMatch(/^[A-Z]{6}\+DejaVuSans/);
  }
}

describe('the PDFs the server draws print every letter of a name (decision 143)', () => {
  it('convocations', async () => {
    const bytes = await renderConvocations(centre, pupils);
    const text = await textOf(bytes);
    for (const name of printed) expect(text).toContain(name);
    expect(text).toContain('Établissement : Collège Ørsted');
    await expectEmbeddedSubsetsOnly(bytes);
  });

  it('the attendance sheet', async () => {
    const bytes = await renderAttendanceSheet(centre, pupils);
    const text = await textOf(bytes);
    for (const name of printed) expect(text).toContain(name);
    await expectEmbeddedSubsetsOnly(bytes);
  });

  it('answer sheets, named and anonymous', async () => {
    for (const anonymous of [false, true]) {
      const bytes = await renderAnswerSheets({
        secret: 'x'.repeat(32),
        chapter: { id: centre.chapterId, title: 'Coupe d’hiver' },
        centreName: 'Lycée Ørsted',
        exercises: [{ id: '00000000-0000-4000-8000-0000000000e1', title: 'Șiruri' }],
        pupils,
        spare: 0,
        anonymous,
      });
      const text = await textOf(bytes);
      for (const name of printed) expect(text).toContain(name);
      expect(text).toContain('Exercice 1 : Șiruri');
      await expectEmbeddedSubsetsOnly(bytes);
    }
  });

  it('certificates', async () => {
    for (const p of pupils) {
      const bytes = await renderCertificate({
        firstName: p.firstName,
        lastName: p.lastName,
        institution: p.school,
        chapterTitle: 'Coupe d’hiver',
        total: '12,5\u00a0/\u00a020',
        qualification: 'Qualifié(e) pour le tour suivant',
        issuedOn: '27 novembre 2026',
      });
      const text = await textOf(bytes);
      expect(text).toContain(`${p.firstName} ${p.lastName}`.normalize('NFC'));
      expect(text).toContain('Qualifié(e) pour le tour suivant');
      await expectEmbeddedSubsetsOnly(bytes);
    }
  });

  it('keeps every letter copyable from one document to the next (a composite « À » drawn before does not take « A »)', async () => {
    // A convocation draws « À apporter » in bold: its subset writes « A » as a part of « À ».
    await renderConvocations(centre, pupils.slice(0, 1));
    const text = await textOf(
      await renderCertificate({
        firstName: 'Anna',
        lastName: 'Ødegård',
        institution: null,
        chapterTitle: 'Coupe',
        total: '20 / 20',
        qualification: null,
        issuedOn: '1 décembre 2026',
      }),
    );
    expect(text).toContain('Attestation de participation');
    expect(text).toContain('Anna Ødegård');
  });

  it('prints « ? » for a letter the font lacks, never an error', async () => {
    const text = await textOf(
      await renderCertificate({
        firstName: 'Wei',
        lastName: '李',
        institution: null,
        chapterTitle: 'Coupe',
        total: '20 / 20',
        qualification: null,
        issuedOn: '1 décembre 2026',
      }),
    );
    expect(text).toContain('Wei ?');
  });

  it('still cuts a name too long for its line with the font it is drawn in', async () => {
    const long = 'Ŵ'.repeat(100);
    const text = await textOf(await renderConvocations(centre, [{ ...pupils[0], firstName: long }]));
    // Every letter is printed, over several lines (exam-pdfs.test.ts checks the lines keep clear of the QR code).
    expect(text.replace(/\s/g, '')).toContain(long);
  });
});
