import { bigint, customType, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { institutions } from './institutions.js';
import { users } from './users.js';

/** Uploaded PDFs, their bytes in the database store and the upload reservations. */

export const files = pgTable(
  'files',
  {
    /** Stored as pdfs/<id>.pdf: never a user-given name. */
    id: id(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    institutionId: uuid('institution_id').references(() => institutions.id),
    originalName: text('original_name').notNull().default(''),
    size: integer('size').notNull(),
    pages: integer('pages'),
    /** SHA-256 of the bytes (hex): the same scan filed twice is caught (decision 58); null before it was kept. */
    sha256: text('sha256'),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_owner_idx').on(t.ownerId),
    index('files_sha256_idx').on(t.sha256),
    // The reaper of unreferenced files walks the files older than a day (decision 133).
    index('files_created_at_idx').on(t.createdAt),
  ],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** PDF bytes when FILE_STORE=postgres (no shared disk needed). No foreign key: bytes come before the files row. */
export const fileBlobs = pgTable('file_blobs', {
  id: uuid('id').primaryKey(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});

/**
 * What each user has reserved of the upload limits (decision 133): a resumable upload from its creation until it
 * is finished, cancelled or expired (24 hours), a POST /pdfs while its bytes are checked (1 hour at most). Inserted
 * under a per-user advisory lock after counting what the user holds, so two creations at once cannot both pass the
 * caps. The id is the file's id once it is recorded (a row whose file exists counts as the file).
 */
export const uploadSlots = pgTable(
  'upload_slots',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** A tus upload (decision 111's caps on unfinished uploads); false: a POST /pdfs being checked. */
    resumable: boolean('resumable').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('upload_slots_owner_idx').on(t.ownerId)],
);
