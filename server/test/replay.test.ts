import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, chapters, exercises } from '../src/db/schema.js';
import { ANSWER_SAVES } from '../src/http/save-limit.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * The qualities of docs/product.md#design-4, faults: duplicate and out-of-order saves. A browser retries (same seq) and its
 * saves can arrive in any order; whatever happens, the current answer of a (pupil, exercise) is
 * the one with the highest seq, and a repeated seq is stored once. Runs on PGlite and, in CI,
 * on PostgreSQL (TEST_DATABASE_URL), where concurrent replays really race.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  // A replay sends a whole offline queue at test speed: far above the per-pupil save limit (decision 39).
  ANSWER_SAVES.burst = Infinity;
});
afterAll(async () => t.close());

const PUPILS = 3;
const EXERCISES = 3;
const SAVES = 5;

interface Save {
  pupil: number;
  headers: Record<string, string>;
  userId: string;
  exerciseId: string;
  seq: number;
  answer: string;
}

/** A chapter open to everyone, untimed; pupils with complete profiles; SAVES saves per (pupil, exercise). */
async function run() {
  const db = t.database.db;
  const [chapter] = await db.insert(chapters).values({ title: 'Rejeu' }).returning();
  await db.insert(accessGroups).values({ chapterId: chapter.id, position: 0 });
  const exerciseIds = (
    await db
      .insert(exercises)
      .values(
        Array.from({ length: EXERCISES }, (_, k) => ({
          chapterId: chapter.id,
          position: k,
          title: `Exercice ${k + 1}`,
          answerFormat: 'numeric',
        })),
      )
      .returning({ id: exercises.id })
  ).map((r) => r.id);
  const pupils = await Promise.all(Array.from({ length: PUPILS }, () => createUser(t, 'pupil', PUPIL_PROFILE)));
  const saves: Save[] = [];
  for (const [p, pupil] of pupils.entries()) {
    for (const [e, exerciseId] of exerciseIds.entries()) {
      // Increasing but irregular seqs, as Date.now()-based seqs of a real page are.
      let seq = 1_700_000_000_000 + p * 1000 + e * 100;
      for (let k = 0; k < SAVES; k++) {
        seq += 1 + ((p * 7 + e * 3 + k * 5) % 11);
        saves.push({ pupil: p, headers: pupil.headers, userId: pupil.id, exerciseId, seq, answer: `${p}${e}${k}` });
      }
    }
  }
  return { chapterId: chapter.id, pupils, saves };
}

const keyOf = (s: Pick<Save, 'userId' | 'exerciseId'>) => `${s.userId}|${s.exerciseId}`;

function latestOf(saves: Save[]) {
  const latest = new Map<string, Save>();
  for (const s of saves) if ((latest.get(keyOf(s))?.seq ?? -1) < s.seq) latest.set(keyOf(s), s);
  return latest;
}

