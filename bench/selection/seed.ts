import { sql } from 'drizzle-orm';
import type { Db } from '../../server/src/db/client.js';

export interface SelectionBench {
  selectionId: string;
  chapterId: string;
  adminId: string;
}

/** The five categories, one grade each: `grades[i]` is category i's. */
export const BENCH_GRADES = ['4eme', '3eme', '2nde', '1ere', 'Tale'] as const;
const ACADEMIES = ['Paris', 'Créteil', 'Versailles', 'Lyon', 'Aix-Marseille', 'Lille', 'Toulouse', 'Bordeaux', 'Nantes', 'Rennes'];

/**
 * docs/product.md#selections at volume: one chapter of `exercises` numeric exercises (7 points each) taken by
 * `pupils` pupils of five grades over `schools` schools (sector and académie set), every copy graded but one in
 * thirty left blank, and a selection over it with five categories (one grade each), their cut-offs at about the
 * best tenth, ties included, a girls' quota and at most 3 per school, so that freezing is allowed. Set-based SQL.
 */
export async function seedSelectionBench(db: Db, opts: { pupils: number; exercises: number; schools: number }): Promise<SelectionBench> {
  const run = Date.now().toString(36);
  const q = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const [{ id: adminId }] = await q<{ id: string }>(
    sql`INSERT INTO users (email, first_name, last_name, is_admin) VALUES (${`admin.${run}@exemple.fr`}, 'Alex', 'Admin', true) RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO institutions (name, uai, confirmed, sector, academy)
    SELECT 'Lycée ' || i, 'BSEL' || ${run} || i, true, CASE WHEN i % 5 = 0 THEN 'private' ELSE 'public' END,
      (string_to_array(${ACADEMIES.join(',')}, ','))[1 + i % ${ACADEMIES.length}]
    FROM generate_series(1, ${opts.schools}) AS i`);
  const [{ id: chapterId }] = await q<{ id: string }>(
    sql`INSERT INTO chapters (title, analysis) VALUES (${`Bench sélection ${run}`}, true) RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO access_groups (chapter_id, position, time_duration, access_start, access_end)
    VALUES (${chapterId}::uuid, 0, 180, now() - interval '30 days', now() - interval '29 days')`);
  await db.execute(sql`
    INSERT INTO exercises (chapter_id, position, title, answer_format, max_points)
    SELECT ${chapterId}::uuid, i, 'Exercice ' || (i + 1), 'numeric', 7 FROM generate_series(0, ${opts.exercises - 1}) AS i`);
  await db.execute(sql`
    INSERT INTO users (email, first_name, last_name, birth_date, gender, grade, institution_id)
    SELECT 'sel' || i || '.' || ${run} || '@exemple.fr', 'Prénom ' || i, 'Nom ' || i, DATE '2008-01-01' + (i % 1800),
      CASE WHEN abs(hashtext('g' || i)) % 100 < 48 THEN 'female' ELSE 'male' END,
      (string_to_array(${BENCH_GRADES.join(',')}, ','))[1 + i % 5],
      (SELECT id FROM institutions WHERE uai = 'BSEL' || ${run} || (1 + abs(hashtext('s' || i)) % ${opts.schools}))
    FROM generate_series(1, ${opts.pupils}) AS i`);
  await db.execute(sql`
    INSERT INTO chapter_sessions (chapter_id, user_id, started_at, finished_at, access_gender, access_grade, access_birth_date)
    SELECT ${chapterId}::uuid, id, now() - interval '30 days', now() - interval '30 days' + interval '2 hours', gender, grade, birth_date
    FROM users WHERE email LIKE ${`sel%.${run}@exemple.fr`}`);
  // A grade in half points from 0 to 7 drawn from the pupil and the exercise; one copy in thirty left blank.
  await db.execute(sql`
    INSERT INTO answers (user_id, exercise_id, answer, seq, grade, grade_timestamp)
    SELECT s.user_id, e.id, '42', 0, ((abs(hashtext(s.user_id::text || e.id::text)) % 15) / 2.0)::text, now() - interval '20 days'
    FROM chapter_sessions s CROSS JOIN exercises e
    WHERE s.chapter_id = ${chapterId}::uuid AND e.chapter_id = ${chapterId}::uuid
      AND abs(hashtext(e.id::text || s.user_id::text)) % 30 <> 0`);
  const [{ id: selectionId }] = await q<{ id: string }>(sql`
    INSERT INTO selections (title, chapters, next_round_title, next_round_date, next_round_place)
    VALUES (${`Sélection bench ${run}`}, ${JSON.stringify([{ chapterId, weight: 1 }])}::jsonb, 'le tour 2', DATE '2027-03-13', 'Paris')
    RETURNING id`);
  // Cut-offs at about the best tenth of each category (the pupils' totals, as the board sums them).
  await db.execute(sql`
    WITH totals AS (
      SELECT s.access_grade AS grade, coalesce(sum(a.grade::float8), 0) AS total
      FROM chapter_sessions s LEFT JOIN answers a ON a.user_id = s.user_id
        AND a.exercise_id IN (SELECT id FROM exercises WHERE chapter_id = ${chapterId}::uuid)
      WHERE s.chapter_id = ${chapterId}::uuid GROUP BY s.user_id, s.access_grade)
    INSERT INTO selection_categories (selection_id, position, name, grades, cutoff, at_cutoff, min_girls, max_per_school)
    SELECT ${selectionId}::uuid, p - 1, 'Catégorie ' || g, ARRAY[g],
      (SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY total) FROM totals WHERE grade = g), 'include', 100, 3
    FROM unnest(string_to_array(${BENCH_GRADES.join(',')}, ',')) WITH ORDINALITY AS c(g, p)`);
  return { selectionId, chapterId, adminId };
}
