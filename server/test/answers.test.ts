import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, chapters, exercises, files, institutions, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

let t: TestApp;
let schoolId: string;
beforeAll(async () => {
  t = await buildTestApp();
  [{ id: schoolId }] = await t.database.db.insert(institutions).values({ name: 'Lycée Emmy Noether' }).returning();
});
afterAll(async () => t.close());

const EXPECTED = '987654321';
const minutes = (n: number) => new Date(Date.now() + n * 60_000);
type Headers = Record<string, string>;

const pupil = (fields: Parameters<typeof createUser>[2] = {}) =>
  createUser(t, 'pupil', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    gender: 'female',
    birthDate: '2009-12-10',
    grade: '2nde',
    defaultChoice: 'global',
    emailParent: 'parent@exemple.fr',
    institutionId: schoolId,
    ...fields,
  });

/** A chapter with one access group and one exercise per format; numeric versions carry an expected answer. */
async function chapterWith(rule: Partial<typeof accessGroups.$inferInsert> | null, chapter: Partial<typeof chapters.$inferInsert> = {}) {
  const db = t.database.db;
  const [c] = await db
    .insert(chapters)
    .values({ title: 'Tour 2', ...chapter })
    .returning();
  if (rule) await db.insert(accessGroups).values({ chapterId: c.id, position: 0, ...rule });
  const [numeric, pdf, none] = await db
    .insert(exercises)
    .values([
      { chapterId: c.id, position: 0, title: 'Somme', answerFormat: 'numeric' },
      { chapterId: c.id, position: 1, title: 'Preuve', answerFormat: 'pdf' },
      { chapterId: c.id, position: 2, title: 'Lecture', answerFormat: 'none' },
    ])
    .returning();
  await db.insert(statementVersions).values([
    { exerciseId: numeric.id, position: 0, content: 'Combien ?', answer: EXPECTED },
    { exerciseId: numeric.id, position: 1, content: 'Combien donc ?', answer: EXPECTED },
  ]);
  return { chapterId: c.id, numeric: numeric.id, pdf: pdf.id, none: none.id };
}

const save = (headers: Headers, payload: Record<string, unknown>) => inject(t, { method: 'POST', url: '/api/answer', headers, payload });
const mine = (chapterId: string, headers: Headers) => inject(t, { method: 'GET', url: `/api/answer/chapter/${chapterId}`, headers });
const start = (chapterId: string, headers: Headers) => inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers });
const rowsOf = (userId: string, exerciseId: string) =>
  t.database.db
    .select()
    .from(answers)
    .where(and(eq(answers.userId, userId), eq(answers.exerciseId, exerciseId)));
const backdateStart = (chapterId: string, userId: string, seconds: number) =>
  t.database.db.execute(
    sql`UPDATE chapter_sessions SET started_at = now() - make_interval(secs => ${seconds}) WHERE chapter_id = ${chapterId} AND user_id = ${userId}`,
  );

