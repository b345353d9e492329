import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, one } from '../db/query.js';
import { notFound } from '../errors.js';

/** What deleting a group takes with it: its memberships (pupils' accounts and answers stay). */
export async function groupDeletionImpact(db: Db, groupId: string): Promise<{ members: number }> {
  const row = await one(
    db,
    z.object({ found: column.number, members: column.number }),
    sql`SELECT (SELECT count(*)::int FROM groups WHERE id = ${groupId}::uuid) AS found,
          (SELECT count(*)::int FROM group_members WHERE group_id = ${groupId}::uuid) AS members`,
  );
  if (!row || Number(row.found) === 0) throw notFound('Groupe introuvable.');
  return { members: Number(row.members) };
}
