import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CELL_ARBITRATION, NOT_ASSIGNED_MESSAGE } from '@olympe/contract';
import { answers, auditLog, chapters, exercises, gradeAudit, gradingClaims, gradings, statementVersions } from '../src/db/schema.js';
import { pickVersionIndex } from '../src/exercises/versions.js';
import { buildTestApp, copyIdOf, createUser, inject, type TestApp } from './helpers.js';

/**
 * Decisions 61–65: points and marking scheme, the desk, anonymous correction, double correction with
 * arbitration (concurrent correctors included) and assignment of exercises to correctors.
 */

let t: TestApp;
let admin: Headers;
let adminId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const a = await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Admin' });
  admin = a.headers;
  adminId = a.id;
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;
const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, headers: Headers, payload: unknown) =>
  inject(t, { method, url, headers, payload: payload as Record<string, unknown> });

let seq = 1;
async function answer(userId: string, exerciseId: string, value: string) {
  const [row] = await db().insert(answers).values({ userId, exerciseId, answer: value, seq: seq++ }).returning();
  return row;
}

/** A chapter with a numeric exercise (two versions, worth 4) and a pdf one (worth 10), with options. */
async function chapterWith(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Coupe', ...fields })
    .returning();
  const [num, pdf] = await db()
    .insert(exercises)
    .values([
      { chapterId: c.id, position: 0, title: 'Somme des carrés', answerFormat: 'numeric', maxPoints: 4 },
      { chapterId: c.id, position: 1, title: 'Preuve', answerFormat: 'pdf', maxPoints: 10 },
    ])
    .returning();
  await db()
    .insert(statementVersions)
    .values([
      { exerciseId: num.id, position: 0, content: 'Calculer $1^2+\\dots+10^2$.', answer: '385' },
      { exerciseId: num.id, position: 1, content: 'Calculer $1^2+\\dots+12^2$.', answer: '650' },
      { exerciseId: pdf.id, position: 0, content: 'Montrer que…', answer: null },
    ]);
  return { chapterId: c.id, num: num.id, pdf: pdf.id };
}

let pupilCount = 0;
const pupil = (lastName = `Élève${++pupilCount}`) =>
  createUser(t, 'pupil', {
    firstName: 'Prénom',
    lastName,
    email: `${lastName.toLowerCase()}-${pupilCount}@eleves.fr`,
    gender: 'female',
    grade: '2nde',
    birthDate: '2009-03-04',
  });

/** The grade block a corrector sees on a copy, to save from. */
async function deskOf(headers: Headers, userId: string, exerciseId: string) {
  let res = await get(`/api/answer/history/${userId}/${exerciseId}`, headers);
  // A corrector of an anonymous chapter reaches the copy by its copy id only (decision 128).
  if (res.status === 404) res = await get(`/api/answer/history/${await copyIdOf(t, userId, exerciseId)}/${exerciseId}`, headers);
  expect(res.status).toBe(200);
  return res.body;
}

async function gradeAs(
  headers: Headers,
  userId: string,
  exerciseId: string,
  grade: string | number | null,
  extra: Record<string, unknown> = {},
) {
  const h = await deskOf(headers, userId, exerciseId);
  return send('POST', '/api/answer/grade', headers, {
    answerId: h.result.answerId,
    grade,
    grade_comment: extra.grade_comment ?? '',
    hidden: false,
    expectedGradeTimestamp: h.result.grade_timestamp ?? null,
    ...extra,
  });
}

