import { TITLE_MAX, type ChapterSummary } from '@olympe/contract';
import type { ChapterFields } from '../../api/chapters';

/** A row of the /chapters table: `saved` holds the values last loaded from the server. */
export interface ChapterRow extends ChapterFields {
  key: string;
  _id?: string;
  saved?: ChapterFields;
}

export interface ChapterSavePlan {
  deletes: string[];
  creates: ChapterFields[];
  /** Only the fields that changed (docs/product.md#spec-7: title, analysis, offline "only if changed"). */
  updates: Array<{ _id: string; changes: Partial<ChapterFields> }>;
}

export const rowOf = (c: ChapterSummary): ChapterRow => {
  const fields = { title: c.title, analysis: c.analysis, offline: c.offline };
  return { key: c._id, _id: c._id, ...fields, saved: fields };
};

/**
 * What "Enregistrer" sends, in docs/product.md#spec-7 order (deletions, then creations and updates), or the
 * first problem found before any call, so that a bad table changes nothing.
 */
export function planChapterSave(rows: readonly ChapterRow[], deletedIds: readonly string[]): ChapterSavePlan | { error: string } {
  for (const row of rows) {
    const title = row.title.trim();
    if (!title) return { error: 'Un chapitre doit avoir un titre.' };
    if (title.length > TITLE_MAX) return { error: `Titre trop long (${TITLE_MAX} caractères au plus) : « ${title.slice(0, 30)}… ».` };
  }
  const updates: ChapterSavePlan['updates'] = [];
  for (const row of rows) {
    if (!row._id || !row.saved) continue;
    const changes: Partial<ChapterFields> = {};
    if (row.title.trim() !== row.saved.title) changes.title = row.title.trim();
    if (row.analysis !== row.saved.analysis) changes.analysis = row.analysis;
    if (row.offline !== row.saved.offline) changes.offline = row.offline;
    if (Object.keys(changes).length > 0) updates.push({ _id: row._id, changes });
  }
  return {
    deletes: [...deletedIds],
    creates: rows.filter((r) => !r._id).map((r) => ({ title: r.title.trim(), analysis: r.analysis, offline: r.offline })),
    updates,
  };
}

export interface ChapterSaveApi {
  remove: (id: string) => Promise<unknown>;
  create: (fields: ChapterFields) => Promise<unknown>;
  update: (id: string, changes: Partial<ChapterFields>) => Promise<unknown>;
}

/** Runs a plan: every deletion first, then creations, then updates; stops at the first failure. */
export async function runChapterSave(plan: ChapterSavePlan, calls: ChapterSaveApi): Promise<void> {
  for (const id of plan.deletes) await calls.remove(id);
  for (const fields of plan.creates) await calls.create(fields);
  for (const u of plan.updates) await calls.update(u._id, u.changes);
}
