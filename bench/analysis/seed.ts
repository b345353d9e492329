import { sql } from 'drizzle-orm';
import type { Db } from '../../server/src/db/client.js';

export interface AnalysisBench {
  chapterId: string;
  adminId: string;
}

/**
 * A timed chapter (60 min) of `exercises` exercises (all numeric but 4 PDF, 2 versions each),
 * `pupils` pupils who started it; each has `events` focus/blur events (alternating, from one
 * address) and answers every exercise, half of them with an older save in the history. Addresses:
 * 300 pupils share one big school's, the others 59 schools' (~29 each); one pupil in ten also
 * saves some answers from a home address. Wrong answers come from a few common values, so pairs
 * exist. Set-based inserts only.
 */
export async function seedAnalysisBench(db: Db, opts: { pupils: number; exercises: number; events: number }): Promise<AnalysisBench> {
  const run = Date.now().toString(36);
  const q = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const [{ id: chapterId }] = await q<{ id: string }>(sql`INSERT INTO chapters (title) VALUES (${`Bench analyse ${run}`}) RETURNING id`);
  await db.execute(sql`
    INSERT INTO access_groups (chapter_id, position, time_duration, access_start, access_end)
    VALUES (${chapterId}::uuid, 0, 60, now() - interval '3 hours', now() + interval '3 hours')`);
  await db.execute(sql`
    INSERT INTO exercises (chapter_id, position, title, answer_format)
    SELECT ${chapterId}::uuid, i, 'Exercice ' || (i + 1), CASE WHEN i < ${opts.exercises - 4} THEN 'numeric' ELSE 'pdf' END
    FROM generate_series(0, ${opts.exercises - 1}) AS i`);
  await db.execute(sql`
    INSERT INTO statement_versions (exercise_id, position, content, answer)
    SELECT e.id, v, 'Énoncé ' || v, CASE WHEN e.answer_format = 'numeric' THEN (10 * (e.position + 1) + 5 * v)::text END
    FROM exercises e CROSS JOIN generate_series(0, 1) AS v WHERE e.chapter_id = ${chapterId}::uuid`);
  const [{ id: adminId }] = await q<{ id: string }>(
    sql`INSERT INTO users (email, first_name, last_name, is_admin) VALUES (${`admin.${run}@exemple.fr`}, 'Alex', 'Admin', true) RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO users (email, first_name, last_name, birth_date, gender, grade)
    SELECT 'bench' || i || '.' || ${run} || '@exemple.fr',
      (ARRAY['Léa','Hugo','Chloé','Noé','Inès','Lucas','Zoé','Théo'])[1 + i % 8],
      (ARRAY['Martin','Bernard','Dubois','Thomas','Robert','Richard','Petit','Durand','Lefèvre','Moreau'])[1 + i % 10] || ' ' || i,
      DATE '2009-01-01' + (i % 1500), (ARRAY['male','female'])[1 + i % 2], '3eme'
    FROM generate_series(1, ${opts.pupils}) AS i`);
  // The pupils with their number and school address.
  await db.execute(sql`
    CREATE TEMP TABLE bench_pupils AS
    SELECT u.id, n, '10.0.' || CASE WHEN n <= 300 THEN 0 ELSE 1 + n % 59 END || '.1' AS ip
    FROM users u CROSS JOIN LATERAL (SELECT substring(u.email FROM '^bench(\\d+)\\.')::int AS n) x
    WHERE u.email LIKE ${`bench%.${run}@exemple.fr`}`);
  await db.execute(sql`
    INSERT INTO chapter_sessions (chapter_id, user_id, started_at, end_time)
    SELECT ${chapterId}::uuid, id, now() - interval '2 hours' + make_interval(secs => n % 600),
      now() - interval '1 hour' + make_interval(secs => n % 600)
    FROM bench_pupils`);
  // Alternating blur/focus, ~110 s apart, the last blur sometimes open.
  await db.execute(sql`
    INSERT INTO focus_events (chapter_id, user_id, event_type, created_at, ip)
    SELECT ${chapterId}::uuid, p.id, CASE WHEN k % 2 = 0 THEN 'blur' ELSE 'focus' END,
      s.started_at + make_interval(secs => k * ${3300 / opts.events} + (abs(hashtext(p.id::text || k)) % 40) + CASE WHEN k % 2 = 1 THEN 5 ELSE 0 END),
      p.ip
    FROM bench_pupils p JOIN chapter_sessions s ON s.user_id = p.id AND s.chapter_id = ${chapterId}::uuid
    CROSS JOIN generate_series(0, ${opts.events - 1}) AS k`);
  // Older saves (half the exercises), then the current ones; ~50 % right, wrong ones among 5 values.
  for (const [seq, share, offset] of [
    [1, 5, 0],
    [2, 10, 600],
  ] as const) {
    await db.execute(sql`
      INSERT INTO answers (user_id, exercise_id, answer, seq, created_at, ip)
      SELECT p.id, e.id,
        CASE WHEN e.answer_format = 'pdf' THEN 'pdfs/' || gen_random_uuid() || '.pdf'
             WHEN h % 10 < 5 THEN (10 * (e.position + 1) + 5 * (h % 2))::text
             ELSE (h % 5)::text END,
        ${seq}, s.started_at + make_interval(secs => ${offset} + (h % 2400)),
        CASE WHEN p.n % 10 = 0 AND h % 3 = 0 THEN '192.168.' || (p.n % 250) || '.' || (p.n % 7) ELSE p.ip END
      FROM bench_pupils p JOIN chapter_sessions s ON s.user_id = p.id AND s.chapter_id = ${chapterId}::uuid
      CROSS JOIN exercises e
      CROSS JOIN LATERAL (SELECT abs(hashtext(p.id::text || e.id::text || ${seq})) AS h) x
      WHERE e.chapter_id = ${chapterId}::uuid AND (${seq} = 2 OR h % 10 < ${share})`);
  }
  await db.execute(sql`DROP TABLE bench_pupils`);
  return { chapterId, adminId };
}
