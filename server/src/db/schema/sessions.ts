import { bigserial, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { chapterRef } from './chapters.js';
import { createdAt, id } from './columns.js';
import { userRef, users } from './users.js';

/** The pupils’ test sessions, incident extensions and focus events. */

export const chapterSessions = pgTable(
  'chapter_sessions',
  {
    chapterId: chapterRef(),
    userId: userRef(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** The deadline fixed at start (start + duration, capped by the window end); null = unlimited. */
    endTime: timestamp('end_time', { withTimezone: true }),
    /**
     * When the pupil chose « Terminer l'épreuve »: the session's end from then on (sessions/state.ts),
     * unless an incident extension added later cancels it (decision 43).
     */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The profile fields that chose the access group, as they were at start: a running or ended
     * session keeps its group whatever the pupil later writes in their profile.
     */
    accessGender: text('access_gender'),
    accessGrade: text('access_grade'),
    accessBirthDate: date('access_birth_date', { mode: 'string' }),
  },
  (t) => [primaryKey({ columns: [t.chapterId, t.userId] })],
);

/**
 * Minutes an admin added to one pupil's end in one chapter after an incident (a power cut, a crashed
 * computer), with who and why; the pupil's end is pushed back by their sum, even after it passed.
 */
export const sessionExtensions = pgTable(
  'session_extensions',
  {
    id: id(),
    chapterId: chapterRef(),
    userId: userRef(),
    minutes: integer('minutes').notNull(),
    reason: text('reason').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('session_extensions_chapter_user_idx').on(t.chapterId, t.userId)],
);

export const focusEvents = pgTable(
  'focus_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chapterId: chapterRef(),
    userId: userRef(),
    eventType: text('event_type').notNull(),
    at: createdAt(),
    ip: text('ip'),
  },
  (t) => [index('focus_events_chapter_user_idx').on(t.chapterId, t.userId, t.at)],
);
