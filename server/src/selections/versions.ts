import { AT_CUTOFF, DECISIONS, type DecisionKind } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { one, rows } from '../db/query.js';
import type { BoardData } from './board-data.js';
import type { CategoryRow } from './queries.js';

/**
 * What a frozen version keeps of the settings it was made with (decision 157): chapters and weights, each category
 * with its filter, cut-off and quotas, and the decisions with user ids. A version is never edited.
 */
export const versionSettingsSchema = z.object({
  chapters: z.array(z.object({ chapterId: z.string(), weight: z.number() })),
  categories: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      genders: z.array(z.string()),
      grades: z.array(z.string()),
      birthDateMin: z.string().nullable(),
      birthDateMax: z.string().nullable(),
      cutoff: z.number().nullable(),
      atCutoff: z.enum(AT_CUTOFF).nullable(),
      minGirls: z.number().nullable(),
      maxPerSchool: z.number().nullable(),
    }),
  ),
  decisions: z.array(
    z.object({
      categoryId: z.string(),
      userId: z.string(),
      decision: z.enum(DECISIONS),
      reason: z.string(),
      decidedBy: z.string().nullable(),
    }),
  ),
});
export type VersionSettings = z.output<typeof versionSettingsSchema>;

/** A category as a version keeps it: its filter, cut-off and quotas (the `Category` shape). */
export function categorySettings(c: CategoryRow): VersionSettings['categories'][number] {
  return {
    _id: c.id,
    name: c.name,
    genders: c.genders,
    grades: c.grades,
    birthDateMin: c.birthDateMin,
    birthDateMax: c.birthDateMax,
    cutoff: c.cutoff,
    atCutoff: c.atCutoff === 'include' || c.atCutoff === 'exclude' ? c.atCutoff : null,
    minGirls: c.minGirls,
    maxPerSchool: c.maxPerSchool,
  };
}

/** The jury's decisions of one category, by board index (pupils no longer on the board are left out). */
export function decisionsByIndex(
  decisions: readonly { categoryId: string; userId: string; decision: DecisionKind }[],
  categoryId: string,
  board: Pick<BoardData, 'indexOfUser'>,
): Map<number, DecisionKind> {
  const out = new Map<number, DecisionKind>();
  for (const d of decisions) {
    const i = d.categoryId === categoryId ? board.indexOfUser.get(d.userId) : undefined;
    if (i !== undefined) out.set(i, d.decision);
  }
  return out;
}

export interface LatestVersion {
  id: string;
  number: number;
  settings: VersionSettings;
}

/** The latest version of a selection, or undefined before the first freeze. */
export async function latestVersion(db: Tx, selectionId: string): Promise<LatestVersion | undefined> {
  const found = await one(
    db,
    z.object({ id: z.string(), number: z.number(), settings: z.unknown() }),
    sql`SELECT id, number, settings FROM selection_versions WHERE selection_id = ${selectionId}::uuid ORDER BY number DESC LIMIT 1`,
  );
  return found && { id: found.id, number: found.number, settings: versionSettingsSchema.parse(found.settings) };
}

/** The (pupil, category) pairs a version selected. */
export const qualifiedPairs = (db: Tx, versionId: string) =>
  rows(
    db,
    z.object({ user_id: z.string(), category_id: z.string() }),
    sql`SELECT o.user_id, q.category_id::text AS category_id
        FROM selection_outcomes o CROSS JOIN LATERAL unnest(o.qualified_in) AS q(category_id)
        WHERE o.version_id = ${versionId}::uuid`,
  );
