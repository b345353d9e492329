import { sql } from 'drizzle-orm';
import type { Db } from '../../server/src/db/client.js';
import { MEMBERS_GROUP_ID } from '../../server/src/db/schema.js';

export interface GradingBench {
  chapterId: string;
  exerciseIds: string[];
  memberId: string;
  adminId: string;
}

/**
 * A paper chapter of 12 exercises (8 numeric with 2 versions, 4 PDF), `pupils` pupils answering
 * about 90 % of them, 30 % with an older answer in the history, half of the current answers graded
 * (one in ten of those X). Set-based inserts: a few seconds on PostgreSQL.
 */
export async function seedGradingBench(db: Db, pupils: number): Promise<GradingBench> {
  const run = Date.now().toString(36);
  const q = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as { rows: T[] };
  const [{ id: chapterId }] = (
    await q<{ id: string }>(sql`INSERT INTO chapters (title, offline) VALUES (${`Bench correction ${run}`}, true) RETURNING id`)
  ).rows;
  const exercises = (
    await q<{ id: string }>(sql`
      INSERT INTO exercises (chapter_id, position, title, answer_format)
      SELECT ${chapterId}::uuid, i, 'Exercice ' || (i + 1), CASE WHEN i < 8 THEN 'numeric' ELSE 'pdf' END
      FROM generate_series(0, 11) AS i RETURNING id`)
  ).rows.map((r) => r.id);
  await db.execute(sql`
    INSERT INTO statement_versions (exercise_id, position, content, answer)
    SELECT e.id, v, 'Énoncé ' || v, CASE WHEN e.answer_format = 'numeric' THEN (10 * (v + 1))::text END
    FROM exercises e CROSS JOIN generate_series(0, 1) AS v WHERE e.chapter_id = ${chapterId}::uuid`);
  const [{ id: memberId }] = (
    await q<{ id: string }>(
      sql`INSERT INTO users (email, first_name, last_name) VALUES (${`correcteur.${run}@exemple.fr`}, 'Camille', 'Correctrice') RETURNING id`,
    )
  ).rows;
  await db.execute(sql`INSERT INTO group_members (group_id, user_id) VALUES (${MEMBERS_GROUP_ID}::uuid, ${memberId}::uuid)`);
  const [{ id: adminId }] = (
    await q<{ id: string }>(
      sql`INSERT INTO users (email, first_name, last_name, is_admin) VALUES (${`admin.${run}@exemple.fr`}, 'Alex', 'Admin', true) RETURNING id`,
    )
  ).rows;
  await db.execute(sql`
    INSERT INTO users (email, first_name, last_name, birth_date, gender, grade)
    SELECT 'eleve' || i || '.' || ${run} || '@exemple.fr',
      (ARRAY['Léa','Hugo','Chloé','Noé','Inès','Lucas','Zoé','Théo'])[1 + i % 8],
      (ARRAY['Martin','Bernard','Dubois','Thomas','Robert','Richard','Petit','Durand','Lefèvre','Moreau'])[1 + i % 10] || ' ' || i,
      DATE '2008-01-01' + (i % 2000), (ARRAY['male','female','other'])[1 + i % 3], (ARRAY['4eme','3eme','2nde','1ere','Tale'])[1 + i % 5]
    FROM generate_series(1, ${pupils}) AS i`);
  // History rows first (older seq), then the current answers.
  await db.execute(sql`
    INSERT INTO answers (user_id, exercise_id, answer, seq, created_at)
    SELECT u.id, e.id, CASE WHEN e.answer_format = 'numeric' THEN '7' ELSE 'pdfs/' || gen_random_uuid() || '.pdf' END,
      1, now() - interval '2 hours'
    FROM users u CROSS JOIN exercises e
    WHERE u.email LIKE ${`eleve%.${run}@exemple.fr`} AND e.chapter_id = ${chapterId}::uuid
      AND abs(hashtext(u.id::text || e.id::text)) % 10 < 3`);
  await db.execute(sql`
    INSERT INTO answers (user_id, exercise_id, answer, seq, created_at, grade, grader_id, grade_timestamp)
    SELECT u.id, e.id, CASE WHEN e.answer_format = 'numeric' THEN ((abs(hashtext(u.id::text)) % 3) * 10)::text ELSE 'pdfs/' || gen_random_uuid() || '.pdf' END,
      2, now() - make_interval(secs => abs(hashtext(e.id::text || u.id::text)) % 3600),
      CASE WHEN h % 2 = 0 THEN (CASE WHEN h % 20 = 0 THEN 'X' ELSE (h % 8)::text END) END,
      CASE WHEN h % 2 = 0 THEN ${memberId}::uuid END,
      CASE WHEN h % 2 = 0 THEN now() END
    FROM users u CROSS JOIN exercises e CROSS JOIN LATERAL (SELECT abs(hashtext(e.id::text || u.email)) AS h) x
    WHERE u.email LIKE ${`eleve%.${run}@exemple.fr`} AND e.chapter_id = ${chapterId}::uuid
      AND abs(hashtext(u.id::text || e.id::text || 'a')) % 10 <> 0`);
  await db.execute(sql`ANALYZE answers`);
  await db.execute(sql`ANALYZE users`);
  return { chapterId, exerciseIds: exercises, memberId, adminId };
}
