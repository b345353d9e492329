CREATE TABLE "answer_counts" (
	"exercise_id" uuid NOT NULL,
	"slot" smallint NOT NULL,
	"pairs" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"graded" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "answer_counts_exercise_id_slot_pk" PRIMARY KEY("exercise_id","slot")
);
--> statement-breakpoint
CREATE TABLE "chapter_pupils" (
	"chapter_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "chapter_pupils_chapter_id_user_id_pk" PRIMARY KEY("chapter_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "current_answers" (
	"exercise_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"chapter_id" uuid NOT NULL,
	"answered" boolean NOT NULL,
	"graded" boolean NOT NULL,
	CONSTRAINT "current_answers_exercise_id_user_id_pk" PRIMARY KEY("exercise_id","user_id")
);
--> statement-breakpoint
-- hand-written (decision 116): the triggers that keep current_answers, answer_counts and chapter_pupils.
-- current_answers_changes gives, for the given (exercise, pupil) pairs, those whose row in current_answers
-- differs from what `answers` says now: appeared, gone, or answered/graded changed.
CREATE FUNCTION current_answers_changes(p_exercises uuid[], p_users uuid[])
RETURNS TABLE (e uuid, u uuid, chapter_id uuid, had boolean, has boolean, was_answered boolean, was_graded boolean, answered boolean, graded boolean)
LANGUAGE sql STABLE AS $$
  SELECT f.e, f.u, coalesce(o.chapter_id, x.chapter_id),
    o.exercise_id IS NOT NULL, f.answered IS NOT NULL,
    coalesce(o.answered, false), coalesce(o.graded, false),
    coalesce(f.answered, false), coalesce(f.graded, false)
  FROM (
    SELECT p.e, p.u, c.answered, c.graded
    FROM (SELECT DISTINCT t.e, t.u FROM unnest(p_exercises, p_users) AS t(e, u)) p
    LEFT JOIN LATERAL (
      -- The current answer: highest seq, then latest (both read in answers_current_idx's order), then id.
      -- The rule of the grading table's cells (grading/queries.ts): graded is a grade, answered is a grade
      -- or an answer with something left once spaces are trimmed.
      SELECT (a.grade <> '') IS TRUE AS graded,
             ((a.grade <> '') IS TRUE OR (a.answer <> '' AND (NOT starts_with(a.answer, ' ') OR btrim(a.answer) <> ''))) AS answered
      FROM answers a
      WHERE a.exercise_id = p.e AND a.user_id = p.u AND a.withdrawn_at IS NULL
        AND (a.seq, a.created_at) = (
          SELECT b.seq, b.created_at FROM answers b
          WHERE b.exercise_id = p.e AND b.user_id = p.u AND b.withdrawn_at IS NULL
          ORDER BY b.seq DESC, b.created_at DESC LIMIT 1)
      ORDER BY a.id DESC
      LIMIT 1
    ) c ON true
  ) f
  LEFT JOIN current_answers o ON o.exercise_id = f.e AND o.user_id = f.u
  LEFT JOIN exercises x ON x.id = f.e AND o.exercise_id IS NULL
  WHERE (o.exercise_id IS NULL) = (f.answered IS NOT NULL)
     OR o.answered IS DISTINCT FROM f.answered
     OR o.graded IS DISTINCT FROM f.graded
$$;
--> statement-breakpoint
-- refresh_current_answers recomputes the given pairs and writes only what changed: the pair's row, its
-- exercise's counters (slot = this connection's pid modulo 64) and the pupil's membership of the chapter.
-- The common save (an answer replaced by another answer) reads two index entries and writes nothing here.
CREATE FUNCTION refresh_current_answers(p_exercises uuid[], p_users uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  -- Per-pair locks this transaction holds (-1: it holds the lock that excludes every other writer).
  held integer := coalesce(nullif(current_setting('olympe.current_answer_locks', true), '')::integer, 0);
  plans text := current_setting('plan_cache_mode');
  seqscan text := current_setting('enable_seqscan');
  gone_chapters uuid[];
  gone_users uuid[];
BEGIN
  IF p_exercises IS NULL THEN
    RETURN;
  END IF;
  -- One writer at a time per (exercise, pupil): a second transaction waits here until the first commits,
  -- then reads its rows (each statement below takes a new snapshot). The keys are taken in one order,
  -- so two statements never wait on each other. Advisory locks live in a shared table of a few thousand
  -- entries, so a transaction that writes for more than 256 pairs (automatic correction of a chapter, a
  -- restore, a purge) takes instead one lock that waits for, and holds back, every other writer: saves
  -- wait for it to commit, none is lost.
  IF held >= 0 AND held + cardinality(p_exercises) > 256 THEN
    PERFORM pg_advisory_xact_lock(116, 0);
    PERFORM set_config('olympe.current_answer_locks', '-1', true);
  ELSIF held >= 0 THEN
    IF held = 0 THEN
      PERFORM pg_advisory_xact_lock_shared(116, 0);
    END IF;
    PERFORM pg_advisory_xact_lock(117, k.key)
    FROM (SELECT DISTINCT hashtext(t.e::text || t.u::text) AS key FROM unnest(p_exercises, p_users) AS t(e, u) ORDER BY 1) k;
    PERFORM set_config('olympe.current_answer_locks', (held + cardinality(p_exercises))::text, true);
  END IF;

  -- A few pairs (a save): the plans kept for this connection, made for any pairs and by index only. With the
  -- default, PostgreSQL planned the writing statement again on each call (0.96 ms a call in a pgbench of saves,
  -- against 0.13 ms); and a plan kept from the first saves of a cup, when these tables were still empty, read
  -- them whole on every save (bench/rush: 43,703 sequential scans of current_answers, 3.4 ms a call). Many
  -- pairs: plans made for the pairs at hand, or a nested loop made for ten rows meets 20,000.
  IF cardinality(p_exercises) <= 64 THEN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_seqscan', 'off', true);
  ELSE
    PERFORM set_config('plan_cache_mode', 'force_custom_plan', true);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM current_answers_changes(p_exercises, p_users)) THEN
    PERFORM set_config('plan_cache_mode', plans, true), set_config('enable_seqscan', seqscan, true);
    RETURN;
  END IF;

  WITH diff AS MATERIALIZED (
    SELECT * FROM current_answers_changes(p_exercises, p_users)
  ),
  upserted AS (
    INSERT INTO current_answers (exercise_id, user_id, chapter_id, answered, graded)
    SELECT d.e, d.u, d.chapter_id, d.answered, d.graded FROM diff d WHERE d.has
    ON CONFLICT (exercise_id, user_id) DO UPDATE SET answered = EXCLUDED.answered, graded = EXCLUDED.graded
  ),
  removed AS (
    DELETE FROM current_answers o USING diff d WHERE NOT d.has AND o.exercise_id = d.e AND o.user_id = d.u
  ),
  counted AS (
    INSERT INTO answer_counts (exercise_id, slot, pairs, answered, graded)
    SELECT d.e, (pg_backend_pid() % 64)::smallint, sum(d.has::int - d.had::int),
      sum(d.answered::int - d.was_answered::int), sum(d.graded::int - d.was_graded::int)
    FROM diff d GROUP BY d.e ORDER BY d.e
    ON CONFLICT (exercise_id, slot) DO UPDATE SET
      pairs = answer_counts.pairs + EXCLUDED.pairs,
      answered = answer_counts.answered + EXCLUDED.answered,
      graded = answer_counts.graded + EXCLUDED.graded
  ),
  joined AS (
    -- DO UPDATE, not DO NOTHING: the row stays locked until commit, so a transaction removing this pupil's
    -- last other answer of the chapter (below) waits, then sees this one.
    INSERT INTO chapter_pupils (chapter_id, user_id)
    SELECT DISTINCT d.chapter_id, d.u FROM diff d WHERE d.has AND NOT d.had
    ORDER BY 1, 2
    ON CONFLICT (chapter_id, user_id) DO UPDATE SET user_id = EXCLUDED.user_id
  )
  SELECT array_agg(d.chapter_id), array_agg(d.u) INTO gone_chapters, gone_users FROM diff d WHERE d.had AND NOT d.has;

  -- A pupil leaves the chapter's pupils with their last current answer in it (rare: a copy sent back to
  -- sorting, a deleted account or exercise). The membership row is locked first, then the pupil's other
  -- answers are looked for in a new snapshot, which sees whatever a transaction adding one has committed.
  IF gone_users IS NOT NULL THEN
    PERFORM 1 FROM chapter_pupils cp
    JOIN (SELECT DISTINCT g.c, g.u FROM unnest(gone_chapters, gone_users) AS g(c, u)) g ON cp.chapter_id = g.c AND cp.user_id = g.u
    ORDER BY cp.chapter_id, cp.user_id
    FOR UPDATE OF cp;
    DELETE FROM chapter_pupils cp
    USING (SELECT DISTINCT g.c, g.u FROM unnest(gone_chapters, gone_users) AS g(c, u)) g
    WHERE cp.chapter_id = g.c AND cp.user_id = g.u
      AND NOT EXISTS (
        SELECT 1 FROM exercises x JOIN current_answers ca ON ca.exercise_id = x.id AND ca.user_id = g.u
        WHERE x.chapter_id = g.c);
  END IF;
  PERFORM set_config('plan_cache_mode', plans, true), set_config('enable_seqscan', seqscan, true);
