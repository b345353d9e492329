import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';

/** Chapters, their access groups, exercises and statements. */

/** The chapter a row belongs to: it goes with it. */
export const chapterRef = () =>
  uuid('chapter_id')
    .notNull()
    .references(() => chapters.id, { onDelete: 'cascade' });

export const chapters = pgTable('chapters', {
  id: id(),
  title: text('title').notNull(),
  headerStudents: text('header_students').notNull().default(''),
  headerCenters: text('header_centers').notNull().default(''),
  offline: boolean('offline').notNull().default(false),
  analysis: boolean('analysis').notNull().default(false),
  /** Correctors who are not admins see pseudonyms instead of pupils' names (decision 62). */
  anonymousGrading: boolean('anonymous_grading').notNull().default(false),
  /** Decision 63: each copy graded by two correctors; further apart than the tolerance (points) → arbitration. */
  doubleGrading: boolean('double_grading').notNull().default(false),
  gradingTolerance: doublePrecision('grading_tolerance').notNull().default(0),
  /** Results published by the server itself once this instant has passed (decision 69). */
  publishAt: timestamp('publish_at', { withTimezone: true }),
  /** Decision 70: pupils see their rank, the number of participants and their percentile. */
  showRank: boolean('show_rank').notNull().default(false),
  /** Decision 70: points from which a pupil is qualified (null: no qualification), and the words they read. */
  qualificationThreshold: doublePrecision('qualification_threshold'),
  qualificationText: text('qualification_text').notNull().default('Qualifié(e) pour le tour suivant'),
  /** Decision 74: pupils may ask for a regrade after publication until then (Paris time entered); null: not open. */
  regradeUntil: timestamp('regrade_until', { withTimezone: true }),
  /** Decision 162: after publication, pupils see their annotated copies and download the corrected PDF. */
  copiesReturned: boolean('copies_returned').notNull().default(false),
  /** Decision 162: the returned copy names its corrector (never by default under anonymous correction). */
  correctorNamed: boolean('corrector_named').notNull().default(false),
  /** Decision 73: in the bin since then (hidden everywhere, restorable for 30 days, then purged); null: live. */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const accessGroups = pgTable(
  'access_groups',
  {
    id: id(),
    chapterId: chapterRef(),
    /** Table order: the first matching group decides the window (docs/product.md#design-3). */
    position: integer('position').notNull(),
    name: text('name').notNull().default('all'),
    authorizedGenders: text('authorized_genders')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    authorizedGrades: text('authorized_grades')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    birthDateMin: date('birth_date_min', { mode: 'string' }),
    birthDateMax: date('birth_date_max', { mode: 'string' }),
    timeDuration: integer('time_duration'),
    accessStart: timestamp('access_start', { withTimezone: true }),
    accessEnd: timestamp('access_end', { withTimezone: true }),
    /** Decision 157: only pupils qualified in the latest published version of this selection are admitted. */
    requiredSelectionId: uuid('required_selection_id'),
  },
  (t) => [index('access_groups_chapter_idx').on(t.chapterId, t.position)],
);

export const exercises = pgTable(
  'exercises',
  {
    id: id(),
    chapterId: chapterRef(),
    position: integer('position').notNull().default(0),
    title: text('title').notNull(),
    answerFormat: text('answer_format').notNull().default('numeric'),
    /** Decision 61: what the exercise is worth; a grade above it is refused; automatic correction gives it. */
    maxPoints: doublePrecision('max_points').notNull().default(1),
    /** Decision 61: marking-scheme items [{id, text, points}]; a grade keeps the ids of the items ticked. */
    schemeItems: jsonb('scheme_items')
      .$type<Array<{ id: string; text: string; points: number }>>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Decision 73: in the bin since then, like a chapter; an exercise of a binned chapter is hidden with it. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('exercises_chapter_idx').on(t.chapterId, t.position)],
);

export const statementVersions = pgTable(
  'statement_versions',
  {
    id: id(),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    content: text('content').notNull().default(''),
    /** Expected answer of a numeric exercise: never sent to pupils. */
    answer: text('answer'),
  },
  (t) => [index('statement_versions_exercise_idx').on(t.exerciseId, t.position)],
);
