import { inflateRawSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSheet } from 'read-excel-file/node';
import { PDFDocument } from '@cantoo/pdf-lib';
import { RESULTS_NOT_PUBLISHED_MESSAGE } from '@olympe/contract';
import {
  accessGroups,
  answers,
  auditLog,
  chapters,
  exercises,
  groupMembers,
  groups,
  institutions,
  statementVersions,
} from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { readBackWithLibreOffice } from './libreoffice.js';

/**
 * Decisions 69–71: publication (now, scheduled, withdrawn; options audited), a pupil's results card (hidden
 * before publication, ties share a rank), a school's results for its staff (JSON and XLSX), the
 * certificate and the admins' ZIP, and the counts of the confirmation dialogs.
 */

type Headers = Record<string, string>;
let t: TestApp;
let admin: Headers;
const db = () => t.database.db;
const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
const put = (url: string, headers: Headers, payload: unknown) =>
  inject(t, { method: 'PUT', url, headers, payload: payload as Record<string, unknown> });

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Admin' })).headers;
});
afterAll(async () => t.close());

/** One file of a ZIP, found through its central directory (sizes there even when streamed). */
function zipEntry(zip: Buffer, name: string): string {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < zip.readUInt16LE(eocd + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (entryName !== name) continue;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
  }
  throw new Error(`${name} not in the archive`);
}

let seq = 1;
let n = 0;
async function pupilOf(institutionId: string, lastName: string) {
  return createUser(t, 'pupil', {
    ...PUPIL_PROFILE,
    firstName: 'Prénom',
    lastName,
    email: `${lastName.toLowerCase()}-${++n}@eleves.fr`,
    institutionId,
  });
}

/** A chapter open to all (its window closed an hour ago) with two exercises (worth 4 and 10), four pupils of two schools, graded. */
async function gradedChapter(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [schoolA, schoolB] = await db()
    .insert(institutions)
    .values([
      { name: 'Collège Galois', confirmed: true },
      { name: 'Lycée Germain', confirmed: true },
    ])
    .returning();
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Tour 1', ...fields })
    .returning();
  // Decision 139: the window has closed (a publication while pupils may answer asks for a confirmation).
  await db()
    .insert(accessGroups)
    .values({ chapterId: c.id, position: 0, accessStart: new Date(Date.now() - 7_200_000), accessEnd: new Date(Date.now() - 3_600_000) });
  const [num, pdf] = await db()
    .insert(exercises)
    .values([
      { chapterId: c.id, position: 0, title: 'Somme', answerFormat: 'numeric', maxPoints: 4 },
      { chapterId: c.id, position: 1, title: 'Preuve', answerFormat: 'pdf', maxPoints: 10 },
    ])
    .returning();
  await db()
    .insert(statementVersions)
    .values([
      { exerciseId: num.id, position: 0, content: '…', answer: '42' },
      { exerciseId: pdf.id, position: 0, content: '…' },
    ]);
  const ada = await pupilOf(schoolA.id, 'Ada');
  const bob = await pupilOf(schoolA.id, 'Bob');
  const cyd = await pupilOf(schoolB.id, 'Cyd');
  const dan = await pupilOf(schoolB.id, 'Dan');
  // Totals: Ada 13.5, Bob 7, Cyd 7, Dan 3 (X counts nothing) → ranks 1, 2, 2, 4.
  const grades: Array<[string, string, string | null, string]> = [
    [ada.id, num.id, '4', 'Juste'],
    [ada.id, pdf.id, '9.5', 'Très bien'],
    [bob.id, num.id, '4', ''],
    [bob.id, pdf.id, '3', ''],
    [cyd.id, num.id, '0', ''],
    [cyd.id, pdf.id, '7', ''],
    [dan.id, num.id, 'X', ''],
    [dan.id, pdf.id, '3', ''],
  ];
  for (const [userId, exerciseId, grade, comment] of grades) {
    await db().insert(answers).values({ userId, exerciseId, answer: '42', seq: seq++, grade, gradeComment: comment });
  }
  const teacherA = await createUser(t, 'teacher', { firstName: 'Prof', lastName: 'A', institutionId: schoolA.id });
  const teacherB = await createUser(t, 'teacher', { firstName: 'Prof', lastName: 'B', institutionId: schoolB.id });
  return { chapterId: c.id, num: num.id, pdf: pdf.id, ada, bob, cyd, dan, schoolA, schoolB, teacherA, teacherB };
}