END $$;
--> statement-breakpoint
CREATE FUNCTION answers_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_current_answers(array_agg(n.exercise_id), array_agg(n.user_id)) FROM new_rows n;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Both sides of the update: a row given to another pupil or exercise leaves its former pair too. (No join of
-- the two transition tables: they have no index, and a plan kept from small updates would compare 20,000 rows
-- with 20,000.)
CREATE FUNCTION answers_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_current_answers(array_agg(c.exercise_id), array_agg(c.user_id))
  FROM (SELECT n.exercise_id, n.user_id FROM new_rows n UNION SELECT o.exercise_id, o.user_id FROM old_rows o) c;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION answers_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_current_answers(array_agg(o.exercise_id), array_agg(o.user_id)) FROM old_rows o;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER answers_current_insert AFTER INSERT ON answers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION answers_inserted();
--> statement-breakpoint
CREATE TRIGGER answers_current_update AFTER UPDATE ON answers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION answers_updated();
--> statement-breakpoint
CREATE TRIGGER answers_current_delete AFTER DELETE ON answers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION answers_deleted();
--> statement-breakpoint
-- The answers already there.
INSERT INTO current_answers (exercise_id, user_id, chapter_id, answered, graded)
SELECT DISTINCT ON (a.exercise_id, a.user_id) a.exercise_id, a.user_id, x.chapter_id,
  ((a.grade <> '') IS TRUE OR (a.answer <> '' AND (NOT starts_with(a.answer, ' ') OR btrim(a.answer) <> ''))),
  (a.grade <> '') IS TRUE
FROM answers a JOIN exercises x ON x.id = a.exercise_id
WHERE a.withdrawn_at IS NULL
ORDER BY a.exercise_id, a.user_id, a.seq DESC, a.created_at DESC, a.id DESC;
--> statement-breakpoint
INSERT INTO answer_counts (exercise_id, slot, pairs, answered, graded)
SELECT exercise_id, 0, count(*), count(*) FILTER (WHERE answered), count(*) FILTER (WHERE graded)
FROM current_answers GROUP BY exercise_id;
--> statement-breakpoint
INSERT INTO chapter_pupils (chapter_id, user_id) SELECT DISTINCT chapter_id, user_id FROM current_answers;
