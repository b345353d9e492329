import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '@olympe/contract';
import { chapters, groupMembers, groups, selectionOutcomes, selectionVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * docs/product.md#selections: the board of 10,000 participants × 12 exercises, and a freeze writing their 10,000 outcomes
 * in one statement, on the database the tests run on (PGlite by default, in this process). The bounds are on this
 * process's CPU time, which other processes on a loaded machine do not inflate as they do the wall time; both are printed.
 * Seeding 120,000 answers takes minutes on a busy machine: the file runs when SELECTIONS_SCALE=1 (a measurement, like bench/).
 */
const run = process.env.SELECTIONS_SCALE === '1';

const PUPILS = 10_000;
const EXERCISES = 12;
type Headers = Record<string, string>;
let t: TestApp;
let admin: Headers;
let selectionId: string;

beforeAll(async () => {
  if (!run) return;
  t = await buildTestApp();
  const db = t.database.db;
  admin = (await createUser(t, 'admin')).headers;
  const [chapter] = await db.insert(chapters).values({ title: 'Tour 1' }).returning();
  await db.execute(sql`
    INSERT INTO exercises (chapter_id, position, title, max_points)
    SELECT ${chapter.id}::uuid, i, 'Exercice ' || i, 7 FROM generate_series(1, ${EXERCISES}) AS i`);
  await db.execute(sql`
    INSERT INTO institutions (name, uai, sector, confirmed)
    SELECT 'École ' || i, lpad((i % 95 + 1)::text, 3, '0') || lpad(i::text, 4, '0') || 'A', CASE WHEN i % 3 = 0 THEN 'private' ELSE 'public' END, true
    FROM generate_series(1, 300) AS i`);
  await db.execute(sql`
    INSERT INTO users (email, first_name, last_name, gender, grade, birth_date, institution_id)
    SELECT 'eleve' || i || '@exemple.fr', 'Prénom' || i, 'Nom' || i, CASE WHEN i % 2 = 0 THEN 'female' ELSE 'male' END,
      (ARRAY['4eme', '3eme', '2nde', '1ere', 'Tale'])[i % 5 + 1], DATE '2009-01-01' + (i % 700),
      (SELECT id FROM institutions WHERE name = 'École ' || (i % 300 + 1))
    FROM generate_series(1, ${PUPILS}) AS i`);
  await db.execute(sql`
    INSERT INTO chapter_sessions (chapter_id, user_id, access_gender, access_grade, access_birth_date)
    SELECT ${chapter.id}::uuid, u.id, u.gender, u.grade, u.birth_date FROM users u WHERE u.email LIKE 'eleve%'`);
  await db.execute(sql`
    INSERT INTO answers (user_id, exercise_id, answer, grade, seq)
    SELECT u.id, e.id, '1', CASE WHEN random() < 0.05 THEN 'X' ELSE floor(random() * 8)::int::text END, 1
    FROM users u CROSS JOIN exercises e WHERE u.email LIKE 'eleve%' AND e.chapter_id = ${chapter.id}::uuid`);
  // As autovacuum would after such an import: the planner knows the tables' sizes.
  await db.execute(sql`ANALYZE`);
  const [jury] = await db.insert(groups).values({ name: 'Jury' }).returning();
  const juror = await createUser(t, 'member');
  await db.insert(groupMembers).values({ groupId: jury.id, userId: juror.id });
  const res = await inject(t, {
    method: 'POST',
    url: '/api/selection',
    headers: admin,
    payload: {
      title: 'Sélection nationale',
      chapters: [{ chapterId: chapter.id, weight: 1.5 }],
      categories: [
        { name: '4e', grades: ['4eme'] },
        { name: '3e', grades: ['3eme'] },
        { name: 'Lycée', grades: ['2nde', '1ere', 'Tale'] },
        { name: 'Filles', genders: ['female'] },
        { name: 'Jeunes', birthDateMin: '2010-01-01' },
      ],
      nextRoundTitle: 'le tour 2',
      juryGroupId: jury.id,
      juryRight: 'decide',
    },
  });
  selectionId = res.body._id;
  for (const category of res.body.categories as { _id: string }[]) {
    await inject(t, {
      method: 'PUT',
      url: `/api/selection/${selectionId}/categories/${category._id}/cutoff`,
      headers: admin,
      payload: { cutoff: 90, atCutoff: 'include', minGirls: 20, maxPerSchool: 3 },
    });
  }
}, 600_000);
afterAll(async () => t?.close());

/** Runs and prints wall and CPU time; returns the CPU time (ms). */
async function timed<T>(what: string, run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = await run();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  console.info(`${what}: ${Math.round(ms)} ms (${Math.round((used.user + used.system) / 1000)} ms of CPU)`);
  return [result, (used.user + used.system) / 1000];
}

describe.runIf(run)('a selection of 10,000 participants', () => {
  it('serves the board from a few set-based queries', async () => {
    await inject(t, { method: 'GET', url: `/api/selection/${selectionId}/board`, headers: admin });
    const [res, ms] = await timed('board', () => inject(t, { method: 'GET', url: `/api/selection/${selectionId}/board`, headers: admin }));
    expect(res.status).toBe(200);
    const board = res.body as Board;
    expect(board.keys).toHaveLength(PUPILS);
    expect(new Set(board.keys).size).toBe(PUPILS);
    expect(board.exerciseScores).toHaveLength(PUPILS * EXERCISES);
    console.info(`board JSON: ${Math.round(JSON.stringify(board).length / 1024)} KiB`);
    expect(ms).toBeLessThan(2500);
  });

  it('freezes a version and its 10,000 outcomes in one insert', async () => {
    const [res, ms] = await timed('freeze', () =>
      inject(t, { method: 'POST', url: `/api/selection/${selectionId}/freeze`, headers: admin, payload: {} }),
    );
    expect(res.status).toBe(200);
    expect(res.body.participants).toBe(PUPILS);
    const [version] = await t.database.db.select().from(selectionVersions).where(eq(selectionVersions.selectionId, selectionId));
    const outcomes = await t.database.db.select().from(selectionOutcomes).where(eq(selectionOutcomes.versionId, version.id));
    expect(outcomes).toHaveLength(PUPILS);
    expect(ms).toBeLessThan(4000);
    const [drift, driftMs] = await timed('board with drift', () =>
      inject(t, { method: 'GET', url: `/api/selection/${selectionId}/board`, headers: admin }),
    );
    expect(drift.body.drift).toEqual([]);
    expect(driftMs).toBeLessThan(3000);
  });
});
