import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { answers } from './answers.js';
import { chapterRef, exercises } from './chapters.js';
import { createdAt, id } from './columns.js';
import { userRef, users } from './users.js';

/** Regrade requests. */

/**
 * A pupil's request for a second look at one of their graded answers (decision 74), after publication and
 * until the chapter's `regradeUntil`; one open request per pupil and exercise. A corrector accepts it
 * with a new grade (recorded as a grading) or declines it, with a reply the pupil reads.
 */
export const regradeRequests = pgTable(
  'regrade_requests',
  {
    id: id(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    chapterId: chapterRef(),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    userId: userRef(),
    message: text('message').notNull(),
    /** open, accepted, declined. */
    status: text('status').notNull().default('open'),
    reply: text('reply'),
    /** Decision 162: where on the copy the pupil points (0-based page, a region in page fractions, or an annotation's id). */
    page: integer('page'),
    region: jsonb('region').$type<{ x: number; y: number; w: number; h: number }>(),
    annotationId: text('annotation_id'),
    oldGrade: text('old_grade'),
    newGrade: text('new_grade'),
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('regrade_requests_open_uq')
      .on(t.userId, t.exerciseId)
      .where(sql`status = 'open'`),
    index('regrade_requests_chapter_idx').on(t.chapterId, t.status, t.createdAt),
    index('regrade_requests_user_idx').on(t.userId, t.chapterId),
  ],
);
