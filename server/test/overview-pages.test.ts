import { GRADING_LIMIT_MESSAGE, normalizeText, type OverviewPage, type OverviewRow } from '@olympe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, chapters, exercises, gradings } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * Decision 94: GET /answer/overview/{chapterId}?limit=… pages the review page on the server. Pages walked
 * with `next` concatenate to the whole list in the asked order; the filters keep what the page's filters
 * kept; a corrector under anonymous correction sorts and filters by pseudonym only; the counts (`limit=0`)
 * match; bad parameters get a French 400.
 */

type Headers = Record<string, string>;
let t: TestApp;
let admin: Headers;
let member: Headers;
let memberId: string;
let other: { id: string; headers: Headers };
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Admin' })).headers;
  const m = await createUser(t, 'member', { firstName: 'Marc', lastName: 'Membre' });
  member = m.headers;
  memberId = m.id;
  other = await createUser(t, 'member', { firstName: 'Élise', lastName: 'Seconde' });
});
afterAll(async () => t.close());

const db = () => t.database.db;
const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
let seq = 1;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute));

/** Graded copies with French names, equal times, three kinds of grader, numbers and « X », an older answer and a withdrawn one. */
async function seedChapter(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Revue', ...fields })
    .returning();
  const [one, two, three] = await db()
    .insert(exercises)
    .values([
      { chapterId: c.id, position: 0, title: 'Équations', answerFormat: 'numeric', maxPoints: 10 },
      { chapterId: c.id, position: 1, title: 'Arithmétique', answerFormat: 'pdf', maxPoints: 10 },
      { chapterId: c.id, position: 2, title: 'Zéro', answerFormat: 'pdf', maxPoints: 10 },
    ])
    .returning();
  const names: Array<[string | null, string | null]> = [
    ['Zola', 'Émile'],
    ['Émile', 'Zoé'],
    ['de Gaulle', 'Anne'],
    ['Martin', 'Paul'],
    ['Martin', null],
    [null, 'Sans Nom'],
    ['Abel', 'Niels'],
  ];
  const grades = ['9', '10', 'X', '2.5', '0', '10', '7'];
  const graders = [memberId, other.id, null, memberId, other.id, null, memberId];
  for (const [k, [lastName, firstName]] of names.entries()) {
    const p = await createUser(t, 'pupil', {
      lastName,
      firstName,
      email: `revue-${k}-${Math.random().toString(36).slice(2, 8)}@eleves.fr`,
    });
    // An older graded answer: not current, never listed.
    await db()
      .insert(answers)
      .values({ userId: p.id, exerciseId: one.id, answer: '1', seq: seq++, grade: '1', gradeTimestamp: at(59) });
    await db()
      .insert(answers)
      .values({
        userId: p.id,
        exerciseId: one.id,
        answer: '2',
        seq: seq++,
        grade: grades[k],
        graderId: graders[k],
        gradeTimestamp: at(k % 3),
      });
    await db()
      .insert(answers)
      .values({
        userId: p.id,
        exerciseId: [two, three][Math.floor(k / 2) % 2].id,
        answer: 'pdfs/x.pdf',
        seq: seq++,
        grade: k % 2 ? '4' : null,
        graderId: memberId,
        gradeTimestamp: k % 2 ? at(10 + k) : null,
      });
  }
  // A graded copy sent back to sorting: not listed.
  const gone = await createUser(t, 'pupil', { lastName: 'Retiré', firstName: 'Hors' });
  await db()
    .insert(answers)
    .values({
      userId: gone.id,
      exerciseId: two.id,
      answer: 'pdfs/y.pdf',
      seq: seq++,
      grade: '3',
      gradeTimestamp: at(30),
      withdrawnAt: new Date(),
    });
  return { chapterId: c.id, one: one.id, two: two.id };
}

