import { randomUUID } from 'node:crypto';
import type { GradingTable } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { column, rows } from '../src/db/query.js';
import { answers, chapters, exercises, users } from '../src/db/schema.js';
import { countsOf } from './table-counts.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * Decision 116: current_answers, answer_counts and chapter_pupils are written by triggers on `answers` alone.
 * Whatever is written to the answers (saves, server-made rows, grades, withdrawals, deletions of answers,
 * pupils and exercises, several rows per statement), the three tables say what the answers themselves say,
 * and the grading table's header, which counts from them, agrees with the whole table.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const db = () => t.database.db;
/** CURRENT_ANSWERS_STEPS=3000 for a longer walk. */
const STEPS = Number(process.env.CURRENT_ANSWERS_STEPS ?? 300);

const pair = z.object({ exercise_id: z.string(), user_id: z.string(), chapter_id: z.string(), answered: z.boolean(), graded: z.boolean() });

/** The truth, from the answers alone, written independently of the trigger's SQL. */
async function truth() {
  const pairs = await rows(
    db(),
    pair,
    sql`SELECT DISTINCT ON (a.exercise_id, a.user_id) a.exercise_id, a.user_id, x.chapter_id,
          coalesce(a.grade, '') <> '' OR btrim(a.answer) <> '' AS answered, coalesce(a.grade, '') <> '' AS graded
        FROM answers a JOIN exercises x ON x.id = a.exercise_id
        WHERE a.withdrawn_at IS NULL
        ORDER BY a.exercise_id, a.user_id, a.seq DESC, a.created_at DESC, a.id DESC`,
  );
  return pairs;
}

const byPair = (a: { exercise_id: string; user_id: string }, b: { exercise_id: string; user_id: string }) =>
  `${a.exercise_id}${a.user_id}`.localeCompare(`${b.exercise_id}${b.user_id}`);

/** The three tables against the truth. */
async function expectKeptTables(context: string) {
  const expected = (await truth()).sort(byPair);
  const kept = (await rows(db(), pair, sql`SELECT exercise_id, user_id, chapter_id, answered, graded FROM current_answers`)).sort(byPair);
  expect(kept, context).toEqual(expected);

  const counted = new Map<string, { pairs: number; answered: number; graded: number }>();
  for (const p of expected) {
    const c = counted.get(p.exercise_id) ?? { pairs: 0, answered: 0, graded: 0 };
    counted.set(p.exercise_id, { pairs: c.pairs + 1, answered: c.answered + Number(p.answered), graded: c.graded + Number(p.graded) });
  }
  const sums = await rows(
    db(),
    z.object({ exercise_id: z.string(), pairs: column.number, answered: column.number, graded: column.number }),
    sql`SELECT exercise_id, sum(pairs)::int AS pairs, sum(answered)::int AS answered, sum(graded)::int AS graded
        FROM answer_counts GROUP BY exercise_id HAVING sum(pairs) <> 0 OR sum(answered) <> 0 OR sum(graded) <> 0`,
  );
  expect(new Map(sums.map(({ exercise_id, ...c }) => [exercise_id, c])), context).toEqual(counted);

  const members = new Set(expected.map((p) => `${p.chapter_id} ${p.user_id}`));
  const keptMembers = await rows(
    db(),
    z.object({ chapter_id: z.string(), user_id: z.string() }),
    sql`SELECT chapter_id, user_id FROM chapter_pupils`,
  );
  expect(new Set(keptMembers.map((m) => `${m.chapter_id} ${m.user_id}`)), context).toEqual(members);
  return expected.length;
}