describe('guards and bad input', () => {
  it('refuses anonymous callers with 401', async () => {
    const { chapterId, numeric } = await chapterWith({});
    expect((await save({}, { exerciseId: numeric, answer: '1', seq: 1 })).status).toBe(401);
    expect((await mine(chapterId, {})).status).toBe(401);
  });

  it('refuses malformed bodies with 400 in French and stores nothing', async () => {
    const { numeric } = await chapterWith({});
    const p = await pupil();
    const cases = [
      { exerciseId: 'x', answer: '1', seq: 1 },
      { exerciseId: numeric, answer: 12, seq: 1 },
      { exerciseId: numeric, answer: '1', seq: -1 },
      { exerciseId: numeric, answer: '1', seq: 1.5 },
      { exerciseId: numeric, answer: '12a', seq: 1 },
      { exerciseId: numeric, answer: '1 2', seq: 1 },
      { exerciseId: numeric, answer: '1'.repeat(51), seq: 1 },
    ];
    for (const payload of cases) {
      const res = await save(p.headers, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.message).toMatch(/^(Données invalides|Réponse non reconnue)/);
    }
    expect(await rowsOf(p.id, numeric)).toHaveLength(0);
    expect((await mine('nope', p.headers)).status).toBe(400);
  });

  it('accepts digits, dot, comma, minus and the empty string (a cleared answer)', async () => {
    const { numeric } = await chapterWith({});
    const p = await pupil();
    for (const [i, answer] of ['-3,5', '0.25', '1'.repeat(50), ''].entries()) {
      expect((await save(p.headers, { exerciseId: numeric, answer, seq: i + 1 })).status).toBe(200);
    }
  });

  it('refuses answers to exercises that take none, and unknown exercises', async () => {
    const { none } = await chapterWith({});
    const p = await pupil();
    const res = await save(p.headers, { exerciseId: none, answer: '1', seq: 1 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Cet exercice n’attend pas de réponse.');
    const unknown = await save(p.headers, { exerciseId: '00000000-0000-4000-8000-0000000000ff', answer: '1', seq: 1 });
    expect(unknown.status).toBe(404);
  });

  it('refuses a chapter the pupil has no access to (save and list)', async () => {
    const { chapterId, numeric } = await chapterWith({ authorizedGrades: ['Tale'] });
    const p = await pupil();
    const res = await save(p.headers, { exerciseId: numeric, answer: '1', seq: 1 });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Vous n’avez pas accès à ce chapitre.');
    expect((await mine(chapterId, p.headers)).status).toBe(403);
    expect(await rowsOf(p.id, numeric)).toHaveLength(0);
  });
});

describe('saving and reading answers', () => {
  it('saves without a notification message and lists only the caller’s current answers', async () => {
    const { chapterId, numeric } = await chapterWith({});
    const a = await pupil();
    const b = await pupil();
    const res = await save(a.headers, { exerciseId: numeric, answer: '12', seq: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ exercise: numeric, seq: 1, current: true, duplicate: false });
    await save(a.headers, { exerciseId: numeric, answer: '13', seq: 2 });
    await save(b.headers, { exerciseId: numeric, answer: '99', seq: 1 });

    const list = await mine(chapterId, a.headers);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ exercise: numeric, answer: '13', seq: 2 });
    expect(Object.keys(list.body[0]).sort()).toEqual(['answer', 'exercise', 'seq', 'timestamp']);
    // History: both rows kept, with the caller's IP.
    const rows = await rowsOf(a.id, numeric);
    expect(rows.map((r) => r.answer).sort()).toEqual(['12', '13']);
    expect(rows[0].ip).toBe('127.0.0.1');
  });

  it('never lets an older save replace a newer one, and treats a repeated seq as a no-op', async () => {
    const { chapterId, numeric } = await chapterWith({});
    const p = await pupil();
    expect((await save(p.headers, { exerciseId: numeric, answer: '5', seq: 500 })).body).toMatchObject({ current: true, duplicate: false });
    // A save sent earlier arrives late.
    expect((await save(p.headers, { exerciseId: numeric, answer: '3', seq: 300 })).body).toMatchObject({
      current: false,
      duplicate: false,
    });
    // A retry of an acknowledged save.
    expect((await save(p.headers, { exerciseId: numeric, answer: '5', seq: 500 })).body).toMatchObject({ current: true, duplicate: true });
    expect((await mine(chapterId, p.headers)).body[0]).toMatchObject({ answer: '5', seq: 500 });
    expect(await rowsOf(p.id, numeric)).toHaveLength(2);
  });

  it('uses the server clock as seq when the client sends none', async () => {
    const { numeric } = await chapterWith({});
    const p = await pupil();
    const before = Date.now();
    const res = await save(p.headers, { exerciseId: numeric, answer: '7' });
    expect(res.status).toBe(200);
    expect(res.body.seq).toBeGreaterThanOrEqual(before);
    expect(res.body.seq).toBeLessThanOrEqual(Date.now());
  });

  it('lets staff answer any chapter at any time', async () => {
    const { numeric } = await chapterWith({ timeDuration: 10, accessEnd: minutes(-60) });
    const member = await createUser(t, 'member');
    expect((await save(member.headers, { exerciseId: numeric, answer: '1', seq: 1 })).status).toBe(200);
  });
});