/** Every page from offset 0 with `next`; the counts asked alone. */
async function walk(chapterId: string, headers: Headers, limit: number, params: Record<string, string> = {}) {
  const rows: OverviewRow[] = [];
  let offset: number | null = 0;
  for (let n = 0; n < 100 && offset !== null; n++) {
    const res = await get(
      `/api/answer/overview/${chapterId}?${new URLSearchParams({ ...params, limit: String(limit), offset: String(offset) })}`,
      headers,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = res.body as OverviewPage;
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    expect(page.total).toBeUndefined();
    rows.push(...page.rows);
    offset = page.next;
  }
  const counts = (await get(`/api/answer/overview/${chapterId}?${new URLSearchParams({ ...params, limit: '0' })}`, headers))
    .body as OverviewPage;
  return { rows, counts };
}

const nameOf = (r: OverviewRow) => r.student.pseudonym ?? `${r.student.firstName ?? ''} ${r.student.lastName ?? ''}`.trim();
const graderOf = (r: OverviewRow) =>
  r.grader ? `${r.grader.firstName ?? ''} ${r.grader.lastName ?? ''}`.trim() : 'Correction automatique';

describe('GET /answer/overview/{id}?limit=: pages', () => {
  it('concatenate to the whole list, latest grade first, at every page size; the counts match', async () => {
    const { chapterId } = await seedChapter();
    const whole = (await get(`/api/answer/overview/${chapterId}`, member)).body as OverviewRow[];
    expect(whole).toHaveLength(10);
    for (const limit of [1, 2, 3, 5, 500]) {
      const { rows, counts } = await walk(chapterId, member, limit);
      expect(rows).toEqual(whole);
      expect(counts).toMatchObject({ rows: [], next: null, double: false, total: 10, matched: 10 });
    }
    // Oldest first: the same rows, reversed by time (ties keep the answer's id order).
    const asc = (await walk(chapterId, member, 4, { sort: 'date', dir: 'asc' })).rows;
    const times = asc.map((r) => r.grade_timestamp!);
    expect(times).toEqual([...times].sort());
    expect(new Set(asc.map((r) => r._id))).toEqual(new Set(whole.map((r) => r._id)));
  });

  it('sorts by pupil in French order, by corrector, by exercise and by grade as numbers, « X » last', async () => {
    const { chapterId } = await seedChapter();
    const students = (await walk(chapterId, member, 3, { sort: 'student' })).rows;
    const lastNames = [...new Set(students.map((r) => r.student.lastName))];
    // Missing names first, accents folded (« Émile » beside « de Gaulle », before « Martin »), case ignored.
    expect(lastNames).toEqual([null, 'Abel', 'de Gaulle', 'Émile', 'Martin', 'Zola']);
    const martins = students.filter((r) => r.student.lastName === 'Martin').map((r) => r.student.firstName);
    expect(martins.indexOf(null)).toBeLessThan(martins.indexOf('Paul'));

    const byGrader = (await walk(chapterId, member, 4, { sort: 'grader', dir: 'desc' })).rows.map(graderOf);
    expect([...new Set(byGrader)]).toEqual(['Marc Membre', 'Élise Seconde', 'Correction automatique']);

    const byExercise = (await walk(chapterId, member, 4, { sort: 'exercise' })).rows.map((r) => r.exercise.title);
    expect([...new Set(byExercise)]).toEqual(['Arithmétique', 'Équations', 'Zéro']);

    const byGrade = (await walk(chapterId, member, 4, { sort: 'grade' })).rows.map((r) => r.grade);
    // As numbers (« 9 » before « 10 »), then what is not one.
    const asNumber = (g: string | null) => (g !== null && /^[0-9.]+$/.test(g) ? Number(g) : Infinity);
    expect(byGrade).toEqual([...byGrade].sort((a, b) => asNumber(a) - asNumber(b)));
    expect(byGrade.indexOf('9')).toBeLessThan(byGrade.indexOf('10'));
    expect(byGrade.at(-1)).toBe('X');
    const desc = (await walk(chapterId, member, 4, { sort: 'grade', dir: 'desc' })).rows.map((r) => r.grade);
    expect(desc[0]).toBe('10');
    expect(desc.at(-1)).toBe('X');
  });

  it('filters like the page did: accents and case ignored, the automatic correction by its name, the counts alike', async () => {
    const { chapterId } = await seedChapter();
    const whole = (await get(`/api/answer/overview/${chapterId}`, member)).body as OverviewRow[];
    const cases: Array<[Record<string, string>, (r: OverviewRow) => boolean]> = [
      [{ student: 'EMILE' }, (r) => normalizeText(nameOf(r)).includes('emile')],
      [{ student: 'paul mart' }, (r) => normalizeText(nameOf(r)).includes('paul mart')],
      [{ grader: 'automatique' }, (r) => r.grader === null],
      [{ grader: 'élise' }, (r) => graderOf(r) === 'Élise Seconde'],
      [{ exercise: 'equa' }, (r) => r.exercise.title === 'Équations'],
      [{ exercise: 'arith', grader: 'marc' }, (r) => r.exercise.title === 'Arithmétique' && graderOf(r) === 'Marc Membre'],
      [{ student: '100%_' }, () => false],
    ];
    for (const [filters, keep] of cases) {
      const expected = whole.filter(keep);
      const { rows, counts } = await walk(chapterId, member, 2, filters);
      expect(
        rows.map((r) => r._id),
        JSON.stringify(filters),
      ).toEqual(expected.map((r) => r._id));
      expect(counts).toMatchObject({ total: 10, matched: expected.length });
    }
  });

  it('gives a corrector of an anonymous chapter pseudonyms: sorted and found by them, never by a real name', async () => {
    const { chapterId } = await seedChapter({ anonymousGrading: true });
    const { rows } = await walk(chapterId, member, 3, { sort: 'student' });
    expect(rows).toHaveLength(10);
    expect(
      rows.every((r) => r.student.firstName === null && r.student.lastName === null && /^Copie \d{4}$/.test(r.student.pseudonym ?? '')),
    ).toBe(true);
    const numbers = rows.map((r) => Number(r.student.pseudonym!.slice(6)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // The same pseudonyms as the whole list gives.
    const whole = (await get(`/api/answer/overview/${chapterId}`, member)).body as OverviewRow[];
    expect(new Map(rows.map((r) => [r._id, r.student.pseudonym]))).toEqual(new Map(whole.map((r) => [r._id, r.student.pseudonym])));
    expect((await walk(chapterId, member, 5, { student: 'zola' })).counts.matched).toBe(0);
    const one = rows[0].student.pseudonym!.toLowerCase();
    const found = await walk(chapterId, member, 5, { student: one });
    expect(found.rows.length).toBeGreaterThan(0);
    expect(found.rows.every((r) => r.student.pseudonym!.toLowerCase() === one)).toBe(true);
    // An admin still reads and finds names.
    const named = (await get(`/api/answer/overview/${chapterId}`, admin)).body as OverviewRow[];
    const zolas = named.filter((r) => r.student.lastName === 'Zola').length;
    expect(zolas).toBeGreaterThan(0);
    expect((await walk(chapterId, admin, 5, { student: 'zola' })).counts.matched).toBe(zolas);
  });

  it('in double correction, lists copies with a grading only and finds a corrector by a grading the viewer may see', async () => {
    const { chapterId, two } = await seedChapter({ doubleGrading: true, gradingTolerance: 1 });
    const [pupil] = (await get(`/api/answer/overview/${chapterId}`, admin)).body as OverviewRow[];
    // A copy of the second exercise graded once, by the other corrector, no settled grade.
    const p = await createUser(t, 'pupil', { lastName: 'Double', firstName: 'Une' });
    const [a] = await db().insert(answers).values({ userId: p.id, exerciseId: two, answer: 'pdfs/z.pdf', seq: seq++ }).returning();
    await db().insert(gradings).values({ answerId: a.id, exerciseId: two, graderId: other.id, grade: '5' });
    const mine = await walk(chapterId, member, 4);
    expect(mine.counts).toMatchObject({ double: true, total: 11 });
    const copy = mine.rows.find((r) => r._id === a.id)!;
    expect(copy).toMatchObject({ grade: null, status: expect.any(String), gradings: [] });
    // Marc may not see Élise's grading yet: it does not find the copy under her name; an admin's search does.
    expect((await walk(chapterId, member, 50, { grader: 'seconde' })).rows.map((r) => r._id)).not.toContain(a.id);
    expect((await walk(chapterId, admin, 50, { grader: 'seconde' })).rows.map((r) => r._id)).toContain(a.id);
    // Once both are in, it does.
    await db().insert(gradings).values({ answerId: a.id, exerciseId: two, graderId: memberId, grade: '5.5' });
    expect((await walk(chapterId, member, 50, { grader: 'seconde' })).rows.map((r) => r._id)).toContain(a.id);
    expect(pupil).toBeDefined();
  });

  it('refuses bad paging, sorting and filter parameters with a French 400', async () => {
    const { chapterId } = await seedChapter();
    const cases: Array<[string, RegExp]> = [
      ['limit=-1', new RegExp(GRADING_LIMIT_MESSAGE.slice(0, 20))],
      ['limit=501', /Taille de page invalide/],
      ['limit=abc', /Taille de page invalide/],
      ['limit=10&offset=-5', /Position de page invalide/],
      ['limit=10&offset=1.5', /Position de page invalide/],
      ['limit=10&offset=99999999', /Position de page invalide/],
      ['limit=10&sort=email', /Tri invalide/],
      ['limit=10&dir=up', /Sens de tri invalide/],
      [`limit=10&student=${'a'.repeat(101)}`, /trop long/],
      ['sort=student', /demandent une taille de page/],
      ['offset=10', /demandent une taille de page/],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/api/answer/overview/${chapterId}?${query}`, member);
      expect(res.status, query).toBe(400);
      expect((res.body as { message: string }).message, query).toMatch(message);
    }
  });
});
