import type { selectionPublicationSchema } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db } from '../db/client.js';
import { column, one } from '../db/query.js';
import { conflict, notFound } from '../errors.js';
import { queueSelectionPublished } from '../mail/notifications.js';
import { assertMayManage, selectionRightOf } from './policies.js';

export type SelectionPublicationInput = z.output<typeof selectionPublicationSchema>;

export const PUBLISH_WITHOUT_VERSION_MESSAGE = 'Gelez une version de la liste avant de la publier.';

/** What PUT /selection/{id}/publication did. */
export interface SelectionPublicationOutcome {
  mode: SelectionPublicationInput['mode'];
  pastInstant: boolean;
}

/**
 * PUT /selection/{id}/publication (admins, decision 157): publish now, at an instant, or withdraw, as the results
 * (decision 69: an instant already past means now). A selection is published once it has a version and its instant
 * has passed; publishing with no version is refused. Audited; becoming published now queues its mails (a scheduled
 * instant is mailed by the clock, mail/scheduler.ts), once per publication.
 */
export async function updateSelectionPublication(
  db: Db,
  auth: AuthContext,
  selectionId: string,
  input: SelectionPublicationInput,
  now = new Date(),
): Promise<SelectionPublicationOutcome> {
  return db.transaction(async (tx) => {
    assertMayManage(await selectionRightOf(tx, auth, selectionId));
    const before = await one(
      tx,
      z.object({ publish_at: column.dateOrNull, versions: column.number }),
      sql`SELECT s.publish_at, (SELECT count(*)::int FROM selection_versions v WHERE v.selection_id = s.id) AS versions
          FROM selections s WHERE s.id = ${selectionId}::uuid FOR UPDATE`,
    );
    if (!before) throw notFound('Sélection introuvable.');
    const pastInstant = input.mode === 'scheduled' && new Date(input.publishAt!).getTime() <= now.getTime();
    const mode = pastInstant ? 'now' : input.mode;
    if (mode !== 'unpublished' && Number(before.versions) === 0) throw conflict(PUBLISH_WITHOUT_VERSION_MESSAGE);
    const wasPublished = before.publish_at !== null && before.publish_at.getTime() <= now.getTime();
    // Published already and published « now » again: the instant stays, so nothing is mailed twice.
    const publishAt = mode === 'now' ? (wasPublished ? before.publish_at : now) : mode === 'scheduled' ? new Date(input.publishAt!) : null;
    await tx.execute(
      sql`UPDATE selections SET publish_at = ${publishAt?.toISOString() ?? null}::timestamptz WHERE id = ${selectionId}::uuid`,
    );
    await audit(tx, auth, 'selection.publication', selectionId, {
      before: { publishAt: before.publish_at?.toISOString() ?? null },
      after: { mode, publishAt: publishAt?.toISOString() ?? null },
    });
    if (mode === 'now' && !wasPublished) await queueSelectionPublished(tx, selectionId, publishAt!);
    return { mode, pastInstant };
  });
}
