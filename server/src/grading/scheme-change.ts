import { cellNumber, formatPoints, gradeFromItems, type SchemeChangePreview, type SchemeItem } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { isChapterPublished } from '../chapters/publication.js';
import { audit } from '../db/audit.js';
import type { Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { conflict, notFound } from '../errors.js';
import { queueGradeChange } from '../mail/notifications.js';
import { doubleFinal } from './double.js';
import { appendGradeAudit, EXERCISE_NOT_FOUND, nextVersion } from './queries.js';

/**
 * A scheme change recomputes the grades that ticked its items (docs/product.md#returned-copies, decision 161): previewed,
 * then applied in one transaction. A grading whose grade was its ticked items' sum gets the new sum; one typed apart is
 * left (and counted); a double-marked copy is settled again; every change is in grade_audit and the audit log, and pupils
 * of a published chapter whose grade moved are told by mail.
 */

const ROUND = (n: number) => Math.round(n * 10_000) / 10_000;

const contextShape = z.object({
  chapter_id: z.string(),
  scheme_items: z.array(z.object({ id: z.string(), text: z.string(), points: z.number() })),
  double_grading: z.boolean(),
  grading_tolerance: column.number,
  analysis: z.boolean(),
  publish_ms: column.numberOrNull,
});

const affectedShape = z.object({
  id: z.string(),
  answer_id: z.string(),
  grader_id: z.string().nullable(),
  grade: z.string().nullable(),
  grade_comment: z.string(),
  items: z.array(z.string()),
  arbitration: z.boolean(),
  answer_grade: z.string().nullable(),
  answer_comment: z.string().nullable(),
  hidden: z.boolean(),
  user_id: z.string(),
  current: z.boolean(),
  answer_ts_ms: column.numberOrNull,
});
type Affected = z.output<typeof affectedShape>;

/** One grading that moves, and the answers whose grade (what pupils read) moves with it. */
interface Plan {
  gradings: Array<{ row: Affected; from: string; to: string }>;
  answers: Array<{ answerId: string; userId: string; current: boolean; from: string | null; to: string | null; row: Affected }>;
  kept: number;
}

/** The items whose points change (removed ones count as worth 0 now). */
function changedItems(before: readonly SchemeItem[], after: readonly SchemeItem[]): string[] {
  const now = new Map(after.map((i) => [i.id, i.points]));
  return before.filter((i) => now.get(i.id) !== i.points).map((i) => i.id);
}

/** Pure: which gradings move (grade = old ticked sum), which are kept (typed apart), and the answers' new grades. */
export function planSchemeChange(
  before: readonly SchemeItem[],
  after: readonly SchemeItem[],
  affected: readonly Affected[],
  double: { tolerance: number } | null,
): Plan {
  const plan: Plan = { gradings: [], answers: [], kept: 0 };
  const byAnswer = new Map<string, Affected[]>();
  for (const g of affected) byAnswer.set(g.answer_id, [...(byAnswer.get(g.answer_id) ?? []), g]);
  const changed = new Set(changedItems(before, after));
  for (const [answerId, gradings] of byAnswer) {
    const next = gradings.map((g) => {
      if (!g.items.some((i) => changed.has(i)) || g.grade === null) return g;
      const from = gradeFromItems(before as SchemeItem[], g.items);
      const value = cellNumber(g.grade);
      if (value === null || Math.abs(value - Number(from)) > 1e-9) {
        plan.kept++;
        return g;
      }
      const to = gradeFromItems(after as SchemeItem[], g.items);
      if (to === g.grade) return g;
      plan.gradings.push({ row: g, from: g.grade, to });
      return { ...g, grade: to };
    });
    if (next.every((g, i) => g === gradings[i])) continue;
    const first = gradings[0];
    let to: string | null;
    if (double) to = doubleFinal(next, double.tolerance);
    else {
      // Single correction: the copy's grade is its grading's, when it still says so.
      const moved = next.find((g, i) => g !== gradings[i] && gradings[i].grade === first.answer_grade);
      if (!moved) continue;
      to = moved.grade;
    }
    if (to !== first.answer_grade)
      plan.answers.push({ answerId, userId: first.user_id, current: first.current, from: first.answer_grade, to, row: first });
  }
  return plan;
}

async function loadContext(tx: Tx, exerciseId: string) {
  const context = await one(
    tx,
    contextShape,
    sql`SELECT e.chapter_id, e.scheme_items, c.double_grading, c.grading_tolerance, c.analysis,
          (extract(epoch FROM c.publish_at) * 1000)::float8 AS publish_ms
        FROM exercises e JOIN chapters c ON c.id = e.chapter_id
        WHERE e.id = ${exerciseId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL`,
  );
  if (!context) throw notFound(EXERCISE_NOT_FOUND);
  return context;
}

/** Every grading of the copies where some grading ticked a changed item (locked when applying). */
function loadAffected(tx: Tx, exerciseId: string, changed: readonly string[], lock: boolean): Promise<Affected[]> {
  if (changed.length === 0) return Promise.resolve([]);
  const ids = `{${changed.map((i) => `"${i}"`).join(',')}}`;
  return rows(
    tx,
    affectedShape,
    sql`SELECT g.id, g.answer_id, g.grader_id, g.grade, g.grade_comment, g.items, g.arbitration, a.grade AS answer_grade,
          a.grade_comment AS answer_comment, a.hidden, a.user_id, a.withdrawn_at IS NULL AS current,
          (extract(epoch FROM a.grade_timestamp) * 1000)::float8 AS answer_ts_ms
        FROM gradings g JOIN answers a ON a.id = g.answer_id
        WHERE g.answer_id IN (SELECT x.answer_id FROM gradings x WHERE x.exercise_id = ${exerciseId}::uuid AND x.items && ${ids}::text[])
        ORDER BY g.answer_id, g.arbitration, g.created_at, g.id ${lock ? sql`FOR UPDATE OF g, a` : sql``}`,
  );
}

function summarise(plan: Plan, published: boolean): SchemeChangePreview {
  const deltas = plan.gradings.map((c) => ROUND(Number(c.to) - Number(c.from)));
  const pupils = new Set(plan.answers.filter((a) => a.current).map((a) => a.userId));
  return {
    changed: plan.gradings.length,
    minDelta: deltas.length === 0 ? 0 : Math.min(...deltas),
    maxDelta: deltas.length === 0 ? 0 : Math.max(...deltas),
    publishedPupils: published ? pupils.size : 0,
  };
}

/** POST /exos/{id}/scheme/preview (admins): what saving these scheme items would do to the grades given. */
export async function previewSchemeChange(tx: Tx, exerciseId: string, after: readonly SchemeItem[]): Promise<SchemeChangePreview> {
  const context = await loadContext(tx, exerciseId);
  const affected = await loadAffected(tx, exerciseId, changedItems(context.scheme_items, after), false);
  const plan = planSchemeChange(
    context.scheme_items,
    after,
    affected,
    context.double_grading ? { tolerance: context.grading_tolerance } : null,
  );
  return summarise(plan, isChapterPublished({ analysis: context.analysis, publishAt: context.publish_ms }));
}

/** « 3 notes changent, de −0,5 à −0,5 » : the preview in words. */
function previewText(p: SchemeChangePreview): string {
  const notes = p.changed > 1 ? `${p.changed} notes changent` : `${p.changed} note change`;
  const signed = (n: number) => (n > 0 ? `+${formatPoints(n)}` : n < 0 ? `−${formatPoints(-n)}` : '0');
  return `${notes}, de ${signed(p.minDelta)} à ${signed(p.maxDelta)}`;
}

/**
 * PATCH /exos/{id} with scheme items (decision 161), in the caller's transaction, before the scheme is written: when
 * grades would move, `confirmRecompute` must be their number (409 `scheme_recompute` with the preview otherwise); then each
 * moving grading, its copy's grade (single: the grading's; double: settled again) and the history are written. Audited.
 */
export async function applySchemeChange(
  tx: Tx,
  auth: AuthContext,
  exerciseId: string,
  after: readonly SchemeItem[],
  confirmRecompute: number | undefined,
): Promise<void> {
  const context = await loadContext(tx, exerciseId);
  const affected = await loadAffected(tx, exerciseId, changedItems(context.scheme_items, after), true);
  const double = context.double_grading ? { tolerance: context.grading_tolerance } : null;
  const plan = planSchemeChange(context.scheme_items, after, affected, double);
  const published = isChapterPublished({ analysis: context.analysis, publishAt: context.publish_ms });
  const preview = summarise(plan, published);
  if (preview.changed === 0) return;
  if (confirmRecompute !== preview.changed) {
    const message = `${previewText(preview)} : confirmez ce nombre (« confirmRecompute ») pour recalculer ces notes.`;
    throw conflict(message, 'scheme_recompute', { preview });
  }
  for (const { row, to } of plan.gradings) {
    await tx.execute(sql`UPDATE gradings SET grade = ${to}, updated_at = now() WHERE id = ${row.id}::uuid`);
    const kind = !double ? 'grade' : row.arbitration ? 'arbitration' : 'grading';
    // Single correction: the answer's line below says it (one line per copy, as a save writes).
    if (double) await appendGradeAudit(tx, auth.userId, row.answer_id, gradeLine(row, to, kind));
  }
  for (const a of plan.answers) {
    const at = a.to === null ? null : nextVersion(a.row.answer_ts_ms).toISOString();
    // As a double-marking settlement writes it (double.ts): a copy back to arbitration has no grade nor comment.
    const comment = double && a.to === null ? sql`NULL` : sql`grade_comment`;
    await tx.execute(sql`UPDATE answers SET grade = ${a.to}, grade_comment = ${comment}, grade_timestamp = ${at}::timestamptz
      WHERE id = ${a.answerId}::uuid`);
    const line = gradeLine(a.row, a.to, 'grade');
    await appendGradeAudit(tx, auth.userId, a.answerId, { ...line, old: a.from, items: double ? null : line.items });
  }
  await audit(tx, auth, 'exercise.scheme_recompute', exerciseId, { ...preview, kept: plan.kept });
  const moved = plan.answers.filter((a) => a.current).map((a) => a.userId);
  if (published && moved.length > 0) await queueGradeChange(tx, { chapterId: context.chapter_id, exerciseId, userIds: moved });
}

const gradeLine = (row: Affected, to: string | null, kind: 'grade' | 'grading' | 'arbitration') => ({
  old: row.grade,
  new: to,
  oldComment: kind === 'grade' ? row.answer_comment : row.grade_comment,
  newComment: (kind === 'grade' ? row.answer_comment : row.grade_comment) ?? '',
  hidden: row.hidden,
  kind,
  items: row.items,
});
