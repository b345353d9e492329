import { createHash } from 'node:crypto';
import {
  CELL_ARBITRATION,
  GRADING_AFTER_MESSAGE,
  GRADING_LIMIT_MESSAGE,
  GRADING_UNKNOWN_AFTER_MESSAGE,
  normalizeText,
  pseudonymOf,
  type GradingTable,
} from '@olympe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, chapters, exercises, gradings } from '../src/db/schema.js';
import { countsOf } from './table-counts.js';
import { buildTestApp, copyIdOf, createUser, inject, type TestApp } from './helpers.js';

/**
 * Decision 83: GET /answer/table/{id}?limit=&after=&q= pages the grading table. The pages, walked
 * with `page.next`, concatenate to the whole table (same order, same cells, same pseudonyms), the
 * header (`limit=0`) has the whole table's counts, and bad paging parameters get a French 400.
 */

let t: TestApp;
let admin: Headers;
let member: Headers;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Admin' })).headers;
  member = (await createUser(t, 'member', { firstName: 'Marc', lastName: 'Membre' })).headers;
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;
const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
let seq = 1;

/** Pupils with equal names, missing names, accents and case, answering in every way the cell rule knows. */
async function seedChapter(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Pages', ...fields })
    .returning();
  const [num, pdf] = await db()
    .insert(exercises)
    .values([
      { chapterId: c.id, position: 0, title: 'Un', answerFormat: 'numeric', maxPoints: 4 },
      { chapterId: c.id, position: 1, title: 'Deux', answerFormat: 'pdf', maxPoints: 10 },
    ])
    .returning();
  const names: Array<[string | null, string | null]> = [
    ['Martin', 'Paul'],
    ['Martin', 'Paul'],
    ['Martin', 'Paul'],
    ['Martin', null],
    ['Martin', 'Anne'],
    [null, 'Sans Nom'],
    [null, null],
    ['Émile', 'Zoé'],
    ['de Gaulle', 'Anne'],
    ['Zola', 'Émile'],
    ['Abel', 'Niels'],
    ['Martín', 'Paul'],
  ];
  const pupils: string[] = [];
  for (const [k, [lastName, firstName]] of names.entries()) {
    const p = await createUser(t, 'pupil', { lastName, firstName, email: `page-${k}-${Math.random().toString(36).slice(2, 8)}@eleves.fr` });
    pupils.push(p.id);
    // Every other pupil answers the first exercise; every third is graded; some give an older answer first.
    if (k % 2 === 0) {
      if (k % 4 === 0) await db().insert(answers).values({ userId: p.id, exerciseId: num.id, answer: '1', seq: seq++ });
      await db()
        .insert(answers)
        .values({ userId: p.id, exerciseId: num.id, answer: k === 10 ? '  ' : '385', grade: k % 3 === 0 ? '3' : null, seq: seq++ });
    }
    if (k % 2 === 1 || k === 0)
      await db()
        .insert(answers)
        .values({ userId: p.id, exerciseId: pdf.id, answer: 'pdfs/x.pdf', grade: k === 9 ? 'X' : null, seq: seq++ });
  }
  // A pupil whose only answer was withdrawn (back to sorting): not in the table.
  const gone = await createUser(t, 'pupil', { lastName: 'Retiré', firstName: 'Hors' });
  await db().insert(answers).values({ userId: gone.id, exerciseId: pdf.id, answer: 'pdfs/y.pdf', seq: seq++, withdrawnAt: new Date() });
  return { chapterId: c.id, num: num.id, pdf: pdf.id, pupils };
}

