import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chapters, exercises, users } from '../src/db/schema.js';
import { buildTestApp, inject, type TestApp } from './helpers.js';
import { callRow, type Fixture, matches, MATRIX, seedMatrix, type MatrixRow, urlFor } from './permission-matrix.js';

/**
 * Anonymous correction as a property (docs/security.md « Anonymous correction », decision 128): a corrector
 * who is not an admin, calling every route their role may call on a cup whose chapters are all under
 * anonymous correction, never reads a pupil's name, e-mail, birth date or id. The walk is the permission
 * matrix's own list, so a route added later is walked too.
 *
 * Sorting is identity work (a sorter matches a scan to a pupil by name): its routes may name pupils, but
 * never give a copy id or a pseudonym, so that what a sorter reads cannot be joined to what graders read.
 */

let t: TestApp;
let f: Fixture;
let secrets: string[];
beforeAll(async () => {
  t = await buildTestApp({ env: { JOBS_WORKER: 'off' } });
  await t.app.ready();
  f = await seedMatrix(t);
  const db = t.database.db;
  // Names no school, chapter or staff member of the seed shares, so any hit is a pupil's.
  const pupils = [
    { id: f.userIds.pupil, firstName: 'Ludmila', lastName: 'Zakharovna', birthDate: '2010-04-01' },
    { id: f.userIds.otherPupil, firstName: 'Oswaldo', lastName: 'Quetzalcoatl', birthDate: '2009-05-05' },
  ];
  for (const p of pupils) await db.update(users).set({ firstName: p.firstName, lastName: p.lastName }).where(eq(users.id, p.id));
  await db.update(chapters).set({ anonymousGrading: true });
  const rows = await db
    .select({ id: users.id, email: users.email, emailParent: users.emailParent })
    .from(users)
    .where(
      inArray(
        users.id,
        pupils.map((p) => p.id),
      ),
    );
  secrets = [
    ...pupils.flatMap((p) => [p.id, p.firstName, p.lastName, p.birthDate]),
    ...rows.flatMap((r) => [r.email, r.emailParent].filter((v): v is string => Boolean(v))),
  ];
});
afterAll(async () => t.close());

const SORTING = /^(GET|POST) \/api\/answer\/(unlabeled|label)\b/;
/** The routes called with a pupil's id in their URL (`?user=`, a signed unsubscribe link): the caller already had it. */
const namesThePupilItself = (row: MatrixRow) => {
  const url = urlFor(row, f, 'member');
  return url.includes(f.userIds.pupil) || url.includes(f.userIds.otherPupil);
};

/** A response as text: JSON as sent, files (PDF, XLSX…) as the characters of their bytes. */
const textOf = (res: { body: unknown }) =>
  res.body === undefined ? '' : typeof res.body === 'string' ? res.body : JSON.stringify(res.body);

describe('anonymous correction holds against a corrector who tries every route', () => {
  it('no route a corrector may call gives a pupil’s name, e-mail, birth date or id; sorting gives no copy id', async () => {
    const leaks: string[] = [];
    const walked: string[] = [];
    for (const row of MATRIX) {
      // Logging out would end the corrector's session for the rest of the walk: it answers no data anyway.
      if (row.route === 'POST /api/auth/logout') continue;
      if (row.expect.member === 401 || row.expect.member === 403 || namesThePupilItself(row)) continue;
      const res = await callRow(t, row, f, 'member');
      if (!matches(res.status, row.expect.member) && res.status >= 400) continue;
      walked.push(row.route);
      const text = textOf(res);
      if (SORTING.test(row.route)) {
        if (/Copie \d{4}/.test(text)) leaks.push(`${row.route} gives a pseudonym to a sorter`);
        continue;
      }
      for (const secret of secrets) if (text.includes(secret)) leaks.push(`${row.route} gives « ${secret} »`);
    }
    // The grading screens themselves, copy by copy, through the ids they hand out.
    for (const chapterId of [f.ids.timed, f.ids.paper]) {
      const table = await inject(t, { method: 'GET', url: `/api/answer/table/${chapterId}`, headers: f.headers.member });
      expect(table.status).toBe(200);
      const copies = Object.keys(table.body.users);
      const exerciseIds = (await t.database.db.select({ id: exercises.id }).from(exercises).where(eq(exercises.chapterId, chapterId))).map(
        (e) => e.id,
      );
      for (const copy of copies) {
        for (const exerciseId of exerciseIds) {
          const res = await inject(t, { method: 'GET', url: `/api/answer/history/${copy}/${exerciseId}`, headers: f.headers.member });
          walked.push(`history of ${copy}`);
          for (const secret of secrets) if (textOf(res).includes(secret)) leaks.push(`history of a copy gives « ${secret} »`);
        }
      }
      for (const secret of secrets) if (textOf(table).includes(secret)) leaks.push(`table of ${chapterId} gives « ${secret} »`);
    }
    console.info(`anonymity walk: ${walked.length} responses read as a corrector`);
    expect(walked.length).toBeGreaterThan(40);
    expect(leaks).toEqual([]);
  }, 120_000);

  it('a pupil’s id, known from sorting, opens no copy of an anonymous chapter for a corrector; an admin still opens it', async () => {
    const url = `/api/answer/history/${f.userIds.pupil}/${f.ids.numeric}`;
    const asMember = await inject(t, { method: 'GET', url, headers: f.headers.member });
    expect(asMember.status).toBe(404);
    expect(asMember.body.message).toBe('Copie introuvable.');
    const asAdmin = await inject(t, { method: 'GET', url, headers: f.headers.admin });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.user.lastName).toBe('Zakharovna');
  });
});
