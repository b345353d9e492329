import type { AnswerFormat, ExerciseRaw, ExerciseView } from '@olympe/contract';
import type { exercises, statementVersions } from '../db/schema.js';
import { pickVersionIndex } from './versions.js';

/** Exercises as the contract shapes them (docs/architecture.md « Response shaping »). */

export type ExerciseRow = typeof exercises.$inferSelect;
type VersionRow = typeof statementVersions.$inferSelect;
export interface ExerciseWithVersions extends ExerciseRow {
  versions: VersionRow[];
}

/** Every version with its expected answer, and the marking scheme (admins, GET /exos/raw/{chapterId}). */
export function presentRaw(e: ExerciseWithVersions): ExerciseRaw {
  return {
    _id: e.id,
    title: e.title,
    answerFormat: e.answerFormat as AnswerFormat,
    chapter: e.chapterId,
    statementVersions: e.versions.map((v) => ({ content: v.content, answer: v.answer })),
    maxPoints: e.maxPoints,
    schemeItems: e.schemeItems,
  };
}

/** A pupil's view: an allow-list with only the version assigned to this user, never an expected answer. */
export function presentForUser(e: ExerciseWithVersions, userId: string, staff: boolean): ExerciseView {
  const version = e.versions[pickVersionIndex(userId, e.id, e.versions.length)];
  const view: ExerciseView = {
    _id: e.id,
    title: e.title,
    answerFormat: e.answerFormat as AnswerFormat,
    chapter: e.chapterId,
    statement: version?.content ?? '',
    maxPoints: e.maxPoints,
  };
  if (staff) {
    view.statementVersions = presentRaw(e).statementVersions;
    view.schemeItems = e.schemeItems;
  }
  return view;
}
