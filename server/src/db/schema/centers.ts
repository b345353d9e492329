import { bigserial, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chapterRef } from './chapters.js';
import { createdAt, id } from './columns.js';
import { institutions } from './institutions.js';
import { userRef, users } from './users.js';

/** Exam centres of paper chapters and the pupils’ registrations. */

export const centers = pgTable(
  'centers',
  {
    id: id(),
    chapterId: chapterRef(),
    institutionId: uuid('institution_id')
      .notNull()
      .references(() => institutions.id),
    opened: boolean('opened'),
    instructions: text('instructions').notNull().default(''),
    nbPlaces: integer('nb_places').notNull().default(0),
    /** A pole centre (status 'center') is open to all pupils. */
    isPole: boolean('is_pole').notNull().default(false),
    /** The sitting (Paris time shown); null: the chapter's earliest access start (decision 59). */
    sittingAt: timestamp('sitting_at', { withTimezone: true }),
    /** Where to come; null: the institution's postal address. */
    address: text('address'),
    room: text('room').notNull().default(''),
    /** What to bring; empty: the default list. */
    bring: text('bring').notNull().default(''),
    /** Last change of the details pupils were told about (date, address, room, bring, opened). */
    detailsChangedAt: timestamp('details_changed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('centers_chapter_institution_idx').on(t.chapterId, t.institutionId)],
);

export const centerRegistrations = pgTable(
  'center_registrations',
  {
    chapterId: chapterRef(),
    userId: userRef(),
    institutionId: uuid('institution_id')
      .notNull()
      .references(() => institutions.id),
    createdAt: createdAt(),
    /** Attendance recorded by the centre's staff after the sitting; null: not recorded yet. */
    present: boolean('present'),
    attendanceAt: timestamp('attendance_at', { withTimezone: true }),
    attendanceBy: uuid('attendance_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.chapterId, t.userId] }), index('center_registrations_center_idx').on(t.chapterId, t.institutionId)],
);

/** A centre's staff turned a pupil away (a pupil who is not theirs): that pupil cannot register there again. */
export const centerRefusals = pgTable(
  'center_refusals',
  {
    chapterId: chapterRef(),
    institutionId: uuid('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    userId: userRef(),
    refusedBy: uuid('refused_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.chapterId, t.institutionId, t.userId] }), index('center_refusals_user_idx').on(t.userId, t.chapterId)],
);

/** One registration written or moved by a pupil (decision 134): the daily limits count these rows. */
export const centerMoves = pgTable(
  'center_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef(),
    chapterId: chapterRef(),
    createdAt: createdAt(),
  },
  (t) => [index('center_moves_user_idx').on(t.userId, t.createdAt)],
);
