import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUTOFF_MISSING_MESSAGE, DECISION_REASON_MISSING_MESSAGE, TIE_UNRESOLVED_MESSAGE, type Board } from '@olympe/contract';
import {
  answers,
  auditLog,
  chapterSessions,
  chapters,
  exercises,
  groupMembers,
  groups,
  institutions,
  selectionOutcomes,
  selectionVersions,
  users,
} from '../src/db/schema.js';
import { boardKeys } from '../src/selections/keys.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * docs/product.md#selections, decisions 155–157: a selection and its categories, the anonymous board (masks from the
 * session's recorded profile), cut-offs, ties, quotas, decisions by key, frozen versions, their changes and the drift
 * a regrade makes, and who may do what.
 */

type Headers = Record<string, string>;
let t: TestApp;
let admin: Headers;
let juror: Headers;
let reader: Headers;
let teacher: Headers;
let pupilHeaders: Headers;
const db = () => t.database.db;
const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: unknown) =>
  inject(t, { method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

/** Chapter A (weight 1): a1, a2 out of 10; chapter B (weight 2): b1 out of 5. Maximum 30. */
let chapterA: string;
let chapterB: string;
const ex: Record<string, string> = {};
const pupil: Record<string, string> = {};
let juryGroup: string;
let readGroup: string;
let selectionId: string;
let college: string;
let lycee: string;

/** Distinctive names: none may appear on the board before names are shown. */
const NAMES = ['Zéphyrine', 'Anatole', 'Bérénice', 'Cunégonde', 'Désiré', 'Eulalie', 'Fulbert'];

async function pupilWith(n: number, gender: string, grade: string, school: string, grades: Record<string, string>, profileGrade = grade) {
  const u = await createUser(t, 'pupil', {
    ...PUPIL_PROFILE,
    firstName: NAMES[n - 1],
    lastName: `Famille${NAMES[n - 1]}`,
    gender,
    grade: profileGrade,
    institutionId: school,
  });
  pupil[`p${n}`] = u.id;
  if (n === 1) pupilHeaders = u.headers;
  await db()
    .insert(chapterSessions)
    .values({ chapterId: chapterA, userId: u.id, accessGender: gender, accessGrade: grade, accessBirthDate: '2010-01-01' });
  for (const [exercise, grade] of Object.entries(grades)) {
    await db().insert(answers).values({ userId: u.id, exerciseId: ex[exercise], answer: '1', grade, seq: 1 });
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Admin' })).headers;
  const jurorUser = await createUser(t, 'member', { firstName: 'Jules', lastName: 'Juré' });
  const readerUser = await createUser(t, 'teacher', { firstName: 'Léa', lastName: 'Lectrice' });
  juror = jurorUser.headers;
  reader = readerUser.headers;
  teacher = (await createUser(t, 'teacher', { firstName: 'Hors', lastName: 'Jury' })).headers;
  const [g1, g2] = await db()
    .insert(groups)
    .values([{ name: 'Jury qui décide' }, { name: 'Jury qui lit' }])
    .returning();
  juryGroup = g1.id;
  readGroup = g2.id;
  await db()
    .insert(groupMembers)
    .values([
      { groupId: juryGroup, userId: jurorUser.id },
      { groupId: readGroup, userId: readerUser.id },
    ]);
  const [a, b] = await db()
    .insert(chapters)
    .values([{ title: 'Tour 1 A' }, { title: 'Tour 1 B' }])
    .returning();
  chapterA = a.id;
  chapterB = b.id;
  const rows = await db()
    .insert(exercises)
    .values([
      { chapterId: chapterA, position: 0, title: 'a1', maxPoints: 10 },
      { chapterId: chapterA, position: 1, title: 'a2', maxPoints: 10 },
      { chapterId: chapterB, position: 0, title: 'b1', maxPoints: 5 },
      { chapterId: chapterB, position: 1, title: 'Lecture', answerFormat: 'none' },
    ])
    .returning();
  for (const e of rows) ex[e.title] = e.id;
  const [s1, s2] = await db()
    .insert(institutions)
    .values([
      { name: 'Collège Galois', uai: '0750001A', sector: 'public', confirmed: true },
      { name: 'Lycée Germain', uai: '0130002B', sector: 'private', academy: 'Lyon', confirmed: true },
    ])
    .returning();
  // Scores (A + 2 × B): p1 28, p2 26, p3 24, p4 20, p5 20, p6 9, p7 12.
  await pupilWith(1, 'female', '3eme', s1.id, { a1: '10', a2: '8', b1: '5' });
  await pupilWith(2, 'male', '3eme', s1.id, { a1: '9', a2: '9', b1: '4' });
  await pupilWith(3, 'male', '3eme', s1.id, { a1: '8', a2: '8', b1: '4' });
  await pupilWith(4, 'female', '3eme', s2.id, { a1: '7', a2: '7', b1: '3' });
  await pupilWith(5, 'male', '3eme', s2.id, { a1: '7', a2: '7', b1: '3' });
  await pupilWith(6, 'female', '2nde', s2.id, { a1: '5', a2: 'X', b1: '2' });
  // Started in 3e, then edited their profile to 2nde: the board keeps the session's grade (decision 155).
  await pupilWith(7, 'male', '3eme', s1.id, { a1: '6', a2: '6' }, '2nde');
}, 60_000);
afterAll(async () => t.close());

const input = (fields: Record<string, unknown> = {}) => ({
  title: 'Sélection pour le tour 2',
  chapters: [
    { chapterId: chapterA, weight: 1 },
    { chapterId: chapterB, weight: 2 },
  ],
  categories: [
    { name: 'Collège', grades: ['3eme'] },
    { name: 'Lycée', grades: ['2nde'] },
  ],
  nextRoundTitle: 'le tour 2',
  juryGroupId: juryGroup,
  juryRight: 'decide',
  ...fields,
});

const keyOf = (userId: string) => boardKeys(t.config.jwtSecret, selectionId, [userId]).get(userId)!;
const board = async (headers = juror) => {
  const res = await call('GET', `/api/selection/${selectionId}/board`, headers);
  expect(res.status).toBe(200);
  return res.body as Board;
};
const cutoff = (categoryId: string, settings: Record<string, unknown>, headers = juror) =>
  call('PUT', `/api/selection/${selectionId}/categories/${categoryId}/cutoff`, headers, {
    cutoff: null,
    atCutoff: null,
    minGirls: null,
    maxPerSchool: null,
    ...settings,
  });
const outcomesOf = async (number: number) => {
  const [version] = await db()
    .select()
    .from(selectionVersions)
    .where(and(eq(selectionVersions.selectionId, selectionId), eq(selectionVersions.number, number)));
  const found = await db().select().from(selectionOutcomes).where(eq(selectionOutcomes.versionId, version.id));
  return new Map(found.map((o) => [o.userId, o]));
};

describe('a selection and its board', () => {
  it('creates a selection with two categories (admins), audited; a missing chapter is refused in French', async () => {
    const missing = await call('POST', '/api/selection', admin, input({ chapters: [{ chapterId: randomUUID(), weight: 1 }] }));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Chapitre introuvable.');
    const res = await call('POST', '/api/selection', admin, input());
    expect(res.status).toBe(200);
    expect(res.body.categories.map((c: { name: string }) => c.name)).toEqual(['Collège', 'Lycée']);
    expect(res.body.chapters).toEqual([
      { chapterId: chapterA, title: 'Tour 1 A', weight: 1 },
      { chapterId: chapterB, title: 'Tour 1 B', weight: 2 },
    ]);
    expect(res.body).toMatchObject({ right: 'admin', published: false, namesShown: false, versions: [] });
    selectionId = res.body._id;
    [college, lycee] = res.body.categories.map((c: { _id: string }) => c._id);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.targetId, selectionId));
    expect(entry.action).toBe('selection.create');
    const list = await call('GET', '/api/selection', juror);
    expect(list.body).toEqual([expect.objectContaining({ _id: selectionId, right: 'decide', versions: 0 })]);
  });

  it('lists participants by score with masks from the session’s recorded grade, pseudonyms only', async () => {
    const b = await board();
    expect(b.maxScore).toBe(30);
    expect(b.exercises.map((e) => e.title)).toEqual(['a1', 'a2', 'b1']);
    expect(b.scores).toEqual([28, 26, 24, 20, 20, 12, 9]);
    const p7 = b.keys.indexOf(keyOf(pupil.p7));
    expect(b.scores[p7]).toBe(12);
    expect(b.masks[p7]).toBe(1);
    expect(b.masks[b.keys.indexOf(keyOf(pupil.p6))]).toBe(2);
    expect(b.girls).toEqual([1, 0, 0, ...(keyOf(pupil.p4) < keyOf(pupil.p5) ? [1, 0] : [0, 1]), 0, 1]);
    expect(b.exerciseScores.slice(-3)).toEqual([5, null, 2]);
    for (const key of b.keys) expect(key).toMatch(/^C-[A-Z2-7]{5}$/);
    expect(b.names).toBeNull();
    expect(b.schoolTable).toEqual(
      expect.arrayContaining([
        { sector: 'public', academy: 'Paris', name: null },
        { sector: 'private', academy: 'Lyon', name: null },
      ]),
    );
    const json = JSON.stringify(b);
    for (const id of Object.values(pupil)) expect(json).not.toContain(id);
    for (const name of NAMES) expect(json).not.toContain(name);
    expect(json).not.toContain('Galois');
  });

  it('refuses a cut-off above the maximum score, and a read-only jury, a non-jury teacher and a pupil', async () => {
    const high = await cutoff(college, { cutoff: 31 });
    expect(high.status).toBe(400);
    expect(high.body.message).toBe('Le seuil dépasse le score maximal de la sélection (30\u00a0points).');
    const other = await call('POST', '/api/selection', admin, input({ juryGroupId: readGroup, juryRight: 'read' }));
    const otherId = other.body._id;
    const otherCategory = other.body.categories[0]._id;
    expect((await call('GET', `/api/selection/${otherId}/board`, reader)).status).toBe(200);
    expect((await call('GET', `/api/selection/${otherId}`, reader)).body.right).toBe('read');
    const base = `/api/selection/${otherId}`;
    const decision = { categoryId: otherCategory, key: keyOf(pupil.p1), decision: 'include', reason: 'Dossier' };
    for (const [method, url, body] of [
      ['PUT', `${base}/categories/${otherCategory}/cutoff`, { cutoff: 10, atCutoff: null, minGirls: null, maxPerSchool: null }],
      ['PUT', `${base}/decision`, decision],
      ['POST', `${base}/freeze`, {}],
    ] as const) {
      const res = await call(method, url, reader, body);
      expect(res.status, url).toBe(403);
    }
    for (const headers of [teacher, pupilHeaders]) {
      expect((await call('GET', '/api/selection', headers)).status).toBe(403);
      for (const [method, url] of [
        ['GET', `/api/selection/${selectionId}`],
        ['GET', `/api/selection/${selectionId}/board`],
        ['POST', `/api/selection/${selectionId}/freeze`],
        ['PUT', `/api/selection/${selectionId}/decision`],
        ['PUT', `/api/selection/${selectionId}/categories/${college}/cutoff`],
        ['PATCH', `/api/selection/${selectionId}`],
        ['POST', `/api/selection/${selectionId}/reveal-names`],
      ] as const) {
        const body =
          method === 'GET'
            ? undefined
            : url.endsWith('decision')
              ? decision
              : url.endsWith('cutoff')
                ? { cutoff: 1, atCutoff: null, minGirls: null, maxPerSchool: null }
                : url.endsWith('freeze')
                  ? {}
                  : method === 'PATCH'
                    ? input()
                    : undefined;
        expect((await call(method, url, headers, body)).status, `${method} ${url}`).toBe(403);
      }
    }
  });
});

