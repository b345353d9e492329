import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSheet } from 'read-excel-file/node';
import { groupMembers, groups, institutions, selections } from '../src/db/schema.js';
import { eq } from 'drizzle-orm';
import { buildTestApp, createUser, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { readBackWithLibreOffice } from './libreoffice.js';
import { insertSelection, insertVersion } from './selection-fixtures.js';

/**
 * Decisions 157–158: the qualification letter (PDF, read back with pdftotext), a school's qualified pupils for its
 * staff (JSON and XLSX), and the jury's exports of the latest version and of its figures, read back by LibreOffice.
 */

const run = promisify(execFile);
let t: TestApp;
let admin: Record<string, string>;
type Headers = Record<string, string>;
let f: Awaited<ReturnType<typeof seed>>;

async function textOf(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-letter-'));
  try {
    await writeFile(path.join(dir, 'lettre.pdf'), pdf);
    return (await run('pdftotext', ['-enc', 'UTF-8', path.join(dir, 'lettre.pdf'), '-'])).stdout.replace(/\u00a0/g, ' ');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Two schools; Ada (A, qualified, girls' category), Bob (A, not), Cyd (B, qualified by the jury), a published list. */
async function seed() {
  const db = t.database.db;
  const [schoolA, schoolB] = await db
    .insert(institutions)
    .values([
      { name: 'Collège Galois', confirmed: true, sector: 'public', academy: 'Paris' },
      { name: '=Lycée Germain', confirmed: true, sector: 'private' },
    ])
    .returning();
  const pupil = (firstName: string, lastName: string, institutionId: string, gender: string, grade: string) =>
    createUser(t, 'pupil', { ...PUPIL_PROFILE, firstName, lastName, institutionId, gender, grade });
  const ada = await pupil('Ada', 'Lovelace', schoolA.id, 'female', '3eme');
  const bob = await pupil('Bob', 'Martin', schoolA.id, 'male', '3eme');
  const cyd = await pupil('Cyd', 'Noether', schoolB.id, 'female', '4eme');
  const teacherA = await createUser(t, 'teacher', { institutionId: schoolA.id });
  const teacherB = await createUser(t, 'teacher', { institutionId: schoolB.id });
  const [jury] = await db.insert(groups).values({ name: 'Jury' }).returning();
  const juror = await createUser(t, 'member');
  await db.insert(groupMembers).values({ groupId: jury.id, userId: juror.id });
  const s = await insertSelection(t, { title: 'Coupe 2027', publishAt: new Date(Date.now() - 60_000), juryGroupId: jury.id }, [
    { name: 'Filles', cutoff: 12 },
    { name: 'Collège', cutoff: 14 },
  ]);
  const [girls, all] = s.categories;
  await insertVersion(
    t,
    s,
    1,
    [
      { userId: ada.id, score: 15.5, categories: [girls, all], qualifiedIn: [girls, all] },
      { userId: cyd.id, score: 11, categories: [girls, all], qualifiedIn: [girls] },
      { userId: bob.id, score: 11, categories: [all], qualifiedIn: [] },
    ],
    {
      names: ['Filles', 'Collège'],
      cutoffs: [12, 14],
      decisions: [{ categoryId: girls, userId: cyd.id, decision: 'include', reason: 'Dossier' }],
    },
  );
  return { s, ada, bob, cyd, teacherA, teacherB, juror, schoolA, schoolB };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
  f = await seed();
});
afterAll(async () => t.close());

const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

describe('the qualification letter', () => {
  it('gives a qualified pupil their letter: name, school, category, score, next round’s date and place', async () => {
    const res = await get(`/api/selection/${f.s.id}/letter`, f.ada.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await textOf(res.rawPayload);
    for (const words of [
      'Lettre de qualification',
      'Ada Lovelace',
      'Collège Galois',
      'Catégorie : Filles',
      'Score : 15,5',
      'Qualifié(e) pour la finale nationale',
      'Date : samedi 13 mars 2027',
      'Lieu : Lycée Louis-le-Grand, Paris',
    ])
      expect(text).toContain(words);
  });

  it('refuses a pupil not qualified, another pupil’s letter, and any letter before publication; admins get any', async () => {
    const bob = await get(`/api/selection/${f.s.id}/letter`, f.bob.headers);
    expect(bob.statusCode).toBe(403);
    expect(bob.json().message).toMatch(/pas qualifié/);
    expect((await get(`/api/selection/${f.s.id}/letter?user=${f.ada.id}`, f.bob.headers)).statusCode).toBe(403);
    const absent = await get(`/api/selection/${f.s.id}/letter`, f.teacherA.headers);
    expect(absent.statusCode).toBe(404);
    expect(absent.json().message).toBe('Vous ne figurez pas sur la liste de cette sélection.');
    await t.database.db.update(selections).set({ publishAt: null }).where(eq(selections.id, f.s.id));
    try {
      const early = await get(`/api/selection/${f.s.id}/letter`, f.ada.headers);
      expect(early.statusCode).toBe(403);
      expect(early.json().message).toBe('Cette sélection n’est pas encore publiée.');
      const forAdmin = await get(`/api/selection/${f.s.id}/letter?user=${f.cyd.id}`, admin);
      expect(forAdmin.statusCode).toBe(200);
      expect(await textOf(forAdmin.rawPayload)).toContain('Cyd Noether');
    } finally {
      await t.database.db
        .update(selections)
        .set({ publishAt: new Date(Date.now() - 60_000) })
        .where(eq(selections.id, f.s.id));
    }
  });
});

describe('a school’s qualified pupils', () => {
  it('lists its own qualified pupils to a school’s staff, never another school’s', async () => {
    const res = await get(`/api/selection/${f.s.id}/school`, f.teacherA.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ _id: f.ada.id, firstName: 'Ada', lastName: 'Lovelace', grade: '3eme', category: 'Filles', score: 15.5 }]);
    const other = await get(`/api/selection/${f.s.id}/school?institution=${f.schoolA.id}`, f.teacherB.headers);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('Vous ne pouvez voir que les élèves qualifiés de votre établissement.');
    const named = await get(`/api/selection/${f.s.id}/school?institution=${f.schoolB.id}`, admin);
    expect(named.json().map((p: { lastName: string }) => p.lastName)).toEqual(['Noether']);
    expect((await get(`/api/selection/${f.s.id}/school`, f.ada.headers)).statusCode).toBe(403);
  });

  it('gives the same list as a workbook', async () => {
    const res = await get(`/api/selection/${f.s.id}/school.xlsx`, f.teacherA.headers);
    expect(res.statusCode).toBe(200);
    const sheet = await readSheet(res.rawPayload);
    expect(sheet).toEqual([
      ['Nom', 'Prénom', 'Classe', 'Catégorie', 'Score'],
      ['Lovelace', 'Ada', '3ème', 'Filles', 15.5],
    ]);
  });
});

describe('the jury’s exports', () => {
  it('exports the latest version’s list, read by LibreOffice: ranks, schools, statuses, the jury’s reasons', async () => {
    expect((await get(`/api/selection/${f.s.id}/export.xlsx`, f.teacherA.headers)).statusCode).toBe(403);
    const res = await get(`/api/selection/${f.s.id}/export.xlsx`, f.juror.headers);
    expect(res.statusCode).toBe(200);
    const sheet = await readSheet(res.rawPayload);
    expect(sheet[0]).toEqual([
      'Rang',
      'Nom',
      'Prénom',
      'Établissement',
      'Académie',
      'Secteur',
      'Classe',
      'Genre',
      'Catégorie(s)',
      'Score',
      'Statut',
      'Motif',
    ]);
    expect(sheet[1]).toEqual([
      1,
      'Lovelace',
      'Ada',
      'Collège Galois',
      'Paris',
      'Public',
      '3ème',
      'Féminin',
      'Filles, Collège',
      15.5,
      'Qualifié(e)',
      null,
    ]);
    expect(sheet[2].slice(0, 11)).toEqual([
      2,
      'Martin',
      'Bob',
      'Collège Galois',
      'Paris',
      'Public',
      '3ème',
      'Masculin',
      'Collège',
      11,
      'Non qualifié(e)',
    ]);
    expect(sheet[3][0]).toBe(2);
    expect(String(sheet[3][11]).replace(/\u00a0/g, ' ')).toContain('Filles : inclus(e) par le jury (Dossier)');
    const fods = await readBackWithLibreOffice(res.rawPayload);
    expect(fods).toMatch(/office:value-type="float" office:value="15\.5"/);
    expect(fods).toMatch(/<text:p>=Lycée Germain<\/text:p>/);
    expect(fods).not.toMatch(/table:formula/);
    expect(fods).toMatch(/<text:p>Non qualifié\(e\)<\/text:p>/);
  }, 120_000);

  it('exports the figures: per category, gender, class, académie and sector, selected beside all, with the share', async () => {
    const res = await get(`/api/selection/${f.s.id}/figures.xlsx`, admin);
    expect(res.statusCode).toBe(200);
    const sheet = (await readSheet(res.rawPayload)).filter((row) => row.some((cell) => cell !== null));
    const row = (label: string) => sheet.find((r) => r[0] === label);
    expect(sheet[0]).toEqual(['Catégorie', 'Qualifié(e)s', 'Participants', 'Part (%)']);
    expect(row('Filles')).toEqual(['Filles', 2, 2, 100]);
    expect(row('Collège')).toEqual(['Collège', 1, 3, 33.3]);
    expect(row('Féminin')).toEqual(['Féminin', 2, 2, 100]);
    expect(row('Masculin')).toEqual(['Masculin', 0, 1, 0]);
    expect(row('4ème')).toEqual(['4ème', 1, 1, 100]);
    expect(row('Paris')).toEqual(['Paris', 1, 2, 50]);
    expect(row('Inconnu')).toEqual(['Inconnu', 1, 1, 100]);
    expect(row('Privé')).toEqual(['Privé', 1, 1, 100]);
    expect(row('Tous')).toEqual(['Tous', 2, 3, 66.7]);
    const fods = await readBackWithLibreOffice(res.rawPayload);
    expect(fods).toMatch(/office:value-type="float" office:value="33\.3"/);
    expect(fods).toMatch(/<text:p>Académie<\/text:p>/);
  }, 120_000);
});
