import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Candidate } from '../chapters/access.js';
import type { Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { conflict, notFound } from '../errors.js';

/**
 * The shared read of decision 157: what pupils, schools, letters, mails and access rules see is the LATEST version
 * of a selection, once its publication instant has passed (docs/product.md#selections). A pupil is qualified in a
 * selection when their row of that version has a category in `qualified_in`.
 */

export const NO_VERSION_MESSAGE = 'Aucune version de cette liste n’a encore été gelée.';

/**
 * The same rule as raw SQL for the session context's statement (sessions/queries.ts, hot path): true when user
 * `user` is qualified in selection `selection` by its latest version, published. Inside the statement, so the
 * save's fingerprint covers it: a new version or a publication changes the row and so the memoised decision.
 */
export const qualifiedSqlText = (user: string, selection: string) => `EXISTS (
    SELECT 1 FROM selection_outcomes qo
    WHERE qo.user_id = ${user} AND cardinality(qo.qualified_in) > 0 AND qo.version_id = (
      SELECT qv.id FROM selection_versions qv JOIN selections qs ON qs.id = qv.selection_id
      WHERE qv.selection_id = ${selection} AND qs.publish_at <= now() ORDER BY qv.number DESC LIMIT 1))`;

/** The latest version of each published selection (`WHERE` narrows the selections, alias `s`). */
const latestPublishedVersions = (now: Date, where = sql`true`) => sql`
  SELECT DISTINCT ON (v.selection_id) v.id, v.selection_id
  FROM selection_versions v JOIN selections s ON s.id = v.selection_id
  WHERE s.publish_at <= ${now.toISOString()}::timestamptz AND ${where}
  ORDER BY v.selection_id, v.number DESC`;

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/**
 * Which of `selectionIds` each pupil is qualified in, by their latest published versions: ONE query. `userIds`
 * narrows it to some pupils (null: all of them).
 */
export async function qualifiedSelections(
  db: Tx,
  selectionIds: readonly string[],
  userIds: readonly string[] | null,
  now = new Date(),
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (selectionIds.length === 0 || userIds?.length === 0) return out;
  const found = await rows(
    db,
    z.object({ user_id: z.string(), selection_id: z.string() }),
    sql`SELECT o.user_id, l.selection_id
        FROM (${latestPublishedVersions(now, sql`v.selection_id = ANY(${uuidArray(selectionIds)})`)}) l
        JOIN selection_outcomes o ON o.version_id = l.id
        WHERE cardinality(o.qualified_in) > 0 ${userIds ? sql`AND o.user_id = ANY(${uuidArray(userIds)})` : sql``}`,
  );
  for (const r of found) {
    const set = out.get(r.user_id) ?? new Set<string>();
    set.add(r.selection_id);
    out.set(r.user_id, set);
  }
  return out;
}

/**
 * `Candidate.qualifiedIn` for the pupils matched against `rules`: no query at all when no rule requires a selection,
 * else one (decision 157).
 */
export async function qualificationsFor(
  db: Tx,
  rules: ReadonlyArray<{ requiredSelectionId?: string | null }>,
  userIds: readonly string[] | null,
  now = new Date(),
): Promise<(userId: string) => Candidate['qualifiedIn']> {
  const required = [...new Set(rules.map((r) => r.requiredSelectionId).filter((id): id is string => !!id))];
  if (required.length === 0) return () => undefined;
  const qualified = await qualifiedSelections(db, required, userIds, now);
  return (userId) => qualified.get(userId);
}

/** A version's settings as the freeze wrote them: the categories with their cut-offs, the decisions with user ids. */
const settingsShape = z.looseObject({
  categories: z
    .array(
      z.looseObject({
        _id: z.string().optional(),
        id: z.string().optional(),
        categoryId: z.string().optional(),
        name: z.string().optional(),
        cutoff: z.number().nullable().optional(),
      }),
    )
    .optional(),
  decisions: z
    .array(
      z.looseObject({
        categoryId: z.string(),
        userId: z.string().optional(),
        decision: z.string(),
        reason: z.string().optional(),
      }),
    )
    .optional(),
});

export interface VersionCategory {
  id: string;
  name: string;
  cutoff: number | null;
}

export interface VersionDecision {
  categoryId: string;
  userId: string;
  decision: string;
  reason: string;
}

/** The selection and its latest version (published or not), as the after-decision routes read it. */
export interface SelectionVersion {
  id: string;
  title: string;
  nextRoundTitle: string;
  nextRoundDate: string | null;
  nextRoundPlace: string;
  publishAt: Date | null;
  published: boolean;
  version: { id: string; number: number; categories: VersionCategory[]; decisions: VersionDecision[] } | null;
}

/** The categories in the selection's order, with the version's own names and cut-offs when its settings have them. */
function categoriesOf(
  settings: unknown,
  table: Array<{ id: string; name: string; cutoff: number | null }>,
): { categories: VersionCategory[]; decisions: VersionDecision[] } {
  const parsed = settingsShape.safeParse(settings);
  const data = parsed.success ? parsed.data : {};
  const fromSettings = (data.categories ?? [])
    .map((c) => ({ id: c._id ?? c.id ?? c.categoryId ?? '', name: c.name ?? '', cutoff: c.cutoff ?? null }))
    .filter((c) => c.id);
  const known = new Set(fromSettings.map((c) => c.id));
  const categories = [
    ...fromSettings.map((c) => ({ ...c, name: c.name || table.find((t) => t.id === c.id)?.name || 'Catégorie' })),
    ...table.filter((t) => !known.has(t.id)).map((t) => ({ ...t, cutoff: fromSettings.length > 0 ? null : t.cutoff })),
  ];
  const decisions = (data.decisions ?? [])
    .filter((d) => d.userId)
    .map((d) => ({ categoryId: d.categoryId, userId: d.userId!, decision: d.decision, reason: d.reason ?? '' }));
  return { categories, decisions };
}

const selectionRow = z.object({
  id: z.string(),
  title: z.string(),
  next_round_title: z.string(),
  next_round_date: z.string().nullable(),
  next_round_place: z.string(),
  publish_at: column.dateOrNull,
  published: z.boolean(),
  version_id: z.string().nullable(),
  number: column.numberOrNull,
  settings: z.unknown(),
});

/** A selection and its latest version (404 when there is no such selection). */
export async function loadSelectionVersion(db: Tx, selectionId: string, now = new Date()): Promise<SelectionVersion> {
  const row = await one(
    db,
    selectionRow,
    sql`SELECT s.id, s.title, s.next_round_title, s.next_round_date::text AS next_round_date, s.next_round_place, s.publish_at,
          (s.publish_at IS NOT NULL AND s.publish_at <= ${now.toISOString()}::timestamptz AND v.id IS NOT NULL) AS published,
          v.id AS version_id, v.number, v.settings
        FROM selections s
        LEFT JOIN LATERAL (SELECT id, number, settings FROM selection_versions WHERE selection_id = s.id ORDER BY number DESC LIMIT 1) v ON true
        WHERE s.id = ${selectionId}::uuid`,
  );
  if (!row) throw notFound('Sélection introuvable.');
  const table = await rows(
    db,
    z.object({ id: z.string(), name: z.string(), cutoff: column.numberOrNull }),
    sql`SELECT id, name, cutoff FROM selection_categories WHERE selection_id = ${selectionId}::uuid ORDER BY position, id`,
  );
  return {
    id: row.id,
    title: row.title,
    nextRoundTitle: row.next_round_title,
    nextRoundDate: row.next_round_date,
    nextRoundPlace: row.next_round_place,
    publishAt: row.publish_at ? new Date(row.publish_at) : null,
    published: row.published,
    version: row.version_id ? { id: row.version_id, number: Number(row.number), ...categoriesOf(row.settings, table) } : null,
  };
}

/** The selection's latest version, or 409 when none was frozen yet. */
export function versionOf(selection: SelectionVersion): NonNullable<SelectionVersion['version']> {
  if (!selection.version) throw conflict(NO_VERSION_MESSAGE);
  return selection.version;
}

export interface OutcomeRow {
  userId: string;
  score: number;
  categories: string[];
  qualifiedIn: string[];
}

const outcomeRow = z.object({
  user_id: z.string(),
  score: column.number,
  categories: z.array(z.string()),
  qualified_in: z.array(z.string()),
});

/** The rows of a version (all, or those of some pupils). */
export async function outcomesOf(db: Tx, versionId: string, userIds: readonly string[] | null = null): Promise<OutcomeRow[]> {
  const found = await rows(
    db,
    outcomeRow,
    sql`SELECT user_id, score, categories::text[] AS categories, qualified_in::text[] AS qualified_in
        FROM selection_outcomes WHERE version_id = ${versionId}::uuid
        ${userIds ? sql`AND user_id = ANY(${uuidArray(userIds)})` : sql``}
        ORDER BY score DESC, user_id`,
  );
  return found.map((r) => ({ userId: r.user_id, score: Number(r.score), categories: r.categories, qualifiedIn: r.qualified_in }));
}

/** The category a pupil's line names: the first (in order) they are qualified in, else the first they are in. */
export function categoryOf(categories: readonly VersionCategory[], outcome: Pick<OutcomeRow, 'categories' | 'qualifiedIn'>) {
  const pick = (ids: readonly string[]) => categories.find((c) => ids.includes(c.id)) ?? null;
  return (outcome.qualifiedIn.length > 0 ? pick(outcome.qualifiedIn) : null) ?? pick(outcome.categories);
}

const participantRow = z.object({
  user_id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  grade: z.string().nullable(),
  gender: z.string().nullable(),
  institution: z.string().nullable(),
  sector: z.string().nullable(),
  academy: z.string().nullable(),
  score: column.number,
  categories: z.array(z.string()),
  qualified_in: z.array(z.string()),
});
export type Participant = z.output<typeof participantRow>;

/** Every participant of a version with their profile and school (exports and figures, decision 158), best first. */
export function participantsOf(db: Tx, versionId: string): Promise<Participant[]> {
  return rows(
    db,
    participantRow,
    sql`SELECT o.user_id, u.first_name, u.last_name, u.grade, u.gender, i.name AS institution, i.sector, i.academy, o.score,
          o.categories::text[] AS categories, o.qualified_in::text[] AS qualified_in
        FROM selection_outcomes o JOIN users u ON u.id = o.user_id LEFT JOIN institutions i ON i.id = u.institution_id
        WHERE o.version_id = ${versionId}::uuid
        ORDER BY o.score DESC, lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), u.id`,
  );
}
