import type { Annotation, AnnotationLayer, DeskRole, DoubleStatus, GradeState, SchemeItem } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { badRequest } from '../errors.js';
import { presentLayer } from './presenters.js';
import { uuidArray, type Marks, type MarksRow } from './queries.js';

/**
 * A corrector's marks on a copy (docs/product.md#returned-copies, decisions 159 and 160): checked when saved with the grade,
 * and what each reader of the copy gets of them under decision 63's blind rule.
 */

const UNKNOWN_ITEM_MESSAGE = 'Annotation invalide : élément de barème inconnu pour cet exercice.';
const UNKNOWN_REMARK_MESSAGE = 'Remarque inconnue dans la banque de cet exercice.';
const DUPLICATE_ID_MESSAGE = 'Deux annotations portent le même identifiant.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The marks of a save as sent: null where omitted (then they stay as they are). */
export interface MarksInput {
  annotations: Annotation[] | null;
  bankComments: string[] | null;
}

/**
 * The marks sent with a grade, checked against the exercise (400 in French): an `item` annotation names an item of its
 * scheme, a `bank` annotation and each applied remark a remark of its bank (retired ones included: a copy graded before
 * keeps them); annotation ids are unique.
 */
export async function checkMarks(
  tx: Tx,
  exercise: { exercise_id: string; scheme_items: readonly SchemeItem[] },
  input: { annotations?: Annotation[]; bankComments?: string[] },
): Promise<MarksInput> {
  const annotations = input.annotations ?? null;
  const bankComments = input.bankComments ? [...new Set(input.bankComments.map((id) => id.toLowerCase()))] : null;
  const items = new Set(exercise.scheme_items.map((i) => i.id));
  if (annotations?.some((a) => a.kind === 'item' && !items.has(a.itemId))) throw badRequest(UNKNOWN_ITEM_MESSAGE);
  if (annotations && new Set(annotations.map((a) => a.id)).size !== annotations.length) throw badRequest(DUPLICATE_ID_MESSAGE);
  const placed = (annotations ?? []).flatMap((a) => (a.kind === 'bank' ? [a.bankId.toLowerCase()] : []));
  const remarks = [...new Set([...(bankComments ?? []), ...placed])];
  if (remarks.some((id) => !UUID.test(id))) throw badRequest(UNKNOWN_REMARK_MESSAGE);
  if (remarks.length > 0) {
    const found = await rows(
      tx,
      z.object({ id: z.string() }),
      sql`SELECT id FROM comment_bank WHERE exercise_id = ${exercise.exercise_id}::uuid AND id = ANY(${uuidArray(remarks)})`,
    );
    if (found.length !== remarks.length) throw badRequest(UNKNOWN_REMARK_MESSAGE);
  }
  return { annotations, bankComments };
}

/** The marks a save writes: those sent, and for what was omitted those of the grading it replaces. */
export function resolveMarks(input: MarksInput, existing: MarksRow | undefined): Marks {
  return {
    annotations: input.annotations ?? existing?.annotations ?? [],
    bankComments: input.bankComments ?? existing?.bank_comments ?? [],
  };
}

/** Whether a save leaves a grading's marks as they were. */
export function sameMarks(next: Marks, existing: MarksRow | undefined): boolean {
  return (
    JSON.stringify(next.annotations) === JSON.stringify(existing?.annotations ?? []) &&
    next.bankComments.join() === (existing?.bank_comments ?? []).join()
  );
}

/** A grading's own marks as its grade block carries them. */
export const ownMarks = (row: MarksRow | undefined): Pick<GradeState, 'annotations' | 'bankComments'> => ({
  annotations: row?.annotations ?? [],
  bankComments: row?.bank_comments ?? [],
});

/** What the desk reads of a copy's marks: who reads, what their save edits, and where a double-marked copy stands. */
export interface MarksReader {
  double: boolean;
  role: DeskRole;
  status?: DoubleStatus;
  callerId: string;
  /** Single correction: the copy's grader, whose grading is the copy's grade block. */
  copyGraderId: string | null;
  anonymous: boolean;
}

/**
 * Decision 159 under decision 63's blind rule. Single correction: the copy's grading's marks (the grade block the
 * corrector edits). Double correction: a corrector gets their own layer, and both correctors' (with the arbitration)
 * only once the copy is settled; the arbiter edits the arbitration's layer and gets both correctors'; a third corrector
 * (`done`) gets none.
 */
export function marksView(marks: readonly MarksRow[], reader: MarksReader): Pick<GradeState, 'annotations' | 'bankComments' | 'layers'> {
  if (!reader.double) return ownMarks(marks.find((m) => !m.arbitration && m.grader_id === reader.copyGraderId));
  if (reader.role === 'done') return {};
  const arbiter = reader.role === 'arbiter';
  const own = ownMarks(marks.find((m) => (arbiter ? m.arbitration : !m.arbitration && m.grader_id === reader.callerId)));
  const settled = reader.status === 'settled' || reader.status === 'arbitrated';
  if (!arbiter && !settled) return own;
  return { ...own, layers: layersOf(marks, reader.anonymous, !arbiter) };
}

/** « Correcteur 1 », « Correcteur 2 » in grading order, then the arbitration's (when asked). */
function layersOf(marks: readonly MarksRow[], anonymous: boolean, withArbitration: boolean): AnnotationLayer[] {
  const normal = marks.filter((m) => !m.arbitration).slice(0, 2);
  const layers = normal.map((m, i) => presentLayer(m, `Correcteur ${i + 1}`, anonymous));
  const arbitration = marks.find((m) => m.arbitration);
  if (withArbitration && arbitration) layers.push(presentLayer(arbitration, 'Arbitrage', anonymous));
  return layers;
}
