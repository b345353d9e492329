import type { Selection, SelectionInput, SelectionSummary } from '@olympe/contract';
import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { selectionCategories, selections } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { assertMayManage, namesShown, selectionRightOf, visibleSelectionIds } from './policies.js';
import { presentSelection, presentSelectionSummary } from './presenters.js';
import { CATEGORY_NOT_FOUND_MESSAGE, type CategoryRow, categoriesOf, findSelection, uuids, versionsOf } from './queries.js';

/** Creating, editing and reading selections (docs/product.md#selections, decision 155). */

/** GET /selection: admins every selection, a jury member those of their groups, with their right on each. */
export async function listSelections(db: Db, auth: AuthContext, now = new Date()): Promise<SelectionSummary[]> {
  const visible = await visibleSelectionIds(db, auth);
  const found = await db
    .select({
      selection: selections,
      versions: sql<number>`(SELECT count(*) FROM selection_versions v WHERE v.selection_id = ${selections.id})`,
    })
    .from(selections)
    .where(visible === 'all' ? undefined : inArray(selections.id, visible))
    .orderBy(desc(selections.createdAt), selections.id);
  return found.map(({ selection, versions }) =>
    presentSelectionSummary(
      selection,
      Number(versions),
      visible === 'all' ? 'admin' : selection.juryRight === 'decide' ? 'decide' : 'read',
      now,
    ),
  );
}

async function chapterTitles(db: Tx, chapterIds: string[]): Promise<Map<string, string>> {
  const found = await rows(
    db,
    z.object({ id: z.string(), title: z.string() }),
    sql`SELECT id, title FROM chapters WHERE id = ANY(${uuids(chapterIds)}) AND deleted_at IS NULL`,
  );
  return new Map(found.map((c) => [c.id, c.title]));
}

/** GET /selection/{id}: the selection as the caller may act on it. */
export async function getSelection(db: Tx, auth: AuthContext, id: string, now = new Date()): Promise<Selection> {
  const right = await selectionRightOf(db, auth, id);
  const selection = await findSelection(db, id);
  const [categories, versions, titles] = [
    await categoriesOf(db, id),
    await versionsOf(db, id),
    await chapterTitles(
      db,
      selection.chapters.map((c) => c.chapterId),
    ),
  ];
  return presentSelection(
    selection,
    categories,
    titles,
    versions,
    right,
    namesShown(versions.length, selection.namesRevealedAt, right),
    now,
  );
}

/** The chapters must exist (each once) and the jury group too. */
async function checkReferences(db: Tx, input: SelectionInput) {
  const ids = input.chapters.map((c) => c.chapterId);
  if (new Set(ids).size !== ids.length) throw badRequest('Un chapitre figure deux fois dans la sélection.');
  const titles = await chapterTitles(db, ids);
  if (titles.size !== ids.length) throw notFound('Chapitre introuvable.');
  if (input.juryGroupId !== null) {
    const group = await one(
      db,
      z.object({ n: column.number }),
      sql`SELECT count(*) AS n FROM groups WHERE id = ${input.juryGroupId}::uuid`,
    );
    if (!group || group.n === 0) throw notFound('Groupe introuvable.');
  }
}

const selectionFields = (input: SelectionInput) => ({
  title: input.title,
  chapters: input.chapters.map((c) => ({ chapterId: c.chapterId, weight: c.weight })),
  nextRoundTitle: input.nextRoundTitle,
  nextRoundDate: input.nextRoundDate,
  nextRoundPlace: input.nextRoundPlace,
  juryGroupId: input.juryGroupId,
  juryRight: input.juryRight,
});

/** A category's filter (its cut-off settings and decisions are the jury's, kept across edits). */
const categoryFields = (c: Pick<CategoryRow, 'name' | 'genders' | 'grades' | 'birthDateMin' | 'birthDateMax'>, position: number) => ({
  position,
  name: c.name,
  genders: c.genders,
  grades: c.grades,
  birthDateMin: c.birthDateMin,
  birthDateMax: c.birthDateMax,
});

/** POST /selection (admins). Audited. */
export async function createSelection(db: Db, auth: AuthContext, input: SelectionInput): Promise<Selection> {
  // A new selection has no categories yet: an `_id` names one of another selection.
  if (input.categories.some((c) => c._id)) throw notFound(CATEGORY_NOT_FOUND_MESSAGE);
  const id = await db.transaction(async (tx) => {
    await checkReferences(tx, input);
    const [created] = await tx.insert(selections).values(selectionFields(input)).returning({ id: selections.id });
    await tx.insert(selectionCategories).values(input.categories.map((c, i) => ({ selectionId: created!.id, ...categoryFields(c, i) })));
    await audit(tx, auth, 'selection.create', created!.id, { after: input });
    return created!.id;
  });
  return getSelection(db, auth, id);
}

/**
 * PATCH /selection/{id} (admins): categories matched by `_id` are updated and keep their cut-off settings and decisions;
 * new ones are created; missing ones are deleted with their decisions (frozen versions keep their own settings). Audited.
 */
export async function updateSelection(db: Db, auth: AuthContext, id: string, input: SelectionInput): Promise<Selection> {
  await db.transaction(async (tx) => {
    assertMayManage(await selectionRightOf(tx, auth, id));
    const before = await findSelection(tx, id);
    const existing = await categoriesOf(tx, id);
    const known = new Set(existing.map((c) => c.id));
    const kept = input.categories.flatMap((c) => (c._id ? [c._id] : []));
    if (kept.some((categoryId) => !known.has(categoryId))) throw notFound(CATEGORY_NOT_FOUND_MESSAGE);
    if (new Set(kept).size !== kept.length) throw badRequest('Une catégorie figure deux fois.');
    await checkReferences(tx, input);
    await tx.update(selections).set(selectionFields(input)).where(eq(selections.id, id));
    const gone = eq(selectionCategories.selectionId, id);
    await tx.delete(selectionCategories).where(kept.length > 0 ? and(gone, notInArray(selectionCategories.id, kept)) : gone);
    for (const [i, c] of input.categories.entries()) {
      if (c._id) await tx.update(selectionCategories).set(categoryFields(c, i)).where(eq(selectionCategories.id, c._id));
      else await tx.insert(selectionCategories).values({ selectionId: id, ...categoryFields(c, i) });
    }
    const { id: _id, publishAt: _p, namesRevealedAt: _n, createdAt: _c, ...fields } = before;
    await audit(tx, auth, 'selection.update', id, {
      before: { ...fields, categories: existing.map((c) => ({ _id: c.id, ...categoryFields(c, c.position) })) },
      after: input,
    });
  });
  return getSelection(db, auth, id);
}

/** POST /selection/{id}/reveal-names (admins): lifts the anonymity of the deliberation before the first version. Audited. */
export async function revealNames(db: Db, auth: AuthContext, id: string, now = new Date()): Promise<Selection> {
  await db.transaction(async (tx) => {
    assertMayManage(await selectionRightOf(tx, auth, id));
    const selection = await findSelection(tx, id);
    if (selection.namesRevealedAt === null) {
      await tx.update(selections).set({ namesRevealedAt: now }).where(eq(selections.id, id));
      await audit(tx, auth, 'selection.reveal_names', id, { at: now.toISOString() });
    }
  });
  return getSelection(db, auth, id);
}