/** Walks the pages with `page.next`: the users in order, and the header (`limit=0`). */
async function walk(chapterId: string, headers: Headers, limit: number, q?: string) {
  const users: GradingTable['users'] = {};
  let after: string | null = null;
  const head = await get(
    `/api/answer/table/${chapterId}?${new URLSearchParams({ limit: '0', ...(q === undefined ? {} : { q }) })}`,
    headers,
  );
  expect(head.status, JSON.stringify(head.body)).toBe(200);
  const first = head.body as GradingTable;
  expect(first.users).toEqual({});
  for (let n = 0; n < 100; n++) {
    const params = new URLSearchParams({ limit: String(limit) });
    if (after) params.set('after', after);
    if (q !== undefined) params.set('q', q);
    const res = await get(`/api/answer/table/${chapterId}?${params}`, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as GradingTable;
    expect(Object.keys(body.users).length).toBeLessThanOrEqual(limit);
    expect(body.progress).toBeUndefined();
    expect(body.page!.counts).toBeUndefined();
    Object.assign(users, body.users);
    after = body.page!.next;
    if (after === null) break;
  }
  return { users, first };
}

describe('GET /answer/table/{id}?limit=: pages', () => {
  it('concatenate to the whole table in its order, equal names included, at every page size; the header has its counts', async () => {
    const { chapterId } = await seedChapter();
    const whole = (await get(`/api/answer/table/${chapterId}`, member)).body as GradingTable;
    expect(whole.page).toBeUndefined();
    expect(Object.keys(whole.users)).toHaveLength(12);
    // French order whatever the database's collation: accents folded (« Émile » before « Zola »), case ignored
    // (« de Gaulle » among the D), a missing name first.
    const order = Object.values(whole.users).map((u) => [normalizeText(u.lastName ?? ''), u.firstName]);
    expect(order.map(([last]) => last)).toEqual(['', '', 'abel', 'de gaulle', 'emile', ...Array(6).fill('martin'), 'zola']);
    expect(order.slice(5, 7).map(([, first]) => first)).toEqual([null, 'Anne']);
    for (const limit of [1, 2, 3, 5, 12, 500]) {
      const { users, first } = await walk(chapterId, member, limit);
      expect(Object.keys(users), `limit ${limit}`).toEqual(Object.keys(whole.users));
      expect(users).toEqual(whole.users);
      expect(first.chapter).toEqual(whole.chapter);
      expect(first.exercises).toEqual(whole.exercises);
      expect(first.maxTotal).toBe(whole.maxTotal);
      expect(first.progress).toEqual(whole.progress);
      expect(first.correctors).toEqual(whole.correctors);
      expect(first.page).toMatchObject({ pupils: 12, matched: 12, counts: countsOf(whole) });
    }
  });

  it('searches on the server, accent- and case-insensitive, every word, in the same order', async () => {
    const { chapterId } = await seedChapter();
    const whole = (await get(`/api/answer/table/${chapterId}`, member)).body as GradingTable;
    for (const q of ['martin', 'MARTIN paul', 'emile', 'Zoe', 'zzz', ' ', '100%_']) {
      const words = normalizeText(q).split(' ').filter(Boolean);
      const expected = Object.keys(whole.users).filter((id) => {
        const u = whole.users[id];
        const text = normalizeText(`${u.lastName ?? ''} ${u.firstName ?? ''}`);
        return words.every((w) => text.includes(w));
      });
      const { users, first } = await walk(chapterId, member, 2, q);
      expect(Object.keys(users), q).toEqual(expected);
      expect(first.page).toMatchObject({ pupils: 12, matched: expected.length });
    }
  });

  it('gives a corrector of an anonymous chapter pseudonyms only, the numbers the whole table gives, in number order', async () => {
    const corrector = await createUser(t, 'member', { firstName: 'Corinne', lastName: 'Correctrice' });
    // Pages asked first: every pupil of the table gets a number at once, in the whole table's draw.
    const fresh = await seedChapter({ anonymousGrading: true });
    const { users, first } = await walk(fresh.chapterId, corrector.headers, 5);
    const byHash = [...fresh.pupils].sort((a, b) => {
      const ha = createHash('md5')
        .update(a + fresh.chapterId)
        .digest('hex');
      const hb = createHash('md5')
        .update(b + fresh.chapterId)
        .digest('hex');
      return ha < hb ? -1 : ha > hb ? 1 : a < b ? -1 : 1;
    });
    // Keyed by copy ids (decision 128), in the numbers' order: never a pupil's id.
    const copyOf = new Map(await Promise.all(fresh.pupils.map(async (id) => [id, await copyIdOf(t, id, fresh.num)] as const)));
    expect(Object.keys(users)).toEqual(byHash.map((id) => copyOf.get(id)));
    for (const id of fresh.pupils) expect(Object.keys(users)).not.toContain(id);
    expect(Object.values(users).map((u) => u.pseudonym)).toEqual(byHash.map((_, i) => pseudonymOf(i + 1)));
    const whole = (await get(`/api/answer/table/${fresh.chapterId}`, corrector.headers)).body as GradingTable;
    expect(users).toEqual(whole.users);
    expect(first.page).toMatchObject({ pupils: 12, counts: countsOf(whole) });
    // No name, e-mail or profile field in any page.
    const text = JSON.stringify(users);
    for (const secret of ['Martin', 'Zola', 'Émile', 'Gaulle', '@eleves.fr']) expect(text).not.toContain(secret);
    for (const u of Object.values(users))
      expect(u).toMatchObject({ firstName: null, lastName: null, email: '', grade: null, gender: null, birthDate: null });
    // The search reads pseudonyms, never names.
    expect((await walk(fresh.chapterId, corrector.headers, 3, 'martin')).first.page!.matched).toBe(0);
    const found = await walk(fresh.chapterId, corrector.headers, 3, 'copie 0003');
    expect(Object.values(found.users).map((u) => u.pseudonym)).toEqual(['Copie 0003']);

    // Whole table asked first, pages after: the same numbers; an admin still pages by name.
    const seen = await seedChapter({ anonymousGrading: true });
    const wholeFirst = (await get(`/api/answer/table/${seen.chapterId}`, corrector.headers)).body as GradingTable;
    expect((await walk(seen.chapterId, corrector.headers, 4)).users).toEqual(wholeFirst.users);
    const asAdmin = await walk(seen.chapterId, admin, 4);
    expect(asAdmin.users).toEqual((await get(`/api/answer/table/${seen.chapterId}`, admin)).body.users);
    expect(Object.values(asAdmin.users).some((u) => u.lastName === 'Zola')).toBe(true);
  });

  it('shows « ≠ » and counts double-correction progress as the whole table does', async () => {
    const graderA = await createUser(t, 'member', { lastName: 'Premier' });
    const graderB = await createUser(t, 'member', { lastName: 'Second' });
    const c = await seedChapter({ doubleGrading: true, gradingTolerance: 1 });
    const current = await db().select().from(answers);
    const copyOf = (userId: string, exerciseId: string) =>
      current.filter((a) => a.userId === userId && a.exerciseId === exerciseId && !a.withdrawnAt).sort((a, b) => b.seq - a.seq)[0];
    const give = async (userId: string, exerciseId: string, grades: string[]) => {
      const copy = copyOf(userId, exerciseId);
      const graders = [graderA.id, graderB.id];
      await db()
        .insert(gradings)
        .values(grades.map((grade, k) => ({ answerId: copy.id, exerciseId, graderId: graders[k], grade })));
    };
    await give(c.pupils[2], c.num, ['2']); // one grading
    await give(c.pupils[4], c.num, ['1', '4']); // too far apart: ≠
    await give(c.pupils[1], c.pdf, ['3', '3.5']); // agree
    await give(c.pupils[10], c.num, ['0', '4']); // a blank answer, too far apart: ≠
    const whole = (await get(`/api/answer/table/${c.chapterId}`, admin)).body as GradingTable;
    expect(Object.values(whole.users).filter((u) => u.data.includes(CELL_ARBITRATION))).toHaveLength(2);
    for (const limit of [1, 4]) {
      const { users, first } = await walk(c.chapterId, admin, limit);
      expect(users).toEqual(whole.users);
      expect(first.progress).toEqual(whole.progress);
      expect(first.correctors).toEqual(whole.correctors);
      expect(first.page!.counts).toEqual(countsOf(whole));
    }
  });

  it('refuses bad paging parameters with a French 400, and a pupil with 403', async () => {
    const { chapterId, pupils } = await seedChapter();
    const base = `/api/answer/table/${chapterId}`;
    const cases: Array<[string, string]> = [
      ['?limit=-1', GRADING_LIMIT_MESSAGE],
      [`?limit=0&after=${pupils[0]}`, 'ne prend pas de curseur'],
      ['?limit=501', GRADING_LIMIT_MESSAGE],
      ['?limit=2.5', GRADING_LIMIT_MESSAGE],
      ['?limit=beaucoup', GRADING_LIMIT_MESSAGE],
      ['?limit=10&after=42', GRADING_AFTER_MESSAGE],
      [`?after=${pupils[0]}`, '« limit »'],
      ['?q=martin', '« limit »'],
      ['?limit=10&after=00000000-0000-4000-8000-000000000000', GRADING_UNKNOWN_AFTER_MESSAGE],
      [`?limit=10&q=${'a'.repeat(201)}`, 'Recherche trop longue'],
    ];
    for (const [query, message] of cases) {
      const res = await get(base + query, member);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toContain(message);
    }
    const pupil = await createUser(t, 'pupil');
    expect((await get(`${base}?limit=10`, pupil.headers)).status).toBe(403);
    expect((await get(`${base}?limit=10`, {})).status).toBe(401);
    expect((await get(`/api/answer/table/00000000-0000-4000-8000-000000000000?limit=10`, member)).status).toBe(404);
  });
});