describe('results card', () => {
  it('stays hidden before publication, shows after publishAt passes, ties share the rank', async () => {
    const f = await gradedChapter({ showRank: true, qualificationThreshold: 7, publishAt: new Date(Date.now() + 3_600_000) });
    const before = await get(`/api/results/${f.chapterId}`, f.ada.headers);
    expect(before.status).toBe(403);
    expect(before.body.message).toBe(RESULTS_NOT_PUBLISHED_MESSAGE);
    // Grades stay hidden on the chapter's other routes too (one rule of "published").
    const mine = await get(`/api/answer/chapter/${f.chapterId}`, f.ada.headers);
    expect(mine.body.every((a: Record<string, unknown>) => !('grade' in a))).toBe(true);

    await db()
      .update(chapters)
      .set({ publishAt: new Date(Date.now() - 1000) })
      .where(eq(chapters.id, f.chapterId));
    const ada = await get(`/api/results/${f.chapterId}`, f.ada.headers);
    expect(ada.status).toBe(200);
    expect(ada.body).toEqual({
      participated: true,
      chapter: { _id: f.chapterId, title: 'Tour 1' },
      exercises: [
        { _id: f.num, title: 'Somme', grade: 4, excused: false, maxPoints: 4, comment: 'Juste' },
        { _id: f.pdf, title: 'Preuve', grade: 9.5, excused: false, maxPoints: 10, comment: 'Très bien' },
      ],
      total: 13.5,
      maxTotal: 14,
      rank: 1,
      participants: 4,
      percentile: 88,
      qualified: true,
      qualificationText: 'Qualifié(e) pour le tour suivant',
    });
    const ranks = [];
    for (const p of [f.bob, f.cyd, f.dan]) ranks.push((await get(`/api/results/${f.chapterId}`, p.headers)).body);
    expect(ranks.map((r) => r.rank)).toEqual([2, 2, 4]);
    expect(ranks.map((r) => r.qualified)).toEqual([true, true, false]);
    expect(ranks[2].exercises[0]).toMatchObject({ grade: null, excused: true });
    expect(
      (await get(`/api/answer/chapter/${f.chapterId}`, f.ada.headers)).body.some((a: Record<string, unknown>) => a.grade === '4'),
    ).toBe(true);
    // The summary pupils' pages read says "published" too.
    expect((await get(`/api/chapter/${f.chapterId}`, f.ada.headers)).body.analysis).toBe(true);
  });

  it('locks answers once the scheduled instant has passed, as the flag does', async () => {
    const f = await gradedChapter({ publishAt: new Date(Date.now() + 3_600_000) });
    // The window still open: only the publication locks the answers here.
    await db().update(accessGroups).set({ accessEnd: null }).where(eq(accessGroups.chapterId, f.chapterId));
    const eve = await pupilOf(f.schoolA.id, 'Eve');
    const save = (value: string) =>
      inject(t, { method: 'POST', url: '/api/answer', headers: eve.headers, payload: { exerciseId: f.num, answer: value, seq: seq++ } });
    expect((await save('41')).status).toBe(200);
    await db()
      .update(chapters)
      .set({ publishAt: new Date(Date.now() - 1000) })
      .where(eq(chapters.id, f.chapterId));
    const locked = await save('42');
    expect(locked.status).toBe(403);
    expect(locked.body.message).toBe('Les résultats sont publiés : les réponses ne sont plus modifiables.');
  });

  it('leaves rank and qualification out when the chapter does not show them', async () => {
    const f = await gradedChapter({ analysis: true });
    const card = (await get(`/api/results/${f.chapterId}`, f.bob.headers)).body;
    expect(card.total).toBe(7);
    expect(card).not.toHaveProperty('rank');
    expect(card).not.toHaveProperty('percentile');
    expect(card).not.toHaveProperty('qualified');
  });

  it('refuses a pupil without access to the chapter', async () => {
    const f = await gradedChapter({ analysis: true });
    await db().delete(accessGroups).where(eq(accessGroups.chapterId, f.chapterId));
    const outsider = await pupilOf(f.schoolA.id, 'Eve');
    expect((await get(`/api/results/${f.chapterId}`, outsider.headers)).status).toBe(403);
  });
});

