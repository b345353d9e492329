import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chapterRef } from './chapters.js';
import { createdAt, id } from './columns.js';
import { files } from './files.js';
import { institutions } from './institutions.js';
import { users } from './users.js';

/** Scanned copies waiting to be sorted. */

export const unlabeledAnswers = pgTable(
  'unlabeled_answers',
  {
    id: id(),
    chapterId: chapterRef(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    institutionId: uuid('institution_id').references(() => institutions.id),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** A sorter holds a copy for 10 minutes (docs/product.md#design-3 Sorting). */
    reservedBy: uuid('reserved_by').references(() => users.id, { onDelete: 'set null' }),
    reservedAt: timestamp('reserved_at', { withTimezone: true }),
    labeledAt: timestamp('labeled_at', { withTimezone: true }),
    labeledBy: uuid('labeled_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Per-page labels read from the answer sheets' QR codes, offered to the sorter to confirm:
     * [{pageNum, user, exercises, rotation, sheetPage?}] — null until the file was decoded. `sheetPage`,
     * the page number printed in an answer page's code, orders each pupil's pages (decision 108).
     */
    suggestions:
      jsonb('suggestions').$type<
        Array<{ pageNum: number; user: string | null; exercises: string[]; rotation: number; sheetPage?: number }>
      >(),
    /** What the reader found on each page, in order: 'read' | 'unread' | 'blank'; null until read. */
    pageReadings: jsonb('page_readings').$type<Array<'read' | 'unread' | 'blank'>>(),
    /** Why the reader could not read the file (French), shown on the sorting page; null otherwise. */
    readError: text('read_error'),
    /** Blank pages (a duplex scan's backs) the labelling left out of every copy (decision 109); null before it. */
    droppedBlanks: integer('dropped_blanks'),
  },
  (t) => [
    index('unlabeled_chapter_idx').on(t.chapterId, t.labeledAt, t.createdAt),
    // A scanned file is filed once, even when two uploads of it race.
    uniqueIndex('unlabeled_file_uq').on(t.fileId),
  ],
);
