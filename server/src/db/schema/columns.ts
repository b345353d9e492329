import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** The columns every table writes alike. */

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
