import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { users } from './users.js';

/** Mail, the audit log and the background jobs. */

export const sentMails = pgTable('sent_mails', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
});

/**
 * One notification mail to one address (decision 60). `key` makes enqueuing idempotent (the same
 * event never queues a second mail) and the sending job checks `status` before sending, so a
 * restarted queue never sends a mail twice nor skips one (decision 60).
 */
export const mailDeliveries = pgTable(
  'mail_deliveries',
  {
    id: id(),
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    to: text('to').notNull(),
    /** What the mail is about, e.g. {chapterId, institutionId}. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** pending, sent, failed, skipped (the pupil turned notifications off meanwhile). */
    status: text('status').notNull().default('pending'),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mail_deliveries_key_idx').on(t.key), index('mail_deliveries_status_idx').on(t.kind, t.status)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetId: uuid('target_id'),
    details: jsonb('details'),
    at: createdAt(),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/**
 * Background work that must survive a restart (QR decoding of uploaded scans): a worker claims the
 * oldest pending job with FOR UPDATE SKIP LOCKED, so several instances share the queue.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    /** What the job works on, e.g. {unlabeledId}. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    error: text('error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** A retried job waits until then (back-off); null: at once. */
    notBefore: timestamp('not_before', { withTimezone: true }),
  },
  (t) => [
    index('jobs_pending_idx').on(t.kind, t.status, t.createdAt),
    // The claim walks this in order and stops at the first free row: with 10,000 queued mails, sorting
    // them all on every claim made sending O(n²) (bench/mail).
    index('jobs_queue_order_idx')
      .on(t.createdAt, t.id)
      .where(sql`status IN ('pending', 'running')`),
  ],
);