describe('publication', () => {
  it('publishes now, at a time, or withdraws; options and each change audited; 400 on bad input', async () => {
    const f = await gradedChapter();
    const url = `/api/results/${f.chapterId}/publication`;
    const initial = await get(url, admin);
    expect(initial.body).toMatchObject({ published: false, counts: { pupils: 4, answers: 8, graded: 8 }, maxTotal: 14 });
    expect(initial.body.pupils).toHaveLength(4);

    const bad = await put(url, admin, { mode: 'scheduled' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Indiquez la date et l’heure de publication.');
    expect((await put(url, admin, { mode: 'now', qualificationThreshold: -1 })).status).toBe(400);
    expect((await get(url, admin)).body.published).toBe(false);

    const at = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await put(url, admin, {
      mode: 'scheduled',
      publishAt: at,
      showRank: true,
      qualificationThreshold: 10,
      qualificationText: 'Qualifiée pour la finale',
    });
    expect(scheduled.status).toBe(200);
    expect((await get(url, admin)).body).toMatchObject({
      published: false,
      publishAt: at,
      showRank: true,
      qualificationThreshold: 10,
      qualificationText: 'Qualifiée pour la finale',
    });
    expect((await get(`/api/results/${f.chapterId}`, f.ada.headers)).status).toBe(403);

    // The admin's preview is exactly the pupil's card, before publication too.
    const preview = await get(`/api/results/${f.chapterId}/preview/${f.ada.id}`, admin);
    expect(preview.body).toMatchObject({ total: 13.5, rank: 1, qualified: true, qualificationText: 'Qualifiée pour la finale' });
    // Options not saved yet: the preview shows their effect, and saves nothing.
    const unsaved = await get(
      `/api/results/${f.chapterId}/preview/${f.ada.id}?showRank=false&qualificationThreshold=14&qualificationText=Finaliste`,
      admin,
    );
    expect(unsaved.status).toBe(200);
    expect(unsaved.body).toMatchObject({ total: 13.5, qualified: false, qualificationText: 'Finaliste' });
    expect(unsaved.body).not.toHaveProperty('rank');
    const noThreshold = await get(`/api/results/${f.chapterId}/preview/${f.ada.id}?qualificationThreshold=`, admin);
    expect(noThreshold.body).not.toHaveProperty('qualified');
    expect(noThreshold.body).toMatchObject({ rank: 1 });
    const refused = await get(`/api/results/${f.chapterId}/preview/${f.ada.id}?qualificationThreshold=-2&showRank=oui`, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/négatif|Affichage du rang invalide/);
    expect((await get(url, admin)).body).toMatchObject({
      showRank: true,
      qualificationThreshold: 10,
      qualificationText: 'Qualifiée pour la finale',
    });

    await put(url, admin, { mode: 'now', showRank: true, qualificationThreshold: 10, qualificationText: 'Qualifiée pour la finale' });
    const card = await get(`/api/results/${f.chapterId}`, f.ada.headers);
    expect(card.body).toEqual(preview.body);

    await put(url, admin, { mode: 'unpublished' });
    expect((await get(`/api/results/${f.chapterId}`, f.ada.headers)).status).toBe(403);
    const audits = await db().select().from(auditLog).where(eq(auditLog.targetId, f.chapterId));
    expect(audits.filter((a) => a.action === 'chapter.publication')).toHaveLength(3);
  });

  it('is for admins only', async () => {
    const f = await gradedChapter();
    const member = await createUser(t, 'member');
    for (const h of [f.ada.headers, f.teacherA.headers, member.headers]) {
      expect((await put(`/api/results/${f.chapterId}/publication`, h, { mode: 'now' })).status).toBe(403);
      expect((await get(`/api/results/${f.chapterId}/preview/${f.ada.id}`, h)).status).toBe(403);
    }
    expect((await get(`/api/results/${f.chapterId}/publication`, {})).status).toBe(401);
  });
});

describe('school results', () => {
  it('gives school staff their own pupils only, after publication; another school is 403', async () => {
    const f = await gradedChapter({ showRank: true });
    const url = `/api/results/${f.chapterId}/institution`;
    expect((await get(url, f.teacherA.headers)).status).toBe(403);
    await put(`/api/results/${f.chapterId}/publication`, admin, { mode: 'now', showRank: true, qualificationThreshold: 7 });
    const mine = await get(url, f.teacherA.headers);
    expect(mine.status).toBe(200);
    expect(mine.body.institution.name).toBe('Collège Galois');
    expect(mine.body.pupils.map((p: { lastName: string; rank: number }) => [p.lastName, p.rank])).toEqual([
      ['Ada', 1],
      ['Bob', 2],
    ]);
    expect((await get(`${url}?institution=${f.schoolB.id}`, f.teacherA.headers)).status).toBe(403);
    expect((await get(url, f.ada.headers)).status).toBe(403);
    expect((await get(`${url}?institution=${f.schoolB.id}`, admin)).body.pupils).toHaveLength(2);
  });

  it('exports an XLSX with typed numbers, French labels and a frozen header row', async () => {
    const f = await gradedChapter({ analysis: true, showRank: true });
    const res = await t.app.inject({ method: 'GET', url: `/api/results/${f.chapterId}/institution.xlsx`, headers: f.teacherA.headers });
    expect(res.statusCode).toBe(200);
    const sheet = await readSheet(res.rawPayload);
    expect(sheet[0].slice(0, 7)).toEqual(['Nom', 'Prénom', 'Classe', 'Genre', 'Somme (sur 4)', 'Preuve (sur 10)', 'Total (sur 14)']);
    expect(sheet[1].slice(0, 10)).toEqual(['Ada', 'Prénom', '3ème', 'Féminin', 4, 9.5, 13.5, 1, 4, 88]);
    expect(zipEntry(res.rawPayload, 'xl/worksheets/sheet1.xml')).toMatch(/<pane[^>]*ySplit="1"[^>]*state="frozen"/);
  });

  it('opens in LibreOffice with numbers as numbers and French words as text', async () => {
    const f = await gradedChapter({ analysis: true, showRank: true });
    const res = await t.app.inject({ method: 'GET', url: `/api/results/${f.chapterId}/institution.xlsx`, headers: f.teacherA.headers });
    expect(res.statusCode).toBe(200);
    const fods = await readBackWithLibreOffice(res.rawPayload);
    expect(fods).toMatch(/office:value-type="float" office:value="9\.5"/);
    expect(fods).toMatch(/office:value-type="float" office:value="13\.5"/);
    expect(fods).toMatch(/office:value-type="string"[^>]*>\s*<text:p>Féminin<\/text:p>/);
    expect(fods).toMatch(/<text:p>3ème<\/text:p>/);
  }, 120_000);
});

describe('the chapter’s grades for admins', () => {
  it('exports every pupil’s grades as an XLSX that LibreOffice reads as numbers, dates and French words', async () => {
    const f = await gradedChapter();
    await db().update(exercises).set({ title: '=HYPERLINK("http://x")' }).where(eq(exercises.id, f.pdf));
    const res = await t.app.inject({ method: 'GET', url: `/api/results/${f.chapterId}/grades.xlsx`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Notes - Tour 1.xlsx')}`);
    const sheet = await readSheet(res.rawPayload);
    expect(sheet[0]).toEqual([
      'E-mail',
      'Prénom',
      'Nom',
      'Classe',
      'Genre',
      'Date de naissance',
      'Total (/ 14)',
      'Somme (/ 4)',
      '=HYPERLINK("http://x") (/ 10)',
    ]);
    expect(sheet.slice(1).map((row) => row[2])).toEqual(['Ada', 'Bob', 'Cyd', 'Dan']);
    expect(sheet[1].slice(0, 5)).toEqual([f.ada.email, 'Prénom', 'Ada', '3ème', 'Féminin']);
    expect(sheet[1].slice(6)).toEqual([13.5, 4, 9.5]);
    expect(sheet[4].slice(6)).toEqual([3, 'X', 3]);
    expect(zipEntry(res.rawPayload, 'xl/worksheets/sheet1.xml')).toMatch(/<pane[^>]*ySplit="1"[^>]*state="frozen"/);

    const fods = await readBackWithLibreOffice(res.rawPayload);
    expect(fods).toMatch(/office:value-type="float" office:value="13\.5"/);
    expect(fods).toMatch(new RegExp(`office:value-type="date" office:date-value="${PUPIL_PROFILE.birthDate.slice(0, 10)}`));
    // A title that looks like a formula stays text: no formula cell anywhere.
    expect(fods).not.toMatch(/table:formula=/);
    expect(fods).toMatch(/<text:p>=HYPERLINK\(&quot;http:\/\/x&quot;\) \(\/ 10\)<\/text:p>/);
  }, 120_000);
});

describe('certificates', () => {
  it('gives a pupil their own certificate only, with the qualification when qualified', async () => {
    const f = await gradedChapter({ analysis: true, qualificationThreshold: 10 });
    const own = await t.app.inject({ method: 'GET', url: `/api/results/${f.chapterId}/certificate.pdf`, headers: f.ada.headers });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    const doc = await PDFDocument.load(own.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toContain('Tour 1');
    expect((await get(`/api/results/${f.chapterId}/certificate.pdf?user=${f.bob.id}`, f.ada.headers)).status).toBe(403);
    expect((await get(`/api/results/${f.chapterId}/certificate.pdf?user=${f.bob.id}`, admin)).status).toBe(200);
  });

  it('tells a pupil who did not take part so, with no certificate (decision 139)', async () => {
    const f = await gradedChapter({ analysis: true });
    const absent = await pupilOf(f.schoolA.id, 'Eve');
    const card = await get(`/api/results/${f.chapterId}`, absent.headers);
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ participated: false, total: 0 });
    expect((await get(`/api/results/${f.chapterId}`, f.ada.headers)).body).toMatchObject({ participated: true });
    const certificate = await get(`/api/results/${f.chapterId}/certificate.pdf`, absent.headers);
    expect(certificate.status).toBe(404);
    expect(certificate.body).toEqual({ message: 'Vous n’avez pas participé à ce chapitre.', code: 'not_found' });
    const asked = await get(`/api/results/${f.chapterId}/certificate.pdf?user=${absent.id}`, admin);
    expect(asked).toMatchObject({ status: 404, body: { message: 'Cet élève n’a pas participé à ce chapitre.' } });
  });

  it('streams every participant’s certificate in one ZIP for admins', async () => {
    const f = await gradedChapter();
    const res = await t.app.inject({ method: 'GET', url: `/api/results/${f.chapterId}/certificates.zip`, headers: admin });
    expect(res.statusCode).toBe(200);
    const zip = res.rawPayload;
    // End of central directory: four entries.
    expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50);
    expect(zip.readUInt16LE(zip.length - 22 + 10)).toBe(4);
    expect(zip.toString('utf8')).toContain('00001 Ada Prénom.pdf');
    expect((await get(`/api/results/${f.chapterId}/certificates.zip`, f.teacherA.headers)).status).toBe(403);
  });
});

describe('confirmation counts', () => {
  it('says what a deletion or an automatic correction concerns', async () => {
    const f = await gradedChapter();
    expect((await get(`/api/results/impact/chapter/${f.chapterId}`, admin)).body).toEqual({
      exercises: 2,
      pupils: 4,
      answers: 8,
      grades: 8,
    });
    expect((await get(`/api/results/impact/exercise/${f.num}`, admin)).body).toEqual({ exercises: 1, pupils: 4, answers: 4, grades: 4 });
    const [group] = await db().insert(groups).values({ name: 'Stage' }).returning();
    await db()
      .insert(groupMembers)
      .values([{ groupId: group.id, userId: f.ada.id }]);
    expect((await get(`/api/results/impact/group/${group.id}`, admin)).body).toEqual({ members: 1 });
    // Automatic correction: the seeded grades have no grader (automatic), so Cyd's 0 and Dan's X on a
    // right answer would change, and Eve's ungraded right answer be graded: three copies.
    const eve = await pupilOf(f.schoolA.id, 'Eve');
    await db().insert(answers).values({ userId: eve.id, exerciseId: f.num, answer: '42', seq: seq++ });
    expect((await get(`/api/answer/auto/${f.chapterId}/count`, admin)).body).toEqual({ count: 3 });
    await inject(t, { method: 'POST', url: `/api/answer/auto/${f.chapterId}`, headers: admin });
    expect((await get(`/api/answer/auto/${f.chapterId}/count`, admin)).body).toEqual({ count: 0 });
    expect((await get(`/api/answer/auto/${f.chapterId}/count`, f.teacherA.headers)).status).toBe(403);
    expect((await get(`/api/results/impact/chapter/${f.chapterId}`, f.teacherA.headers)).status).toBe(403);
  });
});