/** Fisher–Yates with a seeded generator: a failure can be replayed. */
function shuffle<T>(xs: T[], seed: number): T[] {
  const a = [...xs];
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const send = (s: Save) =>
  inject(t, {
    method: 'POST',
    url: '/api/answer',
    headers: s.headers,
    payload: { exerciseId: s.exerciseId, answer: s.answer, seq: s.seq },
  });

/** The stored state of a chapter: rows, and the current answer (highest seq) per (pupil, exercise). */
async function stored(chapterId: string) {
  const rows = await t.database.db
    .select({ userId: answers.userId, exerciseId: answers.exerciseId, seq: answers.seq, answer: answers.answer })
    .from(answers)
    .innerJoin(exercises, eq(exercises.id, answers.exerciseId))
    .where(eq(exercises.chapterId, chapterId));
  const current = new Map<string, { seq: number; answer: string }>();
  for (const r of rows)
    if ((current.get(keyOf(r))?.seq ?? -1) < Number(r.seq)) current.set(keyOf(r), { seq: Number(r.seq), answer: r.answer });
  return { rows, current };
}

/** The database and every pupil's GET /answer/chapter agree: the highest seq wins, each save stored once. */
async function expectLatestWins(chapterId: string, saves: Save[], pupils: Array<{ headers: Record<string, string>; id: string }>) {
  const latest = latestOf(saves);
  const { rows, current } = await stored(chapterId);
  expect(rows).toHaveLength(new Set(saves.map((s) => `${keyOf(s)}|${s.seq}`)).size);
  expect(current.size).toBe(latest.size);
  for (const [key, want] of latest) expect(current.get(key), key).toEqual({ seq: want.seq, answer: want.answer });
  for (const pupil of pupils) {
    const res = await inject(t, { method: 'GET', url: `/api/answer/chapter/${chapterId}`, headers: pupil.headers });
    expect(res.status).toBe(200);
    const mine = [...latest.values()].filter((s) => s.userId === pupil.id);
    expect(res.body).toHaveLength(mine.length);
    for (const a of res.body as Array<{ exercise: string; answer: string; seq: number }>) {
      const want = latest.get(`${pupil.id}|${a.exercise}`)!;
      expect({ answer: a.answer, seq: Number(a.seq) }).toEqual({ answer: want.answer, seq: want.seq });
    }
  }
}

describe('replayed and reordered saves: the latest by seq wins every time', () => {
  it('a run in order, then every save replayed three times, shuffled, one by one', async () => {
    const { chapterId, pupils, saves } = await run();
    for (const s of saves) {
      const res = await send(s);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ current: true, duplicate: false });
    }
    await expectLatestWins(chapterId, saves, pupils);

    const latest = latestOf(saves);
    for (let pass = 1; pass <= 3; pass++) {
      for (const s of shuffle(saves, pass)) {
        const res = await send(s);
        expect(res.status).toBe(200);
        // Everything is stored already: a no-op, current only for the newest save of its pair.
        expect(res.body).toMatchObject({ seq: s.seq, duplicate: true, current: latest.get(keyOf(s))!.seq === s.seq });
      }
      await expectLatestWins(chapterId, saves, pupils);
    }
  });

  it('the first delivery already shuffled and tripled, all at once (retries racing their originals)', async () => {
    const { chapterId, pupils, saves } = await run();
    const tripled = shuffle([...saves, ...saves, ...saves], 42);
    const results = await Promise.all(tripled.map(send));
    expect(results.map((r) => r.status)).toEqual(tripled.map(() => 200));
    // Exactly one of the three copies of each save was stored; the other two were no-ops.
    const fresh = new Map<string, number>();
    for (const [i, r] of results.entries()) {
      const key = `${keyOf(tripled[i])}|${tripled[i].seq}`;
      fresh.set(key, (fresh.get(key) ?? 0) + (r.body.duplicate ? 0 : 1));
    }
    expect([...fresh.values()].every((n) => n === 1)).toBe(true);
    await expectLatestWins(chapterId, saves, pupils);

    // Two more passes, shuffled differently and concurrent again: nothing changes.
    for (const seed of [7, 99]) {
      const again = await Promise.all(shuffle([...saves, ...saves, ...saves], seed).map(send));
      expect(again.every((r) => r.status === 200 && r.body.duplicate === true)).toBe(true);
      await expectLatestWins(chapterId, saves, pupils);
    }
  });

  it('an older save arriving after a newer one never becomes current, even concurrently with it', async () => {
    const { chapterId, pupils, saves } = await run();
    // Per (pupil, exercise): the newest first, then everything older at once.
    const latest = latestOf(saves);
    for (const s of latest.values()) expect((await send(s)).body).toMatchObject({ current: true, duplicate: false });
    const older = saves.filter((s) => latest.get(keyOf(s))!.seq !== s.seq);
    const results = await Promise.all(shuffle(older, 5).map(send));
    expect(results.every((r) => r.status === 200 && r.body.current === false && r.body.duplicate === false)).toBe(true);
    await expectLatestWins(chapterId, saves, pupils);
    // The history keeps the older values (grading shows them), they only never win.
    const [{ n }] = (
      (await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM answers a JOIN exercises e ON e.id = a.exercise_id WHERE e.chapter_id = ${chapterId}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    expect(Number(n)).toBe(saves.length);
  });
});
