import {
  NEW_EXERCISE_TITLE,
  NEW_VERSION_CONTENT,
  TITLE_MAX,
  VERSIONS_MAX,
  parseDecimal,
  type AnswerFormat,
  type ExerciseRaw,
} from '@olympe/contract';
import type { ExerciseFields } from '../../api/exercises';

export interface VersionDraft {
  key: string;
  content: string;
  /** Expected answer of a numeric exercise; '' when none. */
  answer: string;
}

/** A row of the exercise table; `saved` is what the server last returned. */
export interface ExerciseDraft {
  key: string;
  _id?: string;
  title: string;
  answerFormat: AnswerFormat;
  versions: VersionDraft[];
  saved?: ExerciseFields;
}

let counter = 0;
export const newKey = () => `k-${Date.now()}-${counter++}`;

export const newVersion = (content = NEW_VERSION_CONTENT): VersionDraft => ({ key: newKey(), content, answer: '' });

/** SPEC §9: "Nouvel exercice", numeric, first version "Nouvelle version". */
export const newExercise = (): ExerciseDraft => ({
  key: newKey(),
  title: NEW_EXERCISE_TITLE,
  answerFormat: 'numeric',
  versions: [newVersion()],
});

export function draftOf(e: ExerciseRaw): ExerciseDraft {
  return {
    key: e._id,
    _id: e._id,
    title: e.title,
    answerFormat: e.answerFormat,
    versions: e.statementVersions.map((v) => ({ key: newKey(), content: v.content, answer: v.answer ?? '' })),
    saved: { title: e.title, answerFormat: e.answerFormat, statementVersions: e.statementVersions },
  };
}

/** The fields as the server stores them: expected answers only for numeric exercises. */
export function fieldsOf(d: ExerciseDraft): ExerciseFields {
  return {
    title: d.title.trim(),
    answerFormat: d.answerFormat,
    statementVersions: d.versions.map((v) => ({
      content: v.content,
      answer: d.answerFormat === 'numeric' && v.answer.trim() !== '' ? v.answer.trim() : null,
    })),
  };
}

export interface ExerciseSavePlan {
  deletes: string[];
  creates: ExerciseFields[];
  updates: Array<{ _id: string; changes: Partial<ExerciseFields> }>;
}

/** Only the changed fields of a saved exercise. */
export function changesOf(d: ExerciseDraft): Partial<ExerciseFields> {
  const now = fieldsOf(d);
  const saved = d.saved;
  if (!saved) return now;
  const changes: Partial<ExerciseFields> = {};
  if (now.title !== saved.title) changes.title = now.title;
  if (now.answerFormat !== saved.answerFormat) changes.answerFormat = now.answerFormat;
  if (JSON.stringify(now.statementVersions) !== JSON.stringify(saved.statementVersions)) changes.statementVersions = now.statementVersions;
  return changes;
}

/**
 * What "Enregistrer" sends (deletions, then creations, then updates of changed fields only),
 * or the first problem found, in French, before any call.
 */
export function planExerciseSave(drafts: readonly ExerciseDraft[], deletedIds: readonly string[]): ExerciseSavePlan | { error: string } {
  for (const [i, d] of drafts.entries()) {
    const label = `Exercice ${i + 1}`;
    const title = d.title.trim();
    if (!title) return { error: `${label} : le titre ne peut pas être vide.` };
    if (title.length > TITLE_MAX) return { error: `${label} : le titre est trop long (${TITLE_MAX} caractères au plus).` };
    if (d.versions.length === 0) return { error: `${label} : un exercice doit avoir au moins une version.` };
    if (d.versions.length > VERSIONS_MAX) return { error: `${label} : ${VERSIONS_MAX} versions au plus.` };
    if (d.answerFormat === 'numeric') {
      for (const [k, v] of d.versions.entries()) {
        if (v.answer.trim() !== '' && parseDecimal(v.answer) === null) {
          return { error: `${label} : la réponse attendue de la version ${k + 1} n’est pas un nombre.` };
        }
      }
    }
  }
  return {
    deletes: [...deletedIds],
    creates: drafts.filter((d) => !d._id).map(fieldsOf),
    updates: drafts
      .filter((d): d is ExerciseDraft & { _id: string } => !!d._id)
      .map((d) => ({ _id: d._id, changes: changesOf(d) }))
      .filter((u) => Object.keys(u.changes).length > 0),
  };
}

export const hasChanges = (plan: ExerciseSavePlan) => plan.deletes.length + plan.creates.length + plan.updates.length > 0;
