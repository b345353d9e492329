import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { answers } from './answers.js';
import { chapterRef, exercises } from './chapters.js';
import { createdAt, id } from './columns.js';
import { userRef, users } from './users.js';

/** Grading: gradings, their history, claims, pseudonyms and assignments. */

export const gradeAudit = pgTable(
  'grade_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    graderId: uuid('grader_id').references(() => users.id, { onDelete: 'set null' }),
    oldGrade: text('old_grade'),
    newGrade: text('new_grade'),
    oldComment: text('old_comment'),
    newComment: text('new_comment'),
    hidden: boolean('hidden').notNull().default(false),
    /** Decision 63: 'grade' (the copy's grade), 'grading' (one of two in double correction) or 'arbitration'. */
    kind: text('kind').notNull().default('grade'),
    items: text('items').array(),
    at: createdAt(),
  },
  (t) => [index('grade_audit_answer_idx').on(t.answerId)],
);

/** A corrector holds an answer they opened for 10 minutes, so "next copy" hands others a different one. */
export const gradingClaims = pgTable(
  'grading_claims',
  {
    answerId: uuid('answer_id')
      .primaryKey()
      .references(() => answers.id, { onDelete: 'cascade' }),
    userId: userRef(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('grading_claims_user_idx').on(t.userId)],
);

/**
 * One corrector's grading of one answer (decision 63). Single correction: the row of whoever holds the
 * grade (its ticked items). Double correction: two independent rows, plus an admin's arbitration row;
 * the settled grade is written on the answer row (decision 63).
 */
export const gradings = pgTable(
  'gradings',
  {
    id: id(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    graderId: uuid('grader_id').references(() => users.id, { onDelete: 'set null' }),
    grade: text('grade'),
    gradeComment: text('grade_comment').notNull().default(''),
    items: text('items')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    arbitration: boolean('arbitration').notNull().default(false),
    /** Decision 159: this corrector's marks on the copy's pages (contract annotationSchema), private as the grade is. */
    annotations: jsonb('annotations')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Decision 160: the comment-bank remarks applied in this grading (the statistics count them). */
    bankComments: uuid('bank_comments')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gradings_answer_grader_uq').on(t.answerId, t.graderId, t.arbitration),
    index('gradings_exercise_idx').on(t.exerciseId, t.graderId),
  ],
);

/** « Copie 0042 »: a pupil's number in one chapter under anonymous correction, given once, in a random order. */
export const gradingPseudonyms = pgTable(
  'grading_pseudonyms',
  {
    chapterId: chapterRef(),
    userId: userRef(),
    number: integer('number').notNull(),
    /** The copy's opaque id (decision 128): what a corrector of an anonymous chapter is given in place of the pupil's id. */
    copyId: uuid('copy_id').notNull().defaultRandom(),
  },
  (t) => [
    primaryKey({ columns: [t.chapterId, t.userId] }),
    uniqueIndex('grading_pseudonyms_number_uq').on(t.chapterId, t.number),
    uniqueIndex('grading_pseudonyms_copy_id_uq').on(t.copyId),
  ],
);

/** Which correctors grade which exercise (decision 64); an exercise without rows is open to every corrector. */
export const gradingAssignments = pgTable(
  'grading_assignments',
  {
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.exerciseId, t.userId] }), index('grading_assignments_user_idx').on(t.userId)],
);

/** Decision 160: an exercise's saved remarks, applied in one click by its correctors, curated by admins. */
export const commentBank = pgTable(
  'comment_bank',
  {
    id: id(),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Retired from the bank (kept: annotations copied its text, the statistics still count it). */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('comment_bank_exercise_idx').on(t.exerciseId, t.position)],
);
