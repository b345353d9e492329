import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db } from '../db/client.js';
import { one } from '../db/query.js';
import { centerRefusals, centerRegistrations } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { queueDeparture } from '../mail/notifications.js';
import { centerInstitutionOf } from './policies.js';
import { findPaperChapter } from './queries.js';

/**
 * POST /center/refuse/{chapterId}: the centre's staff turn away a registered pupil who claims their
 * school (own pupils always fit, so such a claim passes a full centre). Pupils of other schools hold
 * the places the centre opened and cannot be turned away. The pupil is told on their centre panel and by mail
 * and cannot register at this centre again for this chapter; the refusal is in the audit log.
 */
export async function refuseRegistration(db: Db, auth: AuthContext, chapterId: string, userId: string, requested?: string): Promise<void> {
  const institutionId = centerInstitutionOf(auth, requested);
  await findPaperChapter(db, chapterId);
  await db.transaction(async (tx) => {
    const row = await one(
      tx,
      z.object({ institution_id: z.string().nullable(), created_ms: z.number() }),
      sql`
      SELECT u.institution_id, (extract(epoch FROM r.created_at) * 1000)::float8 AS created_ms
      FROM center_registrations r JOIN users u ON u.id = r.user_id
      WHERE r.chapter_id = ${chapterId} AND r.institution_id = ${institutionId} AND r.user_id = ${userId} FOR UPDATE OF r`,
    );
    if (!row) throw notFound('Cet élève n’est pas inscrit dans ce centre.');
    if (row.institution_id !== institutionId) {
      throw badRequest(
        'Seuls les élèves qui se déclarent de votre établissement peuvent être refusés : les autres occupent les places que vous avez ouvertes.',
      );
    }
    await tx.delete(centerRegistrations).where(and(eq(centerRegistrations.chapterId, chapterId), eq(centerRegistrations.userId, userId)));
    await tx.insert(centerRefusals).values({ chapterId, institutionId, userId, refusedBy: auth.userId }).onConflictDoNothing();
    await audit(tx, auth, 'center.refuse', userId, { chapterId, institutionId });
    // The pupil hears of it by mail too (same transaction: never lost, never twice).
    await queueDeparture(tx, { chapterId, userId, institutionId, registeredMs: Number(row.created_ms), reason: 'refused' });
  });
}