/** mulberry32: the same sequence of writes on every run and both databases. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

async function newPupils(n: number, tag: string) {
  const made = await db()
    .insert(users)
    .values(
      Array.from({ length: n }, (_, k) => ({
        email: `${tag}-${k}-${randomUUID().slice(0, 6)}@eleves.fr`,
        lastName: `Élève ${k}`,
        firstName: tag,
      })),
    )
    .returning({ id: users.id });
  return made.map((u) => u.id);
}

describe('tables kept by the answers triggers', () => {
  it(`equal the answers after ${STEPS} random writes of every kind, on this database`, async () => {
    const [c1, c2] = await db()
      .insert(chapters)
      .values([{ title: 'Gardé 1' }, { title: 'Gardé 2' }])
      .returning();
    let exerciseIds = (
      await db()
        .insert(exercises)
        .values([
          { chapterId: c1.id, position: 0, title: 'A', answerFormat: 'numeric' },
          { chapterId: c1.id, position: 1, title: 'B', answerFormat: 'pdf' },
          { chapterId: c1.id, position: 2, title: 'C', answerFormat: 'numeric' },
          { chapterId: c2.id, position: 0, title: 'D', answerFormat: 'numeric' },
        ])
        .returning()
    ).map((e) => e.id);
    let pupilIds = await newPupils(7, 'hasard');
    const next = random(116);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const texts = ['', '  ', ' 3', '4', '0,5', 'pdfs/a.pdf'];
    const grades = [null, '', '2', 'X', '0'];
    const kinds = new Map<string, number>();
    let nonEmpty = 0;

    for (let step = 0; step < STEPS; step++) {
      const roll = next();
      const someAnswer = async () =>
        (
          await rows(db(), z.object({ id: z.string() }), sql`SELECT id FROM answers ORDER BY id OFFSET ${Math.floor(next() * 40)} LIMIT 1`)
        )[0]?.id ?? (await rows(db(), z.object({ id: z.string() }), sql`SELECT id FROM answers LIMIT 1`))[0]?.id;
      let kind: string;
      if (roll < 0.45) {
        // One statement of 1–4 rows, the same pair possibly twice; seq 0 rows are the server's own.
        kind = 'insert';
        const values = Array.from({ length: 1 + Math.floor(next() * 4) }, () => ({
          userId: pick(pupilIds),
          exerciseId: pick(exerciseIds),
          answer: pick(texts),
          grade: pick(grades),
          seq: next() < 0.2 ? 0 : 1 + Math.floor(next() * 30),
        }));
        await db().insert(answers).values(values).onConflictDoNothing();
      } else if (roll < 0.6) {
        kind = 'grade';
        const id = await someAnswer();
        const second = await someAnswer();
        if (id) await db().execute(sql`UPDATE answers SET grade = ${pick(grades)} WHERE id IN (${id}::uuid, ${second ?? id}::uuid)`);
      } else if (roll < 0.68) {
        kind = 'withdraw';
        const id = await someAnswer();
        if (id)
          await db().execute(sql`UPDATE answers SET withdrawn_at = CASE WHEN withdrawn_at IS NULL THEN now() END WHERE id = ${id}::uuid`);
      } else if (roll < 0.76) {
        kind = 'rewrite';
        const id = await someAnswer();
        if (id)
          await db().execute(
            sql`UPDATE answers SET answer = ${pick(texts)}, seq = CASE WHEN seq > 0 THEN 1000 + ${step} ELSE 0 END WHERE id = ${id}::uuid`,
          );
      } else if (roll < 0.84) {
        kind = 'delete';
        const id = await someAnswer();
        if (id) await db().execute(sql`DELETE FROM answers WHERE id = ${id}::uuid`);
      } else if (roll < 0.9) {
        kind = 'ip only';
        await db().execute(sql`UPDATE answers SET ip = '10.0.0.1'`);
      } else if (roll < 0.95) {
        kind = 'move';
        // An answer given to another pupil and exercise (no route does it; the trigger must still follow).
        const id = await someAnswer();
        if (id)
          await db().execute(
            sql`UPDATE answers SET user_id = ${pick(pupilIds)}::uuid, exercise_id = ${pick(exerciseIds)}::uuid, seq = 100 + ${step} WHERE id = ${id}::uuid`,
          );
      } else if (roll < 0.975) {
        kind = 'pupil deleted';
        const gone = pick(pupilIds);
        await db().execute(sql`DELETE FROM users WHERE id = ${gone}::uuid`);
        pupilIds = [...pupilIds.filter((id) => id !== gone), ...(await newPupils(1, `relève-${step}`))];
      } else {
        kind = 'exercise deleted';
        const gone = pick(exerciseIds);
        const [chapterId] = await rows(
          db(),
          z.object({ chapter_id: z.string() }),
          sql`SELECT chapter_id FROM exercises WHERE id = ${gone}::uuid`,
        );
        await db().execute(sql`DELETE FROM exercises WHERE id = ${gone}::uuid`);
        const [made] = await db()
          .insert(exercises)
          .values({ chapterId: chapterId.chapter_id, title: `E${step}`, answerFormat: 'numeric' })
          .returning();
        exerciseIds = [...exerciseIds.filter((id) => id !== gone), made.id];
      }
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if ((await expectKeptTables(`step ${step} (${kind})`)) > 0) nonEmpty++;
    }
    // The walk did reach every kind of write, with answers in the tables most of the time.
    expect([...kinds.keys()].sort()).toEqual([
      'delete',
      'exercise deleted',
      'grade',
      'insert',
      'ip only',
      'move',
      'pupil deleted',
      'rewrite',
      'withdraw',
    ]);
    expect(nonEmpty).toBeGreaterThan(STEPS * 0.8);
    // One statement for 300 pupils (more than 256): the transaction takes the lock that holds back every other writer.
    const many = await newPupils(300, 'lot');
    await db()
      .insert(answers)
      .values(many.map((userId, k) => ({ userId, exerciseId: exerciseIds[k % exerciseIds.length], answer: k % 3 ? '1' : '', seq: 1 })));
    await db().execute(
      sql`UPDATE answers SET grade = '1' WHERE answer = '1' AND user_id IN (SELECT id FROM users WHERE first_name = 'lot')`,
    );
    expect(await expectKeptTables('300 pupils in one statement')).toBeGreaterThan(300);
    // A whole chapter deleted takes its pupils with it.
    await db().execute(sql`DELETE FROM chapters WHERE id IN (${c1.id}::uuid, ${c2.id}::uuid)`);
    expect(await expectKeptTables('chapters deleted')).toBe(0);
  });

  it('agree with the whole grading table through a grade and the bin: the header counts from them', async () => {
    const admin = await createUser(t, 'admin');
    const [c] = await db().insert(chapters).values({ title: 'En-tête' }).returning();
    const [one, two, three] = await db()
      .insert(exercises)
      .values([
        { chapterId: c.id, position: 0, title: 'Un', answerFormat: 'numeric', maxPoints: 4 },
        { chapterId: c.id, position: 1, title: 'Deux', answerFormat: 'numeric', maxPoints: 4 },
        { chapterId: c.id, position: 2, title: 'Trois', answerFormat: 'pdf', maxPoints: 10 },
      ])
      .returning();
    const pupils = await newPupils(6, 'entete');
    const seed = [
      { userId: pupils[0], exerciseId: one.id, answer: '3', seq: 1 },
      { userId: pupils[0], exerciseId: one.id, answer: '', seq: 2 },
      { userId: pupils[1], exerciseId: one.id, answer: '0,5', seq: 1, grade: '4' },
      { userId: pupils[1], exerciseId: two.id, answer: '  ', seq: 1 },
      { userId: pupils[2], exerciseId: two.id, answer: '7', seq: 1, grade: 'X' },
      { userId: pupils[3], exerciseId: three.id, answer: 'pdfs/c.pdf', seq: 0 },
      { userId: pupils[4], exerciseId: three.id, answer: 'pdfs/d.pdf', seq: 0, withdrawnAt: new Date() },
      { userId: pupils[5], exerciseId: three.id, answer: 'pdfs/e.pdf', seq: 0 },
    ];
    await db().insert(answers).values(seed);
    await expectKeptTables('seeded');

    const header = async () => {
      const res = await inject(t, { method: 'GET', url: `/api/answer/table/${c.id}?limit=0`, headers: admin.headers });
      expect(res.status).toBe(200);
      return (res.body as GradingTable).page!;
    };
    const whole = async () => {
      const res = await inject(t, { method: 'GET', url: `/api/answer/table/${c.id}`, headers: admin.headers });
      return res.body as GradingTable;
    };
    expect(await header()).toMatchObject({ pupils: 5, matched: 5 });
    expect(Object.keys((await whole()).users)).toHaveLength(5);
    // Counted from the whole table's cells, as the web page would: 1 and 1 answered, pupil 0's erase left blank.
    expect((await header()).counts).toEqual(countsOf(await whole()));
    expect((await header()).counts).toEqual([
      { answered: 1, graded: 1 },
      { answered: 1, graded: 1 },
      { answered: 2, graded: 0 },
    ]);

    // A grade through the API moves the counts.
    const [copy] = await rows(db(), z.object({ id: z.string() }), sql`SELECT id FROM answers WHERE user_id = ${pupils[3]}::uuid`);
    const graded = await inject(t, {
      method: 'POST',
      url: '/api/answer/grade',
      headers: admin.headers,
      payload: { answerId: copy.id, grade: '8', grade_comment: '', hidden: false, expectedGradeTimestamp: null },
    });
    expect(graded.status, JSON.stringify(graded.body)).toBe(200);
    await expectKeptTables('graded through the API');
    expect((await header()).counts?.[2]).toEqual({ answered: 2, graded: 1 });

    // The pdf exercise goes to the bin: its pupils alone leave the table, and the header still agrees.
    await db().execute(sql`UPDATE exercises SET deleted_at = now() WHERE id = ${three.id}::uuid`);
    const afterBin = await header();
    expect(afterBin).toMatchObject({ pupils: 3, matched: 3 });
    expect(Object.keys((await whole()).users)).toHaveLength(3);
    const search = await inject(t, { method: 'GET', url: `/api/answer/table/${c.id}?limit=0&q=eleve 1`, headers: admin.headers });
    expect((search.body as GradingTable).page).toMatchObject({ pupils: 3, matched: 1 });
    await db().execute(sql`UPDATE exercises SET deleted_at = NULL WHERE id = ${three.id}::uuid`);
    expect(await header()).toMatchObject({ pupils: 5, matched: 5 });
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('many writers at once (PostgreSQL)', () => {
  it('a transaction writing for 20,000 pupils does not run out of lock memory', async () => {
    const [c] = await db().insert(chapters).values({ title: 'Masse' }).returning();
    const [e] = await db().insert(exercises).values({ chapterId: c.id, title: 'Masse', answerFormat: 'numeric' }).returning();
    const [{ n }] = await rows(
      db(),
      z.object({ n: column.number }),
      sql`WITH u AS (
            INSERT INTO users (email, last_name, first_name)
            SELECT 'masse-' || g || '-' || ${randomUUID().slice(0, 6)} || '@eleves.fr', 'Masse', 'Élève' FROM generate_series(1, 20000) g
            RETURNING id)
          SELECT count(*)::int AS n FROM u`,
    );
    expect(n).toBe(20000);
    // Automatic correction writes its grades in a few statements of one transaction.
    await db().transaction(async (tx) => {
      await tx.execute(
        sql`INSERT INTO answers (user_id, exercise_id, answer, seq) SELECT id, ${e.id}::uuid, '2', 1 FROM users WHERE last_name = 'Masse'`,
      );
      await tx.execute(sql`UPDATE answers SET grade = '1' WHERE exercise_id = ${e.id}::uuid`);
    });
    const [counts] = await rows(
      db(),
      z.object({ pairs: column.number, graded: column.number }),
      sql`SELECT sum(pairs)::int AS pairs, sum(graded)::int AS graded FROM answer_counts WHERE exercise_id = ${e.id}::uuid`,
    );
    expect(counts).toEqual({ pairs: 20000, graded: 20000 });
  });

  it('the later answer wins in the kept tables even when the earlier statement commits last', async () => {
    const [c] = await db().insert(chapters).values({ title: 'Course' }).returning();
    const [e] = await db().insert(exercises).values({ chapterId: c.id, title: 'Course', answerFormat: 'numeric' }).returning();
    const [pupil] = await newPupils(1, 'course');
    const [{ name }] = await rows(db(), z.object({ name: z.string() }), sql`SELECT current_database() AS name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const first = new pg.Client({ connectionString: url.toString() });
    const second = new pg.Client({ connectionString: url.toString() });
    await Promise.all([first.connect(), second.connect()]);
    try {
      for (let round = 0; round < 5; round++) {
        // The newer save (an answer) takes the pair first and holds it; the older one (an erase) arrives
        // meanwhile. Without the pair's lock the older statement would write its stale state last.
        await second.query('BEGIN');
        await second.query('INSERT INTO answers (user_id, exercise_id, answer, seq) VALUES ($1, $2, $3, $4)', [
          pupil,
          e.id,
          '12',
          10 * round + 9,
        ]);
        const older = first.query('INSERT INTO answers (user_id, exercise_id, answer, seq) VALUES ($1, $2, $3, $4)', [
          pupil,
          e.id,
          '',
          10 * round + 1,
        ]);
        await new Promise((resolve) => setTimeout(resolve, 150));
        await second.query('COMMIT');
        await older;
        await expectKeptTables(`round ${round}`);
        const [state] = await rows(
          db(),
          z.object({ answered: z.boolean() }),
          sql`SELECT answered FROM current_answers WHERE user_id = ${pupil}::uuid`,
        );
        expect(state.answered).toBe(true);
      }
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});
