import type { MailStats } from '@olympe/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { users } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { badRequest } from '../errors.js';
import { verifyUnsubscribe } from './unsubscribe.js';

/** RFC 8058 one-click unsubscribe: turns emailNotifications (the reminders' box) off; pending reminders are then skipped, service mails still go (decision 143). */
export async function unsubscribe(deps: Deps, userId: string, token: string): Promise<void> {
  if (!verifyUnsubscribe(deps.config.jwtSecret, userId, token)) throw badRequest('Lien de désinscription invalide.');
  // An unknown (deleted) user: nothing to turn off, and the same answer.
  await deps.db.update(users).set({ emailNotifications: false }).where(eq(users.id, userId));
}

const STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;

/** Counts of notification mails by kind and status (admin pages, /api/metrics). */
export async function mailStats(db: Db): Promise<MailStats> {
  const list = await rows(
    db,
    z.object({ kind: z.string(), status: z.string(), n: column.number }),
    sql`
    SELECT kind, status, count(*)::int AS n FROM mail_deliveries GROUP BY kind, status ORDER BY kind`,
  );
  const zero = () => ({ pending: 0, sent: 0, failed: 0, skipped: 0 });
  const byKind = new Map<string, ReturnType<typeof zero>>();
  const total = zero();
  for (const r of list) {
    if (!(STATUSES as readonly string[]).includes(r.status)) continue;
    const status = r.status as (typeof STATUSES)[number];
    const entry = byKind.get(r.kind) ?? zero();
    entry[status] += Number(r.n);
    total[status] += Number(r.n);
    byKind.set(r.kind, entry);
  }
  return { kinds: [...byKind].map(([kind, c]) => ({ kind, ...c })), total };
}
