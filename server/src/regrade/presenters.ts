import type { MyRegrade, RegradeQueue, RegradeStatus } from '@olympe/contract';
import type { AnonymousCopy } from '../grading/queries.js';

/** Regrade requests as the contract shapes them (docs/architecture.md « Response shaping »). */

export const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** A request as the pupil's and the correctors' lists read it. */
interface RequestRow {
  id: string;
  answer_id: string;
  user_id: string;
  exercise_id: string;
  exercise_title: string;
  max_points: number;
  message: string;
  status: RegradeStatus;
  reply: string | null;
  old_grade: string | null;
  new_grade: string | null;
  created_at: Date | string;
  handled_at: Date | string | null;
  page: number | null;
  region: { x: number; y: number; w: number; h: number } | null;
  annotation_id: string | null;
  annotation_page: number | null;
  annotation_text: string | null;
}

interface QueueRow extends RequestRow {
  first_name: string | null;
  last_name: string | null;
  grade: string | null;
  h_first: string | null;
  h_last: string | null;
  handled_by: string | null;
}

/** An allow-list: what the pupil who asked reads of their request. */
export const presentMine = (r: RequestRow): MyRegrade => ({
  _id: r.id,
  exercise: { _id: r.exercise_id, title: r.exercise_title },
  message: r.message,
  status: r.status,
  reply: r.reply,
  oldGrade: r.old_grade,
  newGrade: r.new_grade,
  createdAt: iso(r.created_at)!,
  handledAt: iso(r.handled_at),
  page: r.page,
  region: r.region,
  annotation: r.annotation_id ? { id: r.annotation_id, page: r.annotation_page, text: r.annotation_text } : null,
});

/** A request in the correctors' queue; under anonymous correction the pupil is their copy's pseudonym (decision 62). */
export const presentQueueRequest = (r: QueueRow, pseudonyms: Map<string, AnonymousCopy> | null): RegradeQueue['requests'][number] => ({
  ...presentMine(r),
  answerId: r.answer_id,
  exercise: { _id: r.exercise_id, title: r.exercise_title, maxPoints: r.max_points },
  student: pseudonyms
    ? { _id: pseudonyms.get(r.user_id)!.copyId, firstName: null, lastName: null, pseudonym: pseudonyms.get(r.user_id)!.pseudonym }
    : { _id: r.user_id, firstName: r.first_name, lastName: r.last_name },
  grade: r.grade,
  handledBy: r.handled_by ? { _id: r.handled_by, firstName: r.h_first, lastName: r.h_last } : null,
});
