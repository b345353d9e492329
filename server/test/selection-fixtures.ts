import { selectionCategories, selectionOutcomes, selections, selectionVersions } from '../src/db/schema.js';
import type { TestApp } from './helpers.js';

/**
 * Selections made by direct inserts (the jury's routes are tested in selections.test.ts): a selection with its
 * categories, and frozen versions with one outcome per participant (decision 157).
 */

export interface SelectionFixture {
  id: string;
  /** Category ids, in the selection's order. */
  categories: string[];
}

export async function insertSelection(
  t: TestApp,
  fields: Partial<typeof selections.$inferInsert> = {},
  categories: Array<{ name: string; cutoff?: number | null }> = [{ name: 'Collège', cutoff: 10 }],
): Promise<SelectionFixture> {
  const db = t.database.db;
  const [s] = await db
    .insert(selections)
    .values({
      title: 'Sélection 2027',
      chapters: [],
      nextRoundTitle: 'la finale nationale',
      nextRoundDate: '2027-03-13',
      nextRoundPlace: 'Lycée Louis-le-Grand, Paris',
      ...fields,
    })
    .returning();
  const rows = await db
    .insert(selectionCategories)
    .values(categories.map((c, position) => ({ selectionId: s.id, position, name: c.name, cutoff: c.cutoff ?? null })))
    .returning();
  return { id: s.id, categories: rows.sort((a, b) => a.position - b.position).map((c) => c.id) };
}

export interface Outcome {
  userId: string;
  score: number;
  categories: string[];
  qualifiedIn: string[];
}

/** A frozen version: its settings snapshot (categories with cut-offs, decisions) and the participants' outcomes. */
export async function insertVersion(
  t: TestApp,
  selection: SelectionFixture,
  number: number,
  outcomes: Outcome[],
  opts: {
    cutoffs?: Array<number | null>;
    names?: string[];
    decisions?: Array<{ categoryId: string; userId: string; decision: 'include' | 'exclude'; reason: string }>;
  } = {},
): Promise<string> {
  const db = t.database.db;
  const settings = {
    chapters: [],
    categories: selection.categories.map((id, i) => ({
      _id: id,
      name: opts.names?.[i] ?? `Catégorie ${i + 1}`,
      cutoff: opts.cutoffs?.[i] ?? 10,
      atCutoff: 'include',
      minGirls: null,
      maxPerSchool: null,
    })),
    decisions: opts.decisions ?? [],
  };
  const [v] = await db
    .insert(selectionVersions)
    .values({ selectionId: selection.id, number, reason: number > 1 ? 'Correction' : '', settings })
    .returning();
  if (outcomes.length > 0) await db.insert(selectionOutcomes).values(outcomes.map((o) => ({ versionId: v.id, ...o })));
  return v.id;
}
