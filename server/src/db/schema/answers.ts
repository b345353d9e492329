import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { exercises } from './chapters.js';
import { createdAt, id } from './columns.js';
import { files } from './files.js';
import { userRef, users } from './users.js';

/** Answers and the tables their triggers keep. */

export const answers = pgTable(
  'answers',
  {
    id: id(),
    userId: userRef(),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    /** Numeric text, or a PDF path for pdf exercises. */
    answer: text('answer').notNull(),
    fileId: uuid('file_id').references(() => files.id),
    /** Client sequence: an older save never replaces a newer one (docs/product.md#design-3 Answers). */
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    ip: text('ip'),
    grade: text('grade'),
    gradeComment: text('grade_comment'),
    hidden: boolean('hidden').notNull().default(false),
    graderId: uuid('grader_id').references(() => users.id, { onDelete: 'set null' }),
    gradeTimestamp: timestamp('grade_timestamp', { withTimezone: true }),
    /** Set when a PDF answer is sent back to sorting: it leaves the grading table. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /**
     * Sorting added pages to this copy after it was graded, or took them away (decision 139): the grade stays and
     * the copy is flagged « pages ajoutées après la note » until a corrector saves a grade again or dismisses it.
     */
    pagesAddedAt: timestamp('pages_added_at', { withTimezone: true }),
  },
  (t) => [
    index('answers_user_exercise_idx').on(t.userId, t.exerciseId, t.seq, t.createdAt),
    index('answers_exercise_idx').on(t.exerciseId),
    // Whether any answer row points at a file (the reaper, decision 133); numeric answers are not in it.
    index('answers_file_idx')
      .on(t.fileId)
      .where(sql`file_id IS NOT NULL`),
    // Two identical saves arriving together leave one row (client seq > 0; server-made rows use 0).
    uniqueIndex('answers_user_exercise_seq_uq')
      .on(t.userId, t.exerciseId, t.seq)
      .where(sql`seq > 0`),
    // The review page's first screen, latest grades first (decision 94): a page walks this index and stops.
    index('answers_graded_at_idx')
      .on(t.gradeTimestamp.desc().nullsLast(), t.id)
      .where(sql`grade_timestamp IS NOT NULL AND withdrawn_at IS NULL`),
    // The few copies flagged by sorting (decision 139), found per exercise for the grading table.
    index('answers_pages_added_idx')
      .on(t.exerciseId, t.userId)
      .where(sql`pages_added_at IS NOT NULL`),
    // answers_current_idx (exercise_id, user_id, seq DESC, created_at DESC) INCLUDE (answer, grade)
    // WHERE withdrawn_at IS NULL is created in raw SQL by migration 0006: drizzle cannot express
    // INCLUDE. The grading table reads the current answers from it alone once vacuumed (bench/grading).
  ],
);

/**
 * Written by triggers on `answers` alone (migration 0021, decision 116), never by the service: one row per
 * (exercise, pupil) that has a current answer (highest seq, then latest, not withdrawn), with whether that
 * answer is answered and graded. The grading table's header counts from the two tables below instead of
 * reading every answer of the chapter.
 */
export const currentAnswers = pgTable(
  'current_answers',
  {
    exerciseId: uuid('exercise_id').notNull(),
    userId: uuid('user_id').notNull(),
    /** The exercise's chapter, kept so a pair removed with its exercise still finds its chapter_pupils row. */
    chapterId: uuid('chapter_id').notNull(),
    answered: boolean('answered').notNull(),
    graded: boolean('graded').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exerciseId, t.userId] })],
);

/**
 * Per exercise, the current answers counted (pairs, answered, graded), kept by the same triggers. Each
 * database connection adds its changes to its own slot (its backend pid modulo 64), so two connections
 * saving first answers at once do not wait on one row; a count is the sum of an exercise's slots.
 */
export const answerCounts = pgTable(
  'answer_counts',
  {
    exerciseId: uuid('exercise_id').notNull(),
    slot: smallint('slot').notNull(),
    pairs: integer('pairs').notNull().default(0),
    answered: integer('answered').notNull().default(0),
    graded: integer('graded').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.exerciseId, t.slot] })],
);

/** The pupils with a current answer to an exercise of the chapter (any exercise, binned ones too), kept by the same triggers. */
export const chapterPupils = pgTable(
  'chapter_pupils',
  {
    chapterId: uuid('chapter_id').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chapterId, t.userId] })],
);