describe('freezing versions', () => {
  it('refuses to freeze without a cut-off, then while a tie at the cut-off is unresolved', async () => {
    const none = await call('POST', `/api/selection/${selectionId}/freeze`, juror, {});
    expect(none.status).toBe(409);
    expect(none.body.message).toBe(CUTOFF_MISSING_MESSAGE('Collège'));
    expect((await cutoff(college, { cutoff: 20, maxPerSchool: 2, minGirls: 2 })).status).toBe(200);
    expect((await cutoff(lycee, { cutoff: 5 })).status).toBe(200);
    const tie = await call('POST', `/api/selection/${selectionId}/freeze`, juror, {});
    expect(tie.status).toBe(409);
    expect(tie.body.message).toBe(TIE_UNRESOLVED_MESSAGE('Collège'));
    expect(await db().select().from(selectionVersions).where(eq(selectionVersions.selectionId, selectionId))).toHaveLength(0);
  });

  it('freezes version 1 with the school and girls quotas applied, then shows names', async () => {
    const res = await cutoff(college, { cutoff: 20, atCutoff: 'exclude', maxPerSchool: 2, minGirls: 2 });
    expect(res.body).toMatchObject({ _id: college, cutoff: 20, atCutoff: 'exclude', maxPerSchool: 2, minGirls: 2 });
    const v1 = await call('POST', `/api/selection/${selectionId}/freeze`, juror, {});
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ number: 1, frozenBy: 'Jules Juré', participants: 7, qualified: 4 });
    const outcomes = await outcomesOf(1);
    // Above 20: p1, p2, p3; p3 is the third of school S1 (quota 2) and left out; p4, the best girl left, comes in.
    const qualified = (p: string) => outcomes.get(pupil[p])!.qualifiedIn;
    expect(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].map((p) => qualified(p))).toEqual([
      [college],
      [college],
      [],
      [college],
      [],
      [lycee],
      [],
    ]);
    expect(outcomes.get(pupil.p7)!.categories).toEqual([college]);
    expect(outcomes.get(pupil.p1)!.score).toBe(28);
    // Names to admins only: the juror may correct an anonymous chapter and reads pseudonyms throughout (decision 155).
    const b = await board(admin);
    expect(b.names).toContain('Zéphyrine FamilleZéphyrine');
    expect(b.schoolTable.map((s) => s.name)).toContain('Collège Galois');
    expect((await call('GET', `/api/selection/${selectionId}`, admin)).body).toMatchObject({ namesShown: true, right: 'admin' });
    const juryBoard = await board();
    expect(juryBoard.names).toBeNull();
    expect(juryBoard.schoolTable.every((s) => s.name === null)).toBe(true);
    expect(JSON.stringify(juryBoard)).not.toContain('FamilleZéphyrine');
    expect((await call('GET', `/api/selection/${selectionId}`, juror)).body).toMatchObject({ namesShown: false, right: 'decide' });
  });

  it('takes a decision by key with a reason, audited', async () => {
    const put = (body: Record<string, unknown>) => call('PUT', `/api/selection/${selectionId}/decision`, juror, body);
    const noReason = await put({ categoryId: college, key: keyOf(pupil.p5), decision: 'include' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe(DECISION_REASON_MISSING_MESSAGE);
    expect((await put({ categoryId: college, key: 'C-AAAAA', decision: 'include', reason: 'x' })).status).toBe(404);
    const res = await put({ categoryId: college, key: keyOf(pupil.p5), decision: 'include', reason: 'Malade au tour 1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        categoryId: college,
        key: keyOf(pupil.p5),
        decision: 'include',
        reason: 'Malade au tour 1',
        by: 'Jules Juré',
      }),
    ]);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'selection.decision'));
    expect(entry.details).toMatchObject({ userId: pupil.p5, decision: 'include' });
    expect((await board()).decisions).toHaveLength(1);
  });

  it('requires a reason from version 2 on, and lists who moved between versions', async () => {
    const noReason = await call('POST', `/api/selection/${selectionId}/freeze`, juror, {});
    expect(noReason.status).toBe(400);
    const v2 = await call('POST', `/api/selection/${selectionId}/freeze`, juror, { reason: 'Décision du jury pour un élève malade' });
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ number: 2, qualified: 5 });
    const changes = await call('GET', `/api/selection/${selectionId}/versions/2/changes`, admin);
    expect(changes.body).toEqual([{ key: keyOf(pupil.p5), name: 'Désiré FamilleDésiré', categoryId: college, before: false, after: true }]);
    const juryChanges = await call('GET', `/api/selection/${selectionId}/versions/2/changes`, juror);
    expect(juryChanges.body).toEqual([{ key: keyOf(pupil.p5), name: null, categoryId: college, before: false, after: true }]);
    const fromStart = await call('GET', `/api/selection/${selectionId}/versions/2/changes?from=0`, juror);
    expect(fromStart.body).toHaveLength(5);
    expect((await call('GET', `/api/selection/${selectionId}/versions/3/changes`, juror)).status).toBe(404);
  });

  it('shows a regrade after freezing as drift, without changing the frozen outcomes', async () => {
    expect((await board()).drift).toEqual([]);
    await db()
      .update(answers)
      .set({ grade: '1' })
      .where(and(eq(answers.userId, pupil.p2), eq(answers.exerciseId, ex.a1)));
    const b = await board();
    // p2 falls under the cut-off, and p3, left out by the school quota, now fits in it.
    expect(b.drift).toEqual([
      { key: keyOf(pupil.p3), categoryId: college, was: false, now: true, score: 24 },
      { key: keyOf(pupil.p2), categoryId: college, was: true, now: false, score: 18 },
    ]);
    expect((await outcomesOf(1)).get(pupil.p2)!.qualifiedIn).toEqual([college]);
    expect((await outcomesOf(2)).get(pupil.p2)!.score).toBe(26);
  });

  it('keeps a matched category’s cut-off on edit, and deletes a missing one with its decisions', async () => {
    const res = await call('PATCH', `/api/selection/${selectionId}`, admin, {
      ...input(),
      categories: [
        { _id: college, name: 'Collégiens', grades: ['3eme'] },
        { name: 'Filles', genders: ['female'] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.categories).toEqual([
      expect.objectContaining({ _id: college, name: 'Collégiens', cutoff: 20, atCutoff: 'exclude', maxPerSchool: 2 }),
      expect.objectContaining({ name: 'Filles', cutoff: null }),
    ]);
    expect(res.body.versions).toHaveLength(2);
    const b = await board();
    expect(b.masks[b.keys.indexOf(keyOf(pupil.p6))]).toBe(2);
    expect(b.masks[b.keys.indexOf(keyOf(pupil.p1))]).toBe(3);
    const unknown = await call('PATCH', `/api/selection/${selectionId}`, admin, {
      ...input(),
      categories: [{ _id: randomUUID(), name: 'X' }],
    });
    expect(unknown.status).toBe(404);
  });

  it('reveals names before the first version (admins), audited', async () => {
    const other = await call('POST', '/api/selection', admin, input({ title: 'Autre' }));
    const url = `/api/selection/${other.body._id}`;
    expect((await call('GET', `${url}/board`, juror)).body.names).toBeNull();
    expect((await call('POST', `${url}/reveal-names`, juror)).status).toBe(403);
    const res = await call('POST', `${url}/reveal-names`, admin);
    expect(res.body.namesShown).toBe(true);
    expect((await call('GET', `${url}/board`, admin)).body.names).toHaveLength(7);
    expect((await call('GET', `${url}/board`, juror)).body.names).toBeNull();
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'selection.reveal_names'));
    expect(entry.targetId).toBe(other.body._id);
    expect(await db().select().from(users).where(eq(users.id, pupil.p1))).toHaveLength(1);
  });
});
