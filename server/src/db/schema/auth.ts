import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { userRef, users } from './users.js';

/** Logins: mailed links, sessions of the refresh tokens, rate limits. */

export const emailTokens = pgTable(
  'email_tokens',
  {
    id: id(),
    userId: userRef(),
    /** sha256 of the 32 random bytes sent by mail; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_tokens_hash_idx').on(t.tokenHash), index('email_tokens_user_idx').on(t.userId)],
);

/**
 * Decision 136: one row per login (or impersonation). The 15-minute access tokens name it (`sid`) and die
 * with it; its refresh token, of which only the sha256 is kept, gets new access tokens while the row is not
 * revoked, not expired, and the user's (and the impersonating admin's) token version is the one it was opened with.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: userRef(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenVersion: integer('token_version').notNull(),
    actorTokenVersion: integer('actor_token_version'),
    refreshHash: text('refresh_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('auth_sessions_refresh_hash_idx').on(t.refreshHash),
    index('auth_sessions_user_idx').on(t.userId),
    index('auth_sessions_actor_idx').on(t.actorId),
    index('auth_sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Fixed-window counters shared by every instance (docs/product.md#design-4: no state in process memory). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});
