import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { selectionCategories, selections } from '../db/schema.js';
import { notFound } from '../errors.js';

/** The SQL several of the jury's use cases share (docs/product.md#selections). */

export type SelectionRow = typeof selections.$inferSelect;
export type CategoryRow = typeof selectionCategories.$inferSelect;

export const SELECTION_NOT_FOUND_MESSAGE = 'Sélection introuvable.';
export const CATEGORY_NOT_FOUND_MESSAGE = 'Catégorie introuvable.';

export const uuids = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

export async function findSelection(db: Tx, id: string): Promise<SelectionRow> {
  const [row] = await db.select().from(selections).where(eq(selections.id, id));
  if (!row) throw notFound(SELECTION_NOT_FOUND_MESSAGE);
  return row;
}

/** A selection's categories, in their order (bit c of the board's masks is the c-th). */
export const categoriesOf = (db: Tx, selectionId: string): Promise<CategoryRow[]> =>
  db
    .select()
    .from(selectionCategories)
    .where(eq(selectionCategories.selectionId, selectionId))
    .orderBy(asc(selectionCategories.position), asc(selectionCategories.id));

export async function findCategory(db: Tx, selectionId: string, categoryId: string): Promise<{ index: number; category: CategoryRow }> {
  const categories = await categoriesOf(db, selectionId);
  const index = categories.findIndex((c) => c.id === categoryId);
  if (index < 0) throw notFound(CATEGORY_NOT_FOUND_MESSAGE);
  return { index, category: categories[index]! };
}

/** A person's name as the app writes it elsewhere (« Prénom Nom »). */
export const personName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

const versionRow = z.object({
  number: z.number(),
  frozen_at: column.date,
  reason: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  participants: column.number,
  qualified: column.number,
});
export type VersionRow = z.output<typeof versionRow>;

/** The versions of a selection with their counts, oldest first. */
export const versionsOf = (db: Tx, selectionId: string): Promise<VersionRow[]> =>
  rows(
    db,
    versionRow,
    sql`SELECT v.number, v.frozen_at, v.reason, u.first_name, u.last_name,
          (SELECT count(*) FROM selection_outcomes o WHERE o.version_id = v.id) AS participants,
          (SELECT count(*) FROM selection_outcomes o WHERE o.version_id = v.id AND cardinality(o.qualified_in) > 0) AS qualified
        FROM selection_versions v LEFT JOIN users u ON u.id = v.frozen_by
        WHERE v.selection_id = ${selectionId}::uuid ORDER BY v.number`,
  );

const decisionRow = z.object({
  category_id: z.string(),
  user_id: z.string(),
  decision: z.enum(['include', 'exclude']),
  reason: z.string(),
  decided_at: column.date,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});
export type DecisionRow = z.output<typeof decisionRow>;

/** The jury's decisions on a selection's pupils, in its categories' order. */
export const decisionsOf = (db: Tx, selectionId: string): Promise<DecisionRow[]> =>
  rows(
    db,
    decisionRow,
    sql`SELECT d.category_id, d.user_id, d.decision, d.reason, d.decided_at, u.first_name, u.last_name
        FROM selection_decisions d JOIN selection_categories c ON c.id = d.category_id LEFT JOIN users u ON u.id = d.decided_by
        WHERE c.selection_id = ${selectionId}::uuid ORDER BY c.position, d.decided_at, d.user_id`,
  );
