import { roundScore, sumPoints } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { accessProfileOf, type Candidate } from '../chapters/access.js';
import type { Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { HOME_SCHOOLING_ID } from '../db/schema.js';
import { roundTotal } from '../results/ranking.js';
import { boardKeys } from './keys.js';
import { type CategoryRow, personName, type SelectionRow, uuids } from './queries.js';

/**
 * The board's columns (docs/product.md#selections, decision 155): every participant of the selection's chapters, sorted
 * by score then key. Three set-based queries whatever the number of pupils: the exercises, one row per participant
 * (grades aggregated by the database, profile of their first session), their schools.
 */

export interface BoardExercise {
  chapterId: string;
  chapterTitle: string;
  title: string;
  maxPoints: number;
}

export interface School {
  sector: string | null;
  academyName: string | null;
  uai: string | null;
  name: string;
}

/** Index i of every array is the same pupil. */
export interface BoardData {
  exercises: BoardExercise[];
  maxScore: number;
  userIds: string[];
  keys: string[];
  names: string[];
  scores: number[];
  masks: number[];
  girls: number[];
  schools: number[];
  schoolTable: School[];
  exerciseScores: (number | null)[];
  indexOfUser: Map<string, number>;
  keyOf: Map<string, string>;
}

const exerciseRow = z.object({
  id: z.string(),
  chapter_id: z.string(),
  chapter_title: z.string(),
  title: z.string(),
  max_points: column.number,
});

/** The answerable exercises of the selection's chapters: chapter order, then position. */
export async function exercisesOf(db: Tx, chapterIds: string[]) {
  return rows(
    db,
    exerciseRow,
    sql`SELECT e.id, e.chapter_id, c.title AS chapter_title, e.title, e.max_points
        FROM exercises e JOIN chapters c ON c.id = e.chapter_id
        WHERE e.chapter_id = ANY(${uuids(chapterIds)}) AND e.answer_format <> 'none' AND e.deleted_at IS NULL
        ORDER BY array_position(${uuids(chapterIds)}, e.chapter_id), e.position, e.id`,
  );
}

const participantRow = z.object({
  user_id: z.string(),
  ords: z.array(z.number()),
  grades: z.array(z.number().nullable()),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  gender: z.string().nullable(),
  grade: z.string().nullable(),
  birth_date: z.string().nullable(),
  access_gender: z.string().nullable(),
  access_grade: z.string().nullable(),
  access_birth_date: z.string().nullable(),
  institution_id: z.string().nullable(),
});

/**
 * One row per participant: who has a current answer (the latest save, not withdrawn) to an answerable exercise of
 * the chapters, with each answer's exercise index and numeric grade, and the profile their earliest session among
 * these chapters recorded (decision 155). The current answers come in the order of answers_current_idx (exercise,
 * pupil, latest first), so no sort; they are grouped by pupil in a hash table (see `loadBoardData`'s work_mem).
 */
function participantsOf(db: Tx, chapterIds: string[], exerciseIds: string[]) {
  return rows(
    db,
    participantRow,
    sql`WITH cur AS (
          SELECT DISTINCT ON (a.exercise_id, a.user_id) a.user_id, a.exercise_id, a.grade
          FROM answers a
          WHERE a.exercise_id = ANY(${uuids(exerciseIds)}) AND a.withdrawn_at IS NULL
          ORDER BY a.exercise_id, a.user_id, a.seq DESC, a.created_at DESC
        ), per_user AS (
          SELECT cur.user_id, array_agg(array_position(${uuids(exerciseIds)}, cur.exercise_id)) AS ords,
            array_agg(CASE WHEN cur.grade ~ '^-?[0-9]+([.][0-9]+)?$' THEN cur.grade::float8 END) AS grades
          FROM cur GROUP BY cur.user_id
        ), first_session AS (
          SELECT DISTINCT ON (s.user_id) s.user_id, s.access_gender, s.access_grade, s.access_birth_date::text AS access_birth_date
          FROM chapter_sessions s WHERE s.chapter_id = ANY(${uuids(chapterIds)})
          ORDER BY s.user_id, s.started_at, s.chapter_id
        )
        SELECT p.user_id, p.ords, p.grades, u.first_name, u.last_name, u.gender, u.grade, u.birth_date::text AS birth_date,
          f.access_gender, f.access_grade, f.access_birth_date, u.institution_id
        FROM per_user p JOIN users u ON u.id = p.user_id LEFT JOIN first_session f ON f.user_id = p.user_id`,
  );
}

/**
 * The keys of a selection's participants, by user id, without the board (PUT …/decision): the same participants and
 * the same keys as the board's.
 */
export async function participantKeys(db: Tx, secret: string, selection: SelectionRow): Promise<Map<string, string>> {
  const exercises = await exercisesOf(
    db,
    selection.chapters.map((c) => c.chapterId),
  );
  if (exercises.length === 0) return new Map();
  const found = await rows(
    db,
    z.object({ user_id: z.string() }),
    sql`SELECT DISTINCT a.user_id FROM answers a WHERE a.exercise_id = ANY(${uuids(exercises.map((e) => e.id))}) AND a.withdrawn_at IS NULL`,
  );
  return boardKeys(
    secret,
    selection.id,
    found.map((r) => r.user_id),
  );
}

const schoolRow = z.object({
  id: z.string(),
  sector: z.string().nullable(),
  academy: z.string().nullable(),
  uai: z.string().nullable(),
  name: z.string(),
});

/** Whether a pupil's recorded profile falls in a category (empty list or missing bound: any; bounds inclusive). */
export function inCategory(c: Pick<CategoryRow, 'genders' | 'grades' | 'birthDateMin' | 'birthDateMax'>, p: Candidate): boolean {
  if (c.genders.length > 0 && !(p.gender && c.genders.includes(p.gender))) return false;
  if (c.grades.length > 0 && !(p.grade && c.grades.includes(p.grade))) return false;
  if (c.birthDateMin && !(p.birthDate && p.birthDate >= c.birthDateMin)) return false;
  if (c.birthDateMax && !(p.birthDate && p.birthDate <= c.birthDateMax)) return false;
  return true;
}

/** The highest score a pupil can reach: Σ weight × the chapter's maximum total (docs/product.md#selections). */
export function maxScoreOf(selection: SelectionRow, exercises: readonly { chapter_id: string; max_points: number }[]): number {
  return roundScore(
    selection.chapters.reduce(
      (sum, c) => sum + c.weight * sumPoints(exercises.filter((e) => e.chapter_id === c.chapterId).map((e) => e.max_points)),
      0,
    ),
  );
}

/** Loads and sorts the board of a selection (names included: the presenter drops them while they are hidden). */
export async function loadBoardData(db: Tx, secret: string, selection: SelectionRow, categories: CategoryRow[]): Promise<BoardData> {
  const chapterIds = selection.chapters.map((c) => c.chapterId);
  const exercises = await exercisesOf(db, chapterIds);
  const participants =
    exercises.length === 0
      ? []
      : await db.transaction(async (tx) => {
          // 10,000 pupils × 12 answers grouped in memory rather than in batches on disk (the default 4 MB spills).
          await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
          return participantsOf(
            tx,
            chapterIds,
            exercises.map((e) => e.id),
          );
        });
  const institutionIds = [
    ...new Set(
      participants.flatMap((p) => (p.institution_id === null || p.institution_id === HOME_SCHOOLING_ID ? [] : [p.institution_id])),
    ),
  ];
  const schoolRows =
    institutionIds.length === 0
      ? []
      : await rows(db, schoolRow, sql`SELECT id, sector, academy, uai, name FROM institutions WHERE id = ANY(${uuids(institutionIds)})`);
  const schoolIndex = new Map(schoolRows.map((s, i) => [s.id, i]));
  const weightOf = new Map(selection.chapters.map((c) => [c.chapterId, c.weight]));
  const chapterOfExercise = exercises.map((e) => chapterIds.indexOf(e.chapter_id));
  const maxScore = maxScoreOf(selection, exercises);
  const keyOf = boardKeys(
    secret,
    selection.id,
    participants.map((p) => p.user_id),
  );
  const n = exercises.length;
  const pupils = participants.map((p) => {
    const cells = new Array<number | null>(n).fill(null);
    const totals = new Array<number>(chapterIds.length).fill(0);
    p.ords.forEach((ord, j) => {
      const g = p.grades[j] ?? null;
      cells[ord - 1] = g;
      if (g !== null) totals[chapterOfExercise[ord - 1]!]! += g;
    });
    const score = roundScore(totals.reduce((sum, total, c) => sum + weightOf.get(chapterIds[c]!)! * roundTotal(total), 0));
    const profile = accessProfileOf(p, true);
    const mask = categories.reduce((m, c, bit) => (inCategory(c, profile) ? m | (1 << bit) : m), 0);
    return {
      userId: p.user_id,
      key: keyOf.get(p.user_id)!,
      name: personName(p.first_name, p.last_name),
      score,
      mask,
      girl: profile.gender === 'female' ? 1 : 0,
      school: p.institution_id === null ? -1 : (schoolIndex.get(p.institution_id) ?? -1),
      cells,
    };
  });
  pupils.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    exercises: exercises.map((e) => ({ chapterId: e.chapter_id, chapterTitle: e.chapter_title, title: e.title, maxPoints: e.max_points })),
    maxScore,
    userIds: pupils.map((p) => p.userId),
    keys: pupils.map((p) => p.key),
    names: pupils.map((p) => p.name),
    scores: pupils.map((p) => p.score),
    masks: pupils.map((p) => p.mask),
    girls: pupils.map((p) => p.girl),
    schools: pupils.map((p) => p.school),
    schoolTable: schoolRows.map((s) => ({ sector: s.sector, academyName: s.academy, uai: s.uai, name: s.name })),
    exerciseScores: pupils.flatMap((p) => p.cells),
    indexOfUser: new Map(pupils.map((p, i) => [p.userId, i])),
    keyOf,
  };
}