describe('points and marking scheme', () => {
  it('edits maxPoints and scheme items on /exos, refusing a negative maximum or items worth more than it', async () => {
    const { num } = await chapterWith();
    const items = [
      { text: 'Initialisation', points: 1 },
      { text: 'Hérédité', points: 2.5 },
    ];
    const ok = await send('PATCH', `/api/exos/${num}`, admin, { maxPoints: 7, schemeItems: items });
    expect(ok.status).toBe(200);
    const [row] = await db().select().from(exercises).where(eq(exercises.id, num));
    expect(row.maxPoints).toBe(7);
    expect(row.schemeItems.map((i) => [i.text, i.points])).toEqual([
      ['Initialisation', 1],
      ['Hérédité', 2.5],
    ]);
    expect(row.schemeItems.every((i) => /^[0-9a-f-]{36}$/.test(i.id))).toBe(true);

    for (const [payload, message] of [
      [{ maxPoints: -1 }, /ne peut pas être négatif/],
      [{ maxPoints: 'dix' }, /doit être un nombre/],
      [{ maxPoints: 2 }, /totalisent 3,5 points\s: plus que les 2 points/],
      [{ schemeItems: [{ text: '', points: 1 }] }, /doit avoir un texte/],
      [{ schemeItems: [{ text: 'Trop', points: 8 }] }, /plus que les 7 points/],
    ] as const) {
      const res = await send('PATCH', `/api/exos/${num}`, admin, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const [after] = await db().select().from(exercises).where(eq(exercises.id, num));
    expect(after.maxPoints).toBe(7);
    expect(after.schemeItems).toEqual(row.schemeItems);
    // Editing the scheme again keeps the ids of the items sent back.
    await send('PATCH', `/api/exos/${num}`, admin, { schemeItems: [{ ...row.schemeItems[1], text: 'Hérédité complète' }] });
    const [edited] = await db().select().from(exercises).where(eq(exercises.id, num));
    expect(edited.schemeItems).toEqual([{ id: row.schemeItems[1].id, text: 'Hérédité complète', points: 2.5 }]);
  });

  it('refuses a grade above maxPoints or negative with a French 400, accepts X, and sums ticked items unless typed by hand', async () => {
    const { chapterId, num } = await chapterWith();
    await send('PATCH', `/api/exos/${num}`, admin, {
      schemeItems: [
        { text: 'Méthode', points: 1 },
        { text: 'Calcul', points: 2 },
      ],
    });
    const [{ schemeItems }] = await db().select().from(exercises).where(eq(exercises.id, num));
    const corrector = await createUser(t, 'member');
    const p = await pupil();
    const a = await answer(p.id, num, '385');

    for (const [grade, message] of [
      ['4.5', /Note trop élevée\s: cet exercice est noté sur 4\./],
      [5, /Note trop élevée/],
      ['-1', /négative/],
      [-0.5, /négative/],
    ] as const) {
      const res = await gradeAs(corrector.headers, p.id, num, grade);
      expect(res.status, String(grade)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const unknown = await gradeAs(corrector.headers, p.id, num, null, { items: ['00000000-0000-4000-8000-00000000abcd'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Élément de barème inconnu pour cet exercice.');
    expect((await db().select().from(answers).where(eq(answers.id, a.id)))[0].grade).toBeNull();

    const summed = await gradeAs(corrector.headers, p.id, num, null, { items: [schemeItems[0].id, schemeItems[1].id] });
    expect(summed.status).toBe(200);
    expect(summed.body).toMatchObject({ grade: '3', items: [schemeItems[0].id, schemeItems[1].id] });
    const typed = await gradeAs(corrector.headers, p.id, num, '2.5', { items: [schemeItems[1].id] });
    expect(typed.body).toMatchObject({ grade: '2.5', items: [schemeItems[1].id] });
    const history = await deskOf(corrector.headers, p.id, num);
    expect(history.result).toMatchObject({ grade: '2.5', items: [schemeItems[1].id] });
    expect(history.desk.items).toEqual([schemeItems[1].id]);
    const audit = await db().select().from(gradeAudit).where(eq(gradeAudit.answerId, a.id)).orderBy(gradeAudit.id);
    expect(audit.map((r) => [r.newGrade, r.items])).toEqual([
      ['3', [schemeItems[0].id, schemeItems[1].id]],
      ['2.5', [schemeItems[1].id]],
    ]);
    expect((await gradeAs(corrector.headers, p.id, num, 'x')).body.grade).toBe('X');

    // Totals: the table gives each maximum and their sum; the pupils' chapter page too.
    const table = await get(`/api/answer/table/${chapterId}`, corrector.headers);
    expect(table.body.exercises.map((e: { maxPoints: number }) => e.maxPoints)).toEqual([4, 10]);
    expect(table.body.maxTotal).toBe(14);
  });

  it('gives the desk beside a copy: the pupil’s version, its expected answer, points, scheme and chapter — never to pupils', async () => {
    const { chapterId, num, pdf } = await chapterWith({ analysis: true });
    const corrector = await createUser(t, 'member');
    const p = await createUser(t, 'pupil', { firstName: 'Émilie', lastName: 'Châtelet' });
    await answer(p.id, num, '649');
    await answer(p.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000001.pdf');
    const index = pickVersionIndex(p.id, num, 2);
    const h = await deskOf(corrector.headers, p.id, num);
    expect(h.desk).toMatchObject({
      chapter: { _id: chapterId, title: 'Coupe', anonymousGrading: false, doubleGrading: false },
      statement: ['Calculer $1^2+\\dots+10^2$.', 'Calculer $1^2+\\dots+12^2$.'][index],
      version: index + 1,
      expectedAnswer: ['385', '650'][index],
      maxPoints: 4,
      schemeItems: [],
      role: 'single',
    });
    expect((await deskOf(corrector.headers, p.id, pdf)).desk).toMatchObject({ expectedAnswer: null, maxPoints: 10 });
    const own = await get(`/api/answer/history/${p.id}/${num}`, p.headers);
    expect(own.status).toBe(200);
    expect(own.body.desk).toBeUndefined();
    // Quoted: a bare 650 may be the milliseconds of a timestamp or part of an id.
    expect(JSON.stringify(own.body)).not.toMatch(/"385"|"650"|expectedAnswer|Calculer/);
  });
});

describe('anonymous correction', () => {
  it('never gives a corrector a pupil’s name, e-mail or profile in any grading response; admins still see names', async () => {
    const { chapterId, num, pdf } = await chapterWith({ anonymousGrading: true, doubleGrading: true, gradingTolerance: 1 });
    const corrector = await createUser(t, 'member', { firstName: 'Carl', lastName: 'Correcteur' });
    const second = await createUser(t, 'member', { firstName: 'Cécile', lastName: 'Seconde' });
    const pupils = [await pupil('Noether'), await pupil('Hypatie'), await pupil('Kovalevskaïa')];
    for (const p of pupils) {
      await answer(p.id, num, '385');
      await answer(p.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000002.pdf');
    }
    // Some gradings so the overview and the desk have content.
    await gradeAs(corrector.headers, pupils[0].id, num, '1', { grade_comment: 'Calcul juste' });
    await gradeAs(second.headers, pupils[0].id, num, '4');

    // A pupil's id names them too (GET /user/{uid} for admins, the sorting search): never in a corrector's response (decision 128).
    const secrets = pupils.flatMap((p) => [
      p.id,
      p.email,
      ['Noether', 'Hypatie', 'Kovalevskaïa'][pupils.indexOf(p)],
      '2009-03-04',
      'female',
      '2nde',
    ]);
    const responses: Array<[string, unknown]> = [];
    const collect = async (url: string) => {
      const res = await get(url, corrector.headers);
      expect(res.status, url).toBe(200);
      responses.push([url, res.body]);
      return res.body;
    };
    const table = await collect(`/api/answer/table/${chapterId}`);
    const copyIds = Object.keys(table.users as Record<string, unknown>);
    expect(copyIds).toHaveLength(3);
    for (const copy of copyIds) {
      await collect(`/api/answer/history/${copy}/${num}`);
      await collect(`/api/answer/history/${copy}/${pdf}`);
    }
    for (const p of pupils) {
      const byPupil = await get(`/api/answer/history/${p.id}/${num}`, corrector.headers);
      expect(byPupil.status).toBe(404);
      expect(byPupil.body.message).toBe('Copie introuvable.');
    }
    await collect(`/api/answer/overview/${chapterId}`);
    await collect(`/api/answer/select/${num}`);
    await collect(`/api/answer/select/${pdf}`);
    await collect(`/api/chapter/${chapterId}/assignments`);
    const saved = await gradeAs(corrector.headers, pupils[1].id, pdf, '5');
    responses.push(['POST /api/answer/grade', saved.body]);
    const conflict = await send('POST', '/api/answer/grade', corrector.headers, {
      answerId: (await deskOf(corrector.headers, pupils[1].id, pdf)).result.answerId,
      grade: '6',
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(conflict.status).toBe(409);
    responses.push(['409 of POST /api/answer/grade', conflict.body]);
    for (const [url, body] of responses) {
      const text = JSON.stringify(body);
      for (const secret of secrets) expect(text, `${url} leaks ${secret}`).not.toContain(secret);
    }

    // Pseudonyms: « Copie 0042 », one per pupil, stable from one call to the next and across endpoints.
    const names = Object.values(table.users as Record<string, { pseudonym: string; email: string; lastName: string | null }>);
    expect(names.every((u) => /^Copie \d{4}$/.test(u.pseudonym) && u.email === '' && u.lastName === null)).toBe(true);
    expect(new Set(names.map((u) => u.pseudonym)).size).toBe(3);
    const again = (await get(`/api/answer/table/${chapterId}`, corrector.headers)).body;
    expect(again.users).toEqual(table.users);
    const history = await deskOf(second.headers, pupils[0].id, num);
    const firstCopy = await copyIdOf(t, pupils[0].id, num);
    expect(history.user).toEqual({ _id: firstCopy, firstName: null, lastName: null, pseudonym: table.users[firstCopy].pseudonym });

    const asAdmin = (await get(`/api/answer/table/${chapterId}`, admin)).body;
    expect(asAdmin.users[pupils[0].id]).toMatchObject({ lastName: 'Noether', email: pupils[0].email });
    expect(asAdmin.users[pupils[0].id].pseudonym).toBeUndefined();
    expect((await deskOf(admin, pupils[0].id, num)).user.lastName).toBe('Noether');
  });
});

describe('chapter options', () => {
  it('sets anonymous and double correction with a tolerance on /chapters, shows them to staff only, refuses bad values', async () => {
    const { chapterId } = await chapterWith();
    const res = await send('PATCH', `/api/chapter/${chapterId}`, admin, {
      anonymousGrading: true,
      doubleGrading: true,
      gradingTolerance: 1.5,
    });
    expect(res.status).toBe(200);
    const member = await createUser(t, 'member');
    expect((await get(`/api/chapter/${chapterId}`, member.headers)).body).toMatchObject({
      anonymousGrading: true,
      doubleGrading: true,
      gradingTolerance: 1.5,
    });
    for (const [payload, message] of [
      [{ gradingTolerance: -1 }, /ne peut pas être négatif/],
      [{ gradingTolerance: 0.125 }, /deux décimales/],
      [{ doubleGrading: 'oui' }, /vrai ou faux/],
    ] as const) {
      const bad = await send('PATCH', `/api/chapter/${chapterId}`, admin, payload);
      expect(bad.status, JSON.stringify(payload)).toBe(400);
      expect(bad.body.message).toMatch(message);
    }
    expect((await db().select().from(chapters).where(eq(chapters.id, chapterId)))[0].gradingTolerance).toBe(1.5);
  });
});

describe('grading options: set on creation, audited', () => {
  const optionsAudit = (chapterId: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'chapter.grading-options'), eq(auditLog.targetId, chapterId)))
      .orderBy(auditLog.id);

  it('applies the grading options given to POST /chapter as PATCH does, refuses bad ones, and audits them', async () => {
    const created = await send('POST', '/api/chapter', admin, {
      title: 'Finale',
      anonymousGrading: true,
      doubleGrading: true,
      gradingTolerance: 0.5,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const member = await createUser(t, 'member');
    expect((await get(`/api/chapter/${created.body._id}`, member.headers)).body).toMatchObject({
      anonymousGrading: true,
      doubleGrading: true,
      gradingTolerance: 0.5,
    });
    const [entry] = await optionsAudit(created.body._id);
    expect(entry).toMatchObject({
      actorId: adminId,
      details: { before: null, after: { anonymousGrading: true, doubleGrading: true, gradingTolerance: 0.5 } },
    });

    // Without options: the defaults, and nothing to audit.
    const plain = await send('POST', '/api/chapter', admin, { title: 'Sans options' });
    expect((await db().select().from(chapters).where(eq(chapters.id, plain.body._id)))[0]).toMatchObject({
      anonymousGrading: false,
      doubleGrading: false,
    });
    expect(await optionsAudit(plain.body._id)).toEqual([]);

    const before = (await db().select().from(chapters)).length;
    for (const [payload, message] of [
      [{ title: 'Mauvaise', gradingTolerance: -1 }, /ne peut pas être négatif/],
      [{ title: 'Mauvaise', doubleGrading: 'oui' }, /vrai ou faux/],
    ] as const) {
      const bad = await send('POST', '/api/chapter', admin, payload);
      expect(bad.status, JSON.stringify(payload)).toBe(400);
      expect(bad.body.message).toMatch(message);
    }
    expect(await db().select().from(chapters)).toHaveLength(before);
  });

  it('audits a change of the grading options on PATCH with the options before and after, and nothing else', async () => {
    const { chapterId } = await chapterWith();
    expect((await send('PATCH', `/api/chapter/${chapterId}`, admin, { title: 'Coupe renommée' })).status).toBe(200);
    expect((await send('PATCH', `/api/chapter/${chapterId}`, admin, { doubleGrading: false })).status).toBe(200); // unchanged
    expect(await optionsAudit(chapterId)).toEqual([]);
    expect((await send('PATCH', `/api/chapter/${chapterId}`, admin, { doubleGrading: true, gradingTolerance: 2 })).status).toBe(200);
    expect((await send('PATCH', `/api/chapter/${chapterId}`, admin, { anonymousGrading: true })).status).toBe(200);
    expect((await optionsAudit(chapterId)).map((a) => [a.actorId, a.details])).toEqual([
      [
        adminId,
        {
          before: { anonymousGrading: false, doubleGrading: false, gradingTolerance: 0 },
          after: { anonymousGrading: false, doubleGrading: true, gradingTolerance: 2 },
        },
      ],
      [
        adminId,
        {
          before: { anonymousGrading: false, doubleGrading: true, gradingTolerance: 2 },
          after: { anonymousGrading: true, doubleGrading: true, gradingTolerance: 2 },
        },
      ],
    ]);
  });
});

describe('double correction', () => {
  it('lets one of two correctors saving the second grading at once through; the other gets 409 and the copy keeps two gradings', async () => {
    const { pdf } = await chapterWith({ doubleGrading: true, gradingTolerance: 0 });
    const [a, b, c] = [await createUser(t, 'member'), await createUser(t, 'member'), await createUser(t, 'member')];
    const p = await pupil();
    const copy = await answer(p.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000009.pdf');
    await gradeAs(a.headers, p.id, pdf, '3');
    const [hb, hc] = [await deskOf(b.headers, p.id, pdf), await deskOf(c.headers, p.id, pdf)];
    const body = (h: { result: { answerId: string } }, grade: string) => ({
      answerId: h.result.answerId,
      grade,
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    const results = await Promise.all([
      send('POST', '/api/answer/grade', b.headers, body(hb, '3')),
      send('POST', '/api/answer/grade', c.headers, body(hc, '3')),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const rowsOf = await db().select().from(gradings).where(eq(gradings.answerId, copy.id));
    expect(rowsOf).toHaveLength(2);
    expect((await db().select().from(answers).where(eq(answers.id, copy.id)))[0].grade).toBe('3');
  });

  it('keeps the two gradings blind until both are in, settles by the mean within tolerance and sends the rest to arbitration', async () => {
    const { chapterId, pdf } = await chapterWith({ doubleGrading: true, gradingTolerance: 2 });
    const first = await createUser(t, 'member', { firstName: 'Premier', lastName: 'Correcteur' });
    const second = await createUser(t, 'member', { firstName: 'Second', lastName: 'Correcteur' });
    const third = await createUser(t, 'member');
    const close = await pupil();
    const far = await pupil();
    const closeAnswer = await answer(close.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000003.pdf');
    const farAnswer = await answer(far.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000004.pdf');

    expect((await gradeAs(first.headers, close.id, pdf, '6', { grade_comment: 'Bien' })).body).toMatchObject({
      status: 'partial',
      finalGrade: null,
    });
    const blind = await deskOf(second.headers, close.id, pdf);
    expect(blind.desk).toMatchObject({ role: 'second', status: 'partial', gradings: [] });
    expect(blind.result).toMatchObject({ grade: null, grade_timestamp: null });
    expect(JSON.stringify(blind)).not.toContain('Bien');
    // The table shows '?' until the copy is settled.
    expect((await get(`/api/answer/table/${chapterId}`, first.headers)).body.users[close.id].data[1]).toBe('?');

    const settled = await gradeAs(second.headers, close.id, pdf, '7.5', { grade_comment: 'Rédaction soignée' });
    expect(settled.body).toMatchObject({ grade: '7.5', status: 'settled', finalGrade: '6.75' });
    const row = (await db().select().from(answers).where(eq(answers.id, closeAnswer.id)))[0];
    expect(row).toMatchObject({ grade: '6.75', gradeComment: 'Bien\n\nRédaction soignée' });
    const both = await deskOf(first.headers, close.id, pdf);
    expect(both.desk.gradings.map((g: { grade: string }) => g.grade)).toEqual(['6', '7.5']);
    // A third corrector has nothing left to do here.
    const refused = await gradeAs(third.headers, close.id, pdf, '1');
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.message).toMatch(/déjà ses deux corrections/);

    await gradeAs(first.headers, far.id, pdf, '2');
    expect((await gradeAs(second.headers, far.id, pdf, '9')).body).toMatchObject({ status: 'arbitration', finalGrade: null });
    const table = (await get(`/api/answer/table/${chapterId}`, admin)).body;
    expect(table.users[far.id].data[1]).toBe(CELL_ARBITRATION);
    expect(table.users[close.id].data[1]).toBe('6.75');
    expect(table.progress[1]).toEqual({ exercise: pdf, answered: 2, graded0: 0, graded1: 0, graded2: 2, arbitration: 1 });
    const byCorrector = Object.fromEntries(
      table.correctors.map((c: { corrector: { _id: string }; copies: number; meanGrade: number }) => [
        c.corrector._id,
        [c.copies, c.meanGrade],
      ]),
    );
    expect(byCorrector[first.id]).toEqual([2, 4]);
    expect(byCorrector[second.id]).toEqual([2, 8.25]);

    const list = await get(`/api/answer/arbitration/${chapterId}`, admin);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ answerId: farAnswer.id, url: `${far.id}/${pdf}`, exercise: { _id: pdf, maxPoints: 10 } });
    expect(list.body[0].gradings.map((g: { grade: string }) => g.grade)).toEqual(['2', '9']);

    expect((await deskOf(admin, far.id, pdf)).desk).toMatchObject({ role: 'arbiter', status: 'arbitration' });
    const arbitrated = await gradeAs(admin, far.id, pdf, '5', { grade_comment: 'Tranché' });
    expect(arbitrated.body).toMatchObject({ status: 'arbitrated', finalGrade: '5' });
    expect((await db().select().from(answers).where(eq(answers.id, farAnswer.id)))[0]).toMatchObject({
      grade: '5',
      gradeComment: 'Tranché',
    });
    expect((await get(`/api/answer/arbitration/${chapterId}`, admin)).body).toEqual([]);

    // The overview and the audit keep both gradings and the arbitration.
    const overview = (await get(`/api/answer/overview/${chapterId}`, admin)).body;
    const farRow = overview.find((r: { _id: string }) => r._id === farAnswer.id);
    expect(farRow).toMatchObject({ grade: '5', status: 'arbitrated', exercise: { _id: pdf, maxPoints: 10 } });
    expect(farRow.gradings.map((g: { grade: string; arbitration: boolean }) => [g.grade, g.arbitration])).toEqual([
      ['2', false],
      ['9', false],
      ['5', true],
    ]);
    const audit = await db().select().from(gradeAudit).where(eq(gradeAudit.answerId, farAnswer.id)).orderBy(gradeAudit.id);
    expect(audit.map((a) => [a.kind, a.newGrade])).toEqual([
      ['grading', '2'],
      ['grading', '9'],
      ['arbitration', '5'],
      ['grade', '5'],
    ]);
    expect(audit[2].graderId).toBe(adminId);
  });

  it('hands a copy to a second corrector only if they were not the first, and two correctors asking at once get different copies', async () => {
    const { pdf } = await chapterWith({ doubleGrading: true, gradingTolerance: 1 });
    const a = await createUser(t, 'member');
    const b = await createUser(t, 'member');
    const c = await createUser(t, 'member');
    const p1 = await pupil();
    const p2 = await pupil();
    await answer(p1.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000005.pdf');
    await answer(p2.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000006.pdf');

    const [ra, rb] = await Promise.all([get(`/api/answer/select/${pdf}`, a.headers), get(`/api/answer/select/${pdf}`, b.headers)]);
    const urls = [ra.body.url, rb.body.url];
    expect(urls.every(Boolean)).toBe(true);
    expect(new Set(urls).size).toBe(2);

    // a grades their copy; the next copy a gets is never that one again.
    const [aPupil] = ra.body.url.split('/');
    expect((await gradeAs(a.headers, aPupil, pdf, '1')).status).toBe(200);
    const next = await get(`/api/answer/select/${pdf}`, a.headers);
    expect(next.body.url).toBeUndefined();
    // c is handed the copy a graded (it needs its second grading, and b holds the other one).
    expect((await get(`/api/answer/select/${pdf}`, c.headers)).body.url).toBe(`${aPupil}/${pdf}`);
  });
});

describe('holding a copy while grading it', () => {
  it('does not hold a copy again when its corrector reads it after grading: a second corrector takes it at once', async () => {
    const { pdf } = await chapterWith({ doubleGrading: true, gradingTolerance: 1 });
    const [a, b] = [await createUser(t, 'member'), await createUser(t, 'member')];
    const p = await pupil();
    const copy = await answer(p.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000010.pdf');
    expect((await get(`/api/answer/select/${pdf}`, a.headers)).body.url).toBe(`${p.id}/${pdf}`);
    // Before a grades it, the copy is a's: b is handed nothing.
    expect((await get(`/api/answer/select/${pdf}`, b.headers)).body.url).toBeUndefined();
    expect((await gradeAs(a.headers, p.id, pdf, '4')).status).toBe(200);
    // The desk reads the copy again after each save (fresh double-correction state), twice here.
    for (let i = 0; i < 2; i++) expect((await deskOf(a.headers, p.id, pdf)).desk).toMatchObject({ role: 'first', status: 'partial' });
    expect(await db().select().from(gradingClaims).where(eq(gradingClaims.answerId, copy.id))).toEqual([]);
    expect((await get(`/api/answer/select/${pdf}`, b.headers)).body.url).toBe(`${p.id}/${pdf}`);
    expect((await gradeAs(b.headers, p.id, pdf, '4.5')).body).toMatchObject({ status: 'settled', finalGrade: '4.25' });
  });

  it('holds a copy opened from the table only for a corrector who has to grade it and holds no other copy', async () => {
    const { pdf } = await chapterWith({ doubleGrading: true, gradingTolerance: 1 });
    const [a, b] = [await createUser(t, 'member'), await createUser(t, 'member')];
    const [p1, p2] = [await pupil(), await pupil()];
    const c1 = await answer(p1.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000011.pdf');
    const c2 = await answer(p2.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000012.pdf');
    const holders = async (answerId: string) =>
      (await db().select().from(gradingClaims).where(eq(gradingClaims.answerId, answerId))).map((c) => c.userId);
    await deskOf(a.headers, p1.id, pdf);
    expect(await holders(c1.id)).toEqual([a.id]);
    // a already holds p1's copy: reading p2's does not move the hold, nor take p2's copy.
    await deskOf(a.headers, p2.id, pdf);
    expect([await holders(c1.id), await holders(c2.id)]).toEqual([[a.id], []]);
    // b reading a's held copy does not take it.
    await deskOf(b.headers, p1.id, pdf);
    expect(await holders(c1.id)).toEqual([a.id]);
  });
});

describe('assignment of exercises to correctors', () => {
  it('gives next copies of an assigned exercise only to its correctors; without assignment anyone grades', async () => {
    const { chapterId, num, pdf } = await chapterWith();
    const alice = await createUser(t, 'member', { firstName: 'Alice', lastName: 'Assignée' });
    const bob = await createUser(t, 'member', { firstName: 'Bob', lastName: 'Libre' });
    const p = await pupil();
    await answer(p.id, num, '1');
    await answer(p.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000007.pdf');

    const saved = await send('PUT', `/api/chapter/${chapterId}/assignments`, admin, {
      assignments: [{ exercise: pdf, correctors: [alice.id] }],
    });
    expect(saved.status).toBe(200);
    const view = (await get(`/api/chapter/${chapterId}/assignments`, bob.headers)).body;
    expect(view.exercises).toEqual([
      { _id: num, title: 'Somme des carrés', correctors: [] },
      { _id: pdf, title: 'Preuve', correctors: [alice.id] },
    ]);
    expect(view.correctors.map((c: { _id: string }) => c._id)).toEqual(expect.arrayContaining([alice.id, bob.id, adminId]));

    expect((await get(`/api/answer/select/${pdf}`, bob.headers)).body).toEqual({ message: NOT_ASSIGNED_MESSAGE });
    const bobNum = await get(`/api/answer/select/${num}`, bob.headers);
    expect(bobNum.body.url, JSON.stringify(bobNum.body)).toBe(`${p.id}/${num}`);
    expect((await get(`/api/answer/select/${pdf}`, alice.headers)).body.url).toBe(`${p.id}/${pdf}`);

    const pupilAsCorrector = await send('PUT', `/api/chapter/${chapterId}/assignments`, admin, {
      assignments: [{ exercise: pdf, correctors: [p.id] }],
    });
    expect(pupilAsCorrector.status).toBe(400);
    expect(pupilAsCorrector.body.message).toMatch(/Seuls les membres du jury/);
    const other = await chapterWith();
    const foreign = await send('PUT', `/api/chapter/${chapterId}/assignments`, admin, {
      assignments: [{ exercise: other.pdf, correctors: [alice.id] }],
    });
    expect(foreign.status).toBe(400);
    expect((await get(`/api/chapter/${chapterId}/assignments`, admin)).body.exercises[1].correctors).toEqual([alice.id]);

    // Without assignment, Bob gets pdf copies again (not the one Alice holds).
    const p2 = await pupil();
    await answer(p2.id, pdf, 'pdfs/00000000-0000-4000-8000-000000000008.pdf');
    await send('PUT', `/api/chapter/${chapterId}/assignments`, admin, { assignments: [] });
    expect((await get(`/api/answer/select/${pdf}`, bob.headers)).body.url).toBe(`${p2.id}/${pdf}`);
  });
});

describe('blind double marking (decision 129)', () => {
  it('never lets a corrector compute another corrector’s hidden grade from the table’s per-corrector figures', async () => {
    const { chapterId, num } = await chapterWith({ doubleGrading: true, gradingTolerance: 1 });
    const first = await createUser(t, 'member', { firstName: 'Aline', lastName: 'Première' });
    const second = await createUser(t, 'member', { firstName: 'Bruno', lastName: 'Second' });
    const pupils = [await pupil(), await pupil()];
    for (const p of pupils) await answer(p.id, num, '385');
    // A grades both copies; B grades the first, so B's sums minus B's own grade would give A's.
    expect((await gradeAs(first.headers, pupils[0].id, num, '3')).status).toBe(200);
    expect((await gradeAs(first.headers, pupils[1].id, num, '1')).status).toBe(200);
    expect((await gradeAs(second.headers, pupils[0].id, num, '3')).status).toBe(200);

    for (const url of [`/api/answer/table/${chapterId}`, `/api/answer/table/${chapterId}?limit=0`]) {
      const asSecond = (await get(url, second.headers)).body;
      expect(asSecond.correctors, url).toEqual([
        { corrector: { _id: second.id, firstName: 'Bruno', lastName: 'Second' }, copies: 1, meanGrade: 3 },
      ]);
      const asAdmin = (await get(url, admin)).body;
      expect(asAdmin.correctors.map((c: { corrector: { lastName: string } }) => c.corrector.lastName).sort(), url).toEqual([
        'Première',
        'Second',
      ]);
      // The second copy, graded by A alone, shows no grade to B.
      expect(JSON.stringify(asSecond.users ?? {})).not.toContain('"1"');
    }
  });
});
