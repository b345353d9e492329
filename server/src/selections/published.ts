import type { PublishedSelection } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';

/**
 * GET /selection/published (school staff and admins): the selections a school page lists, those with a version whose
 * publication instant has passed (decision 157). Titles and the next round only: who qualified is read per school.
 */
export async function listPublishedSelections(db: Db, now = new Date()): Promise<PublishedSelection[]> {
  const found = await rows(
    db,
    z.object({
      id: z.string(),
      title: z.string(),
      next_round_title: z.string(),
      next_round_date: z.string().nullable(),
      next_round_place: z.string(),
    }),
    sql`SELECT s.id, s.title, s.next_round_title, s.next_round_date::text AS next_round_date, s.next_round_place
        FROM selections s
        WHERE s.publish_at IS NOT NULL AND s.publish_at <= ${now.toISOString()}::timestamptz
          AND EXISTS (SELECT 1 FROM selection_versions v WHERE v.selection_id = s.id)
        ORDER BY s.publish_at DESC, s.title`,
  );
  return found.map((s) => ({
    _id: s.id,
    title: s.title,
    nextRoundTitle: s.next_round_title,
    nextRoundDate: s.next_round_date,
    nextRoundPlace: s.next_round_place,
  }));
}
