import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRADE_CONFLICT_MESSAGE, NEWER_ANSWER_MESSAGE } from '@olympe/contract';
import { answers, chapters, exercises, files, gradeAudit, gradingClaims, statementVersions, unlabeledAnswers } from '../src/db/schema.js';
import { pickVersionIndex } from '../src/exercises/versions.js';
import { seedGradingDemo } from '../src/grading/demo.js';
import { buildTestApp, createUser, inject, loginAs, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;

/** A chapter with two numeric exercises (two versions each, different expected answers), a pdf one and a none one. */
async function chapterWith(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Tour 1', ...fields })
    .returning();
  const [n1, pdf, none, n2] = await db()
    .insert(exercises)
    .values([
      // Decision 61: worth 20 points, so the hand-typed grades below (7, 12.5…) are within the maximum.
      { chapterId: c.id, position: 0, title: 'Somme', answerFormat: 'numeric', maxPoints: 20 },
      { chapterId: c.id, position: 1, title: 'Preuve', answerFormat: 'pdf', maxPoints: 20 },
      { chapterId: c.id, position: 2, title: 'Lecture', answerFormat: 'none', maxPoints: 20 },
      { chapterId: c.id, position: 3, title: 'Produit', answerFormat: 'numeric', maxPoints: 20 },
    ])
    .returning();
  await db()
    .insert(statementVersions)
    .values([
      { exerciseId: n1.id, position: 0, content: 'A', answer: '10' },
      { exerciseId: n1.id, position: 1, content: 'B', answer: '20' },
      { exerciseId: n2.id, position: 0, content: 'C', answer: '3,5' },
      { exerciseId: pdf.id, position: 0, content: 'D', answer: null },
      { exerciseId: none.id, position: 0, content: 'E', answer: null },
    ]);
  return { chapterId: c.id, n1: n1.id, pdf: pdf.id, none: none.id, n2: n2.id };
}

const pupil = (lastName: string, firstName = 'Élève') =>
  createUser(t, 'pupil', { firstName, lastName, gender: 'female', grade: '2nde', birthDate: '2009-01-02' });

let seqCounter = 1;
async function answer(userId: string, exerciseId: string, value: string, extra: Partial<typeof answers.$inferInsert> = {}) {
  const [row] = await db()
    .insert(answers)
    .values({ userId, exerciseId, answer: value, seq: seqCounter++, ...extra })
    .returning();
  return row;
}

const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload?: unknown) =>
  inject(t, { method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const grade = (headers: Headers, payload: Record<string, unknown>, url = '/api/answer/grade/') => post(url, headers, payload);
const answerRow = async (id: string) => (await db().select().from(answers).where(eq(answers.id, id)))[0];
const auditOf = (id: string) => db().select().from(gradeAudit).where(eq(gradeAudit.answerId, id)).orderBy(gradeAudit.id);

describe('permissions of every grading route', () => {
  it('gives 401 to anonymous callers, 403 to pupils and teachers, and lets members and admins in', async () => {
    const { chapterId, n1, pdf } = await chapterWith();
    const p = await pupil('Zed');
    await answer(p.id, n1, '10');
    // A PDF copy: the admin's auto-correction (run before) leaves it ungraded, so the saves below stay valid.
    const a = await answer(p.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000005.pdf');
    const routes: Array<{ method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown>; admin?: boolean }> = [
      { method: 'GET', url: `/api/answer/table/${chapterId}` },
      { method: 'GET', url: `/api/answer/select/${n1}` },
      { method: 'POST', url: `/api/answer/auto/${chapterId}`, admin: true },
      {
        method: 'POST',
        url: '/api/answer/grade/',
        payload: { answerId: a.id, grade: null, grade_comment: '', hidden: false, expectedGradeTimestamp: null },
      },
      {
        method: 'POST',
        url: '/api/answer/grade',
        payload: { answerId: a.id, grade: null, grade_comment: '', hidden: false, expectedGradeTimestamp: null },
      },
      { method: 'GET', url: `/api/answer/overview/${chapterId}` },
      { method: 'GET', url: `/api/answer/unlabeled/stats/${chapterId}` },
      { method: 'GET', url: `/api/answer/history/${p.id}/${n1}` },
    ];
    const expected: Record<RoleName, (admin: boolean, url: string) => number> = {
      anonymous: () => 401,
      pupil: () => 403,
      teacher: () => 403,
      member: (admin) => (admin ? 403 : 200),
      admin: () => 200,
    };
    for (const role of ['anonymous', 'pupil', 'teacher', 'member', 'admin'] as const) {
      const headers = await loginAs(t, role);
      for (const r of routes) {
        const res = await inject(t, { method: r.method, url: r.url, headers, payload: r.payload });
        expect(res.status, `${role} ${r.method} ${r.url}`).toBe(expected[role](!!r.admin, r.url));
        if (res.status >= 400) expect(typeof res.body.message).toBe('string');
      }
    }
  });

  it('lets a pupil read only their own history: another pupil’s is 403', async () => {
    const { n1 } = await chapterWith();
    const owner = await pupil('Owner');
    const other = await pupil('Other');
    await answer(owner.id, n1, '10');
    expect((await get(`/api/answer/history/${owner.id}/${n1}`, owner.headers)).status).toBe(200);
    const res = await get(`/api/answer/history/${owner.id}/${n1}`, other.headers);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Vous n’avez pas accès à cette ressource.');
    const teacher = await createUser(t, 'teacher');
    expect((await get(`/api/answer/history/${owner.id}/${n1}`, teacher.headers)).status).toBe(403);
  });

  it('answers 400 in French to malformed ids and bodies, and changes nothing', async () => {
    const { n1 } = await chapterWith();
    const member = await createUser(t, 'member');
    const admin = await createUser(t, 'admin');
    for (const url of [
      '/api/answer/table/x',
      '/api/answer/select/1',
      '/api/answer/overview/zz',
      '/api/answer/unlabeled/stats/no',
      `/api/answer/history/x/${n1}`,
    ]) {
      const res = await get(url, member.headers);
      expect(res.status, url).toBe(400);
      expect(res.body.message).toMatch(/^Données invalides/);
    }
    expect((await post('/api/answer/auto/nope', admin.headers)).status).toBe(400);
    const p = await pupil('Bad');
    const a = await answer(p.id, n1, '10');
    const base = { answerId: a.id, grade: '3', grade_comment: '', hidden: false, expectedGradeTimestamp: null };
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...base, grade: 'abc' }, /^Note invalide/],
      [{ ...base, grade: '-1' }, /^Une note ne peut pas être négative/],
      [{ ...base, grade: '1e3' }, /^Note invalide/],
      [{ ...base, grade: true }, /^Données invalides/],
      [{ ...base, answerId: 'x' }, /^Données invalides \(answerId\)/],
      [{ ...base, hidden: 'oui' }, /^Données invalides \(hidden\)/],
      [{ ...base, expectedGradeTimestamp: undefined }, /^Données invalides \(expectedGradeTimestamp\)/],
      [{ ...base, expectedGradeTimestamp: 'hier' }, /^Données invalides \(expectedGradeTimestamp\)/],
      [{ ...base, grade_comment: 'x'.repeat(20_001) }, /^Données invalides \(grade_comment\)/],
    ];
    for (const [payload, message] of bad) {
      const res = await grade(member.headers, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const row = await answerRow(a.id);
    expect(row.grade).toBeNull();
    expect(row.gradeTimestamp).toBeNull();
    expect(await auditOf(a.id)).toHaveLength(0);
  });

  it('answers 404 for unknown chapters, exercises, pupils and answers', async () => {
    const member = await createUser(t, 'member');
    const ghost = '00000000-0000-4000-8000-0000000000ff';
    expect((await get(`/api/answer/table/${ghost}`, member.headers)).status).toBe(404);
    expect((await get(`/api/answer/select/${ghost}`, member.headers)).status).toBe(404);
    expect((await get(`/api/answer/overview/${ghost}`, member.headers)).status).toBe(404);
    expect((await get(`/api/answer/unlabeled/stats/${ghost}`, member.headers)).status).toBe(404);
    const { n1 } = await chapterWith();
    expect((await get(`/api/answer/history/${ghost}/${n1}`, member.headers)).status).toBe(404);
    const res = await grade(member.headers, {
      answerId: ghost,
      grade: '1',
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Copie introuvable.');
  });
});

describe('GET /answer/table/{id}', () => {
  it('gives one value per answerable exercise: blank, ?, X or the grade, from the current answer', async () => {
    const { chapterId, n1, pdf, none, n2 } = await chapterWith({ title: 'Table', offline: true });
    const member = await createUser(t, 'member');
    const bob = await pupil('Martin', 'Bob');
    const eve = await pupil('Durand', 'Ève');
    const ann = await pupil('Ébert', 'Ann');
    const idle = await pupil('Absent');
    // Bob: n1 graded on an older row then answered again (→ ?), pdf graded X, n2 graded 4.5.
    await answer(bob.id, n1, '12', { grade: '1' });
    await answer(bob.id, n1, '13');
    await answer(bob.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000001.pdf', { grade: 'X' });
    await answer(bob.id, n2, '3.5', { grade: '4.5' });
    // Eve: n1 cleared (empty current answer), n2 answered; a withdrawn pdf copy is out of the table.
    await answer(eve.id, n1, '7');
    await answer(eve.id, n1, '');
    await answer(eve.id, n2, '1');
    await answer(eve.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000002.pdf', { withdrawnAt: new Date() });
    // Ann: an older seq saved later never becomes current.
    await answer(ann.id, n2, '9', { seq: 1_000_000 });
    await answer(ann.id, n2, '8', { seq: 999_999, grade: '2' });
    await answer(ann.id, none, 'x');
    void idle;

    const res = await get(`/api/answer/table/${chapterId}`, member.headers);
    expect(res.status).toBe(200);
    expect(res.body.chapter).toEqual({
      _id: chapterId,
      title: 'Table',
      offline: true,
      analysis: false,
      anonymousGrading: false,
      doubleGrading: false,
      gradingTolerance: 0,
    });
    expect(res.body.exercises.map((e: { _id: string }) => e._id)).toEqual([n1, pdf, n2]);
    // The web sorts by last name (accent-insensitive); the server sends every pupil with a current answer.
    expect(Object.keys(res.body.users).sort()).toEqual([eve.id, ann.id, bob.id].sort());
    expect(res.body.users[bob.id]).toMatchObject({
      firstName: 'Bob',
      lastName: 'Martin',
      grade: '2nde',
      gender: 'female',
      birthDate: '2009-01-02',
      data: ['?', 'X', '4.5'],
    });
    expect(res.body.users[bob.id].email).toBe(bob.email);
    expect(res.body.users[eve.id].data).toEqual([' ', ' ', '?']);
    expect(res.body.users[ann.id].data).toEqual([' ', ' ', '?']);
    expect(res.body.users[idle.id]).toBeUndefined();
  });

  it('gives an empty table for a chapter without answerable exercises', async () => {
    const [c] = await db().insert(chapters).values({ title: 'Lecture seule' }).returning();
    await db().insert(exercises).values({ chapterId: c.id, title: 'Texte', answerFormat: 'none' });
    const member = await createUser(t, 'member');
    const res = await get(`/api/answer/table/${c.id}`, member.headers);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ exercises: [], users: {} });
  });
});

describe('POST /answer/grade', () => {
  it('writes grade, comment and hidden on the answer and appends to the audit; the table shows it', async () => {
    const { chapterId, n1 } = await chapterWith();
    const member = await createUser(t, 'member', { firstName: 'Camille', lastName: 'Correctrice' });
    const p = await pupil('Noté');
    const a = await answer(p.id, n1, '10');
    const res = await grade(
      member.headers,
      { answerId: a.id, grade: '2,5', grade_comment: 'Bien.', hidden: true, expectedGradeTimestamp: null },
      '/api/answer/grade',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ answerId: a.id, grade: '2.5', grade_comment: 'Bien.', hidden: true });
    expect(res.body.message).toBeUndefined();
    const row = await answerRow(a.id);
    expect(row).toMatchObject({ grade: '2.5', gradeComment: 'Bien.', hidden: true, graderId: member.id });
    expect(row.gradeTimestamp?.toISOString()).toBe(res.body.grade_timestamp);
    const audit = await auditOf(a.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      graderId: member.id,
      oldGrade: null,
      newGrade: '2.5',
      oldComment: null,
      newComment: 'Bien.',
      hidden: true,
    });

    // X, then clearing the grade; each change audited with old and new.
    const x = await grade(member.headers, {
      answerId: a.id,
      grade: 'x',
      grade_comment: 'Bien.',
      hidden: false,
      expectedGradeTimestamp: res.body.grade_timestamp,
    });
    expect(x.status).toBe(200);
    expect(x.body.grade).toBe('X');
    expect((await get(`/api/answer/table/${chapterId}`, member.headers)).body.users[p.id].data[0]).toBe('X');
    const cleared = await grade(member.headers, {
      answerId: a.id,
      grade: null,
      grade_comment: 'Bien.',
      hidden: false,
      expectedGradeTimestamp: x.body.grade_timestamp,
    });
    expect(cleared.status).toBe(200);
    expect((await get(`/api/answer/table/${chapterId}`, member.headers)).body.users[p.id].data[0]).toBe('?');
    expect((await auditOf(a.id)).map((r) => [r.oldGrade, r.newGrade])).toEqual([
      [null, '2.5'],
      ['2.5', 'X'],
      ['X', null],
    ]);

    // A save that changes nothing writes nothing and keeps the version.
    const same = await grade(member.headers, {
      answerId: a.id,
      grade: null,
      grade_comment: 'Bien.',
      hidden: false,
      expectedGradeTimestamp: cleared.body.grade_timestamp,
    });
    expect(same.status).toBe(200);
    expect(same.body.grade_timestamp).toBe(cleared.body.grade_timestamp);
    expect(await auditOf(a.id)).toHaveLength(3);
  });

  it('tells the earlier corrector the copy changed under them (409 with the current state), never overwriting silently', async () => {
    const { n1 } = await chapterWith();
    const alice = await createUser(t, 'member', { firstName: 'Alice', lastName: 'Premier' });
    const bruno = await createUser(t, 'member', { firstName: 'Bruno', lastName: 'Second' });
    const p = await pupil('Disputé');
    const a = await answer(p.id, n1, '10');
    // Both opened the copy when it was ungraded.
    const opened = await get(`/api/answer/history/${p.id}/${n1}`, alice.headers);
    expect(opened.body.result).toMatchObject({ answerId: a.id, grade: null, grade_comment: '', hidden: false, grade_timestamp: null });

    const first = await grade(alice.headers, {
      answerId: a.id,
      grade: '3',
      grade_comment: 'Alice',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(first.status).toBe(200);
    const second = await grade(bruno.headers, {
      answerId: a.id,
      grade: '5',
      grade_comment: 'Bruno',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(GRADE_CONFLICT_MESSAGE);
    expect(second.body.current).toMatchObject({
      answerId: a.id,
      grade: '3',
      grade_comment: 'Alice',
      grade_timestamp: first.body.grade_timestamp,
      grader: { _id: alice.id, firstName: 'Alice', lastName: 'Premier' },
    });
    expect(await answerRow(a.id)).toMatchObject({ grade: '3', gradeComment: 'Alice' });

    // Bruno saves again from the state he was shown: the later save wins, and Alice is told in turn.
    const retry = await grade(bruno.headers, {
      answerId: a.id,
      grade: '5',
      grade_comment: 'Bruno',
      hidden: false,
      expectedGradeTimestamp: second.body.current.grade_timestamp,
    });
    expect(retry.status).toBe(200);
    const stale = await grade(alice.headers, {
      answerId: a.id,
      grade: '4',
      grade_comment: 'Alice',
      hidden: false,
      expectedGradeTimestamp: first.body.grade_timestamp,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ grade: '5', grader: { _id: bruno.id } });
    expect(await answerRow(a.id)).toMatchObject({ grade: '5', gradeComment: 'Bruno', graderId: bruno.id });
    expect((await auditOf(a.id)).map((r) => r.newGrade)).toEqual(['3', '5']);
  });

  it('lets exactly one of two simultaneous saves from the same version through', async () => {
    const { n1 } = await chapterWith();
    const c1 = await createUser(t, 'member');
    const c2 = await createUser(t, 'member');
    const p = await pupil('Simultané');
    const a = await answer(p.id, n1, '10');
    const [r1, r2] = await Promise.all([
      grade(c1.headers, { answerId: a.id, grade: '1', grade_comment: 'un', hidden: false, expectedGradeTimestamp: null }),
      grade(c2.headers, { answerId: a.id, grade: '2', grade_comment: 'deux', hidden: false, expectedGradeTimestamp: null }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const winner = r1.status === 200 ? r1 : r2;
    expect((await answerRow(a.id)).grade).toBe(winner.body.grade);
    expect(await auditOf(a.id)).toHaveLength(1);
  });

  it('refuses to grade an older answer once the pupil answered again, and a copy sent back to sorting', async () => {
    const { n1, pdf } = await chapterWith();
    const member = await createUser(t, 'member');
    const p = await pupil('Récent');
    const old = await answer(p.id, n1, '1');
    const latest = await answer(p.id, n1, '2');
    const res = await grade(member.headers, {
      answerId: old.id,
      grade: '1',
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(NEWER_ANSWER_MESSAGE);
    expect(res.body.current.answerId).toBe(latest.id);
    expect((await answerRow(old.id)).grade).toBeNull();

    const withdrawn = await answer(p.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000003.pdf', { withdrawnAt: new Date() });
    const w = await grade(member.headers, {
      answerId: withdrawn.id,
      grade: '1',
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(w.status).toBe(400);
    expect(w.body.message).toMatch(/renvoyée au triage/);
  });
});

describe('GET /answer/select/{exerciseId}', () => {
  it('hands the oldest answered, ungraded copy not opened by another corrector in the last 10 minutes', async () => {
    const { n1 } = await chapterWith();
    const c1 = await createUser(t, 'member');
    const c2 = await createUser(t, 'member');
    const [p1, p2, p3, p4] = await Promise.all([pupil('Un'), pupil('Deux'), pupil('Trois'), pupil('Quatre')]);
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    await answer(p4.id, n1, '5', { createdAt: minutesAgo(60), grade: '1' }); // graded
    await answer(p3.id, n1, '', { createdAt: minutesAgo(50) }); // empty: nothing to grade
    await answer(p1.id, n1, '1', { createdAt: minutesAgo(40) });
    await answer(p2.id, n1, '2', { createdAt: minutesAgo(30) });

    const first = await get(`/api/answer/select/${n1}`, c1.headers);
    expect(first.body).toEqual({ url: `${p1.id}/${n1}` });
    // c1 asking again keeps their copy; c2 gets the next one.
    expect((await get(`/api/answer/select/${n1}`, c1.headers)).body.url).toBe(`${p1.id}/${n1}`);
    expect((await get(`/api/answer/select/${n1}`, c2.headers)).body.url).toBe(`${p2.id}/${n1}`);
    // Nothing left for a third corrector while both copies are held...
    const c3 = await createUser(t, 'member');
    const none = await get(`/api/answer/select/${n1}`, c3.headers);
    expect(none.status).toBe(200);
    expect(none.body.url).toBeUndefined();
    expect(none.body.message).toMatch(/^Aucune copie à corriger/);
    // ...until a hold is older than 10 minutes.
    await db().execute(sql`UPDATE grading_claims SET claimed_at = now() - interval '11 minutes' WHERE user_id = ${c1.id}`);
    expect((await get(`/api/answer/select/${n1}`, c3.headers)).body.url).toBe(`${p1.id}/${n1}`);
    expect(await db().select().from(gradingClaims).where(eq(gradingClaims.userId, c3.id))).toHaveLength(1);
  });

  it('counts opening a copy from the table (history) as holding it', async () => {
    const { n1 } = await chapterWith();
    const c1 = await createUser(t, 'member');
    const c2 = await createUser(t, 'member');
    const p = await pupil('Ouvert');
    await answer(p.id, n1, '3');
    await get(`/api/answer/history/${p.id}/${n1}`, c1.headers);
    expect((await get(`/api/answer/select/${n1}`, c2.headers)).body.url).toBeUndefined();
  });
});

describe('reading a graded copy', () => {
  it('does not hold it again after its corrector graded it', async () => {
    const { n1 } = await chapterWith();
    const c1 = await createUser(t, 'member');
    const p = await pupil('Relu');
    const copy = await answer(p.id, n1, '3');
    const h = (await get(`/api/answer/history/${p.id}/${n1}`, c1.headers)).body;
    expect(await db().select().from(gradingClaims).where(eq(gradingClaims.answerId, copy.id))).toHaveLength(1);
    const saved = await grade(c1.headers, {
      answerId: h.result.answerId,
      grade: '1',
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(saved.status).toBe(200);
    await get(`/api/answer/history/${p.id}/${n1}`, c1.headers);
    expect(await db().select().from(gradingClaims).where(eq(gradingClaims.answerId, copy.id))).toEqual([]);
  });
});

describe('GET /answer/history/{uid}/{eid}', () => {
  it('gives members the answers (newest first) and an empty grade block to fill', async () => {
    const { n1, chapterId } = await chapterWith({ title: 'Histoire' });
    const member = await createUser(t, 'member');
    const p = await pupil('Lovelace', 'Ada');
    await answer(p.id, n1, '1');
    const latest = await answer(p.id, n1, '2');
    await answer(p.id, n1, '9', { withdrawnAt: new Date(), seq: 9_999_999 });
    const res = await get(`/api/answer/history/${p.id}/${n1}`, member.headers);
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ _id: p.id, firstName: 'Ada', lastName: 'Lovelace' });
    expect(res.body.exercise).toEqual({ _id: n1, title: 'Somme', answerFormat: 'numeric', chapter: chapterId, chapterTitle: 'Histoire' });
    expect(res.body.answers.map((a: { answer: string }) => a.answer)).toEqual(['2', '1']);
    expect(res.body.answers[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body.result).toEqual({
      answerId: latest.id,
      grade: null,
      grade_comment: '',
      hidden: false,
      grade_timestamp: null,
      grader: null,
      items: [],
      // Decisions 159–160: the caller's marks on the copy, none yet.
      annotations: [],
      bankComments: [],
    });
    expect(res.body.canGrade).toBe(true);
  });

  it('shows a pupil their answers, and grade and comment only once results are published — no internals', async () => {
    const { chapterId, n1 } = await chapterWith();
    const member = await createUser(t, 'member');
    const p = await pupil('Publié');
    const a = await answer(p.id, n1, '10');
    await grade(member.headers, { answerId: a.id, grade: '7', grade_comment: 'Très bien', hidden: true, expectedGradeTimestamp: null });
    const before = await get(`/api/answer/history/${p.id}/${n1}`, p.headers);
    expect(before.status).toBe(200);
    expect(before.body.answers).toHaveLength(1);
    expect(before.body.result).toBeNull();
    expect(before.body.canGrade).toBe(false);
    await db().update(chapters).set({ analysis: true }).where(eq(chapters.id, chapterId));
    const after = await get(`/api/answer/history/${p.id}/${n1}`, p.headers);
    expect(after.body.result).toEqual({ grade: '7', grade_comment: 'Très bien' });
    expect(JSON.stringify(after.body)).not.toContain(member.id);
  });

  it('gives a null result when there is no answer at all', async () => {
    const { n1 } = await chapterWith();
    const member = await createUser(t, 'member');
    const p = await pupil('Vide');
    const res = await get(`/api/answer/history/${p.id}/${n1}`, member.headers);
    expect(res.body).toMatchObject({ answers: [], result: null });
  });
});

describe('POST /answer/auto/{chapterId}', () => {
  it('grades numeric current answers maxPoints (here 20) or 0 against the pupil’s version, never touching empty answers or a person’s grade', async () => {
    const { chapterId, n1, n2, pdf } = await chapterWith();
    const admin = await createUser(t, 'admin');
    const member = await createUser(t, 'member');
    const pupils = await Promise.all(['A', 'B', 'C', 'D', 'E', 'F'].map((n) => pupil(`Auto${n}`)));
    const expectedN1 = (userId: string) => (pickVersionIndex(userId, n1, 2) === 0 ? '10' : '20');
    const wrongN1 = (userId: string) => (expectedN1(userId) === '10' ? '20' : '10');
    const [right, wrong, empty, person, junk, older] = pupils;
    const aRight = await answer(right.id, n1, ` ${expectedN1(right.id)},0 `);
    const aWrong = await answer(wrong.id, n1, wrongN1(wrong.id)); // the other version's answer is wrong
    const aEmpty = await answer(empty.id, n1, '');
    const aPerson = await answer(person.id, n1, wrongN1(person.id));
    await grade(member.headers, {
      answerId: aPerson.id,
      grade: '0.5',
      grade_comment: 'Demi-point',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    const aJunk = await answer(junk.id, n2, '3,5.1');
    const aN2 = await answer(right.id, n2, '3.50');
    await answer(older.id, n1, expectedN1(older.id));
    const aOlderLatest = await answer(older.id, n1, wrongN1(older.id));
    const aPdf = await answer(right.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000004.pdf');

    const res = await post(`/api/answer/auto/${chapterId}`, admin.headers);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ graded: 5, message: 'Correction automatique terminée : 5 copies notées.' });
    expect((await answerRow(aRight.id)).grade).toBe('20');
    expect((await answerRow(aN2.id)).grade).toBe('20');
    expect((await answerRow(aWrong.id)).grade).toBe('0');
    expect((await answerRow(aJunk.id)).grade).toBe('0');
    expect((await answerRow(aOlderLatest.id)).grade).toBe('0');
    expect((await answerRow(aEmpty.id)).grade).toBeNull();
    expect(await answerRow(aPerson.id)).toMatchObject({ grade: '0.5', graderId: member.id });
    expect((await answerRow(aPdf.id)).grade).toBeNull();
    const auto = await answerRow(aRight.id);
    expect(auto.graderId).toBeNull();
    expect(auto.gradeTimestamp).not.toBeNull();
    expect(await auditOf(aRight.id)).toMatchObject([{ graderId: admin.id, oldGrade: null, newGrade: '20' }]);

    // Run again: nothing changes, nothing audited twice.
    const again = await post(`/api/answer/auto/${chapterId}`, admin.headers);
    expect(again.body.graded).toBe(0);
    expect(await auditOf(aRight.id)).toHaveLength(1);

    // After the expected answer is corrected, earlier automatic grades follow; a person's grade stays.
    await db().update(statementVersions).set({ answer: '3.5001' }).where(eq(statementVersions.exerciseId, n2));
    const fixed = await post(`/api/answer/auto/${chapterId}`, admin.headers);
    expect(fixed.body.graded).toBe(1);
    expect((await answerRow(aN2.id)).grade).toBe('0');
    expect((await answerRow(aPerson.id)).grade).toBe('0.5');
  });
});

describe('overview, unlabelled count and the demo grades', () => {
  it('lists the graded current answers with student, grader and exercise', async () => {
    const { chapterId, n1, n2 } = await chapterWith();
    const member = await createUser(t, 'member', { firstName: 'Rémi', lastName: 'Relecteur' });
    const p = await pupil('Revu', 'Léa');
    const a1 = await answer(p.id, n1, '10');
    await answer(p.id, n2, '1');
    await grade(member.headers, { answerId: a1.id, grade: '4', grade_comment: 'Commentaire', hidden: false, expectedGradeTimestamp: null });
    const res = await get(`/api/answer/overview/${chapterId}`, member.headers);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      _id: a1.id,
      student: { _id: p.id, firstName: 'Léa', lastName: 'Revu' },
      grader: { _id: member.id, firstName: 'Rémi', lastName: 'Relecteur' },
      exercise: { _id: n1, title: 'Somme' },
      grade: '4',
      grade_comment: 'Commentaire',
    });
  });

  it('counts the scanned copies of the chapter still to sort', async () => {
    const { chapterId } = await chapterWith({ offline: true });
    const member = await createUser(t, 'member');
    const [f1, f2, f3] = await db()
      .insert(files)
      .values([{ size: 10 }, { size: 10 }, { size: 10 }])
      .returning();
    await db()
      .insert(unlabeledAnswers)
      .values([
        { chapterId, fileId: f1.id },
        { chapterId, fileId: f2.id },
        { chapterId, fileId: f3.id, labeledAt: new Date() },
      ]);
    const res = await get(`/api/answer/unlabeled/stats/${chapterId}`, member.headers);
    expect(res).toMatchObject({ status: 200, body: { count: 2 } });
  });

  it('seeds demo grades giving numbers, X and ungraded cells', async () => {
    const { chapterId, n1, n2 } = await chapterWith();
    const member = await createUser(t, 'member');
    for (let i = 0; i < 6; i++) {
      const p = await pupil(`Démo${i}`);
      await answer(p.id, n1, String(i));
      await answer(p.id, n2, String(i));
    }
    const { graded } = await seedGradingDemo(db(), { chapterId, graderId: member.id });
    expect(graded).toBeGreaterThan(0);
    const table = await get(`/api/answer/table/${chapterId}`, member.headers);
    const values = Object.values(table.body.users as Record<string, { data: string[] }>).flatMap((u) => u.data);
    expect(values).toContain('?');
    expect(values).toContain('X');
    expect(values.some((v) => /^\d/.test(v))).toBe(true);
    const rows = await db()
      .select()
      .from(answers)
      .where(and(eq(answers.graderId, member.id)));
    expect(rows.length).toBe(graded);
  });
});