describe('the deadline (DESIGN: start + duration, window end, 5 s grace)', () => {
  it('refuses answers before a timed chapter is started', async () => {
    const { numeric } = await chapterWith({ timeDuration: 10 });
    const p = await pupil();
    const res = await save(p.headers, { exerciseId: numeric, answer: '1', seq: 1 });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Commencez l’épreuve avant de répondre.');
  });

  it('refuses answers before the window opens', async () => {
    const { numeric } = await chapterWith({ accessStart: minutes(30) });
    const p = await pupil();
    const res = await save(p.headers, { exerciseId: numeric, answer: '1', seq: 1 });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('L’épreuve n’est pas encore disponible.');
  });

  it('accepts a save within the grace and refuses one after it, changing nothing', async () => {
    const { chapterId, numeric } = await chapterWith({ timeDuration: 10 });
    const p = await pupil();
    await start(chapterId, p.headers);
    expect((await save(p.headers, { exerciseId: numeric, answer: '1', seq: 1 })).status).toBe(200);

    await backdateStart(chapterId, p.id, 600 + 2); // deadline 2 s ago
    expect((await save(p.headers, { exerciseId: numeric, answer: '2', seq: 2 })).status).toBe(200);

    await backdateStart(chapterId, p.id, 600 + 8); // deadline 8 s ago
    const late = await save(p.headers, { exerciseId: numeric, answer: '3', seq: 3 });
    expect(late.status).toBe(403);
    expect(late.body.message).toBe('L’épreuve est terminée.');
    expect((await mine(chapterId, p.headers)).body[0]).toMatchObject({ answer: '2', seq: 2 });
    expect(await rowsOf(p.id, numeric)).toHaveLength(2);
  });

  it('applies the window end to untimed chapters', async () => {
    const { numeric } = await chapterWith({ accessStart: minutes(-60), accessEnd: minutes(-1) });
    const res = await save((await pupil()).headers, { exerciseId: numeric, answer: '1', seq: 1 });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('L’épreuve est terminée.');
  });

  it('applies the window end to a started timed chapter', async () => {
    const { chapterId, numeric } = await chapterWith({ timeDuration: 60, accessEnd: minutes(30) });
    const p = await pupil();
    await start(chapterId, p.headers);
    await t.database.db.execute(sql`UPDATE access_groups SET access_end = now() - interval '10 seconds' WHERE chapter_id = ${chapterId}`);
    expect((await save(p.headers, { exerciseId: numeric, answer: '1', seq: 1 })).status).toBe(403);
  });
});

describe('secrets and grades', () => {
  it('never sends the expected answer of a numeric exercise to a pupil', async () => {
    const { chapterId, numeric } = await chapterWith({ timeDuration: 10 });
    const p = await pupil();
    const bodies = [
      await inject(t, { method: 'GET', url: `/api/chapter/start/${chapterId}`, headers: p.headers }),
      await start(chapterId, p.headers),
      await save(p.headers, { exerciseId: numeric, answer: '1', seq: 1 }),
      await mine(chapterId, p.headers),
    ];
    for (const res of bodies) {
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(EXPECTED);
    }
  });

  it('hides grades and comments until the chapter is in analysis mode, then refuses new answers', async () => {
    const { chapterId, numeric } = await chapterWith({});
    const p = await pupil();
    await save(p.headers, { exerciseId: numeric, answer: '41', seq: 1 });
    await t.database.db
      .update(answers)
      .set({ grade: '1', gradeComment: 'Très bien' })
      .where(and(eq(answers.userId, p.id), eq(answers.exerciseId, numeric)));

    const hidden = (await mine(chapterId, p.headers)).body[0];
    expect(hidden).not.toHaveProperty('grade');
    expect(hidden).not.toHaveProperty('grade_comment');

    await t.database.db.update(chapters).set({ analysis: true }).where(eq(chapters.id, chapterId));
    expect((await mine(chapterId, p.headers)).body[0]).toMatchObject({ answer: '41', grade: '1', grade_comment: 'Très bien' });
    const res = await save(p.headers, { exerciseId: numeric, answer: '42', seq: 2 });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Les résultats sont publiés : les réponses ne sont plus modifiables.');
  });
});

describe('PDF answers', () => {
  it('must reference a file uploaded by the same user', async () => {
    const { chapterId, pdf } = await chapterWith({});
    const owner = await pupil();
    const other = await pupil();
    const [file] = await t.database.db.insert(files).values({ ownerId: owner.id, size: 10, pages: 1 }).returning();
    const path = `pdfs/${file.id}.pdf`;

    const stolen = await save(other.headers, { exerciseId: pdf, answer: path, seq: 1 });
    expect(stolen.status).toBe(403);
    expect(stolen.body.message).toBe('Ce fichier ne vous appartient pas.');
    expect((await save(owner.headers, { exerciseId: pdf, answer: 'pdfs/../../etc/passwd', seq: 1 })).status).toBe(400);
    expect((await save(owner.headers, { exerciseId: pdf, answer: 'pdfs/00000000-0000-4000-8000-0000000000ff.pdf', seq: 1 })).status).toBe(
      400,
    );

    expect((await save(owner.headers, { exerciseId: pdf, answer: path, seq: 1 })).status).toBe(200);
    expect((await mine(chapterId, owner.headers)).body[0]).toMatchObject({ exercise: pdf, answer: path });
    const [row] = await rowsOf(owner.id, pdf);
    expect(row.fileId).toBe(file.id);
  });
});
