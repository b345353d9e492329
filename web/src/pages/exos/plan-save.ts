import {
  formatPoints,
  MAX_POINTS_DEFAULT,
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
  /** Decision 61: points as typed (« 2,5 ») and the marking-scheme items. */
  maxPoints: string;
  scheme: SchemeDraft[];
  saved?: ExerciseFields;
}

export interface SchemeDraft {
  key: string;
  /** Kept from the server so grades that ticked this item still point at it. */
  id?: string;
  text: string;
  points: string;
}

export const newSchemeItem = (): SchemeDraft => ({ key: newKey(), text: '', points: '1' });

let counter = 0;
export const newKey = () => `k-${Date.now()}-${counter++}`;

export const newVersion = (content = NEW_VERSION_CONTENT): VersionDraft => ({ key: newKey(), content, answer: '' });

/** docs/product.md#spec-9: "Nouvel exercice", numeric, first version "Nouvelle version". */
export const newExercise = (): ExerciseDraft => ({
  key: newKey(),
  title: NEW_EXERCISE_TITLE,
  answerFormat: 'numeric',
  versions: [newVersion()],
  maxPoints: formatPoints(MAX_POINTS_DEFAULT),
  scheme: [],
});

export function draftOf(e: ExerciseRaw): ExerciseDraft {
  return {
    key: e._id,
    _id: e._id,
    title: e.title,
    answerFormat: e.answerFormat,
    versions: e.statementVersions.map((v) => ({ key: newKey(), content: v.content, answer: v.answer ?? '' })),
    maxPoints: formatPoints(e.maxPoints ?? MAX_POINTS_DEFAULT),
    scheme: (e.schemeItems ?? []).map((i) => ({ key: newKey(), id: i.id, text: i.text, points: formatPoints(i.points) })),
    saved: {
      title: e.title,
      answerFormat: e.answerFormat,
      statementVersions: e.statementVersions,
      maxPoints: e.maxPoints ?? MAX_POINTS_DEFAULT,
      schemeItems: (e.schemeItems ?? []).map((i) => ({ id: i.id, text: i.text, points: i.points })),
    },
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
    maxPoints: parseDecimal(d.maxPoints) ?? MAX_POINTS_DEFAULT,
    schemeItems: d.scheme.map((i) => ({ ...(i.id ? { id: i.id } : {}), text: i.text.trim(), points: parseDecimal(i.points) ?? 0 })),
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
  if (now.maxPoints !== saved.maxPoints) changes.maxPoints = now.maxPoints;
  if (JSON.stringify(now.schemeItems) !== JSON.stringify(saved.schemeItems ?? [])) changes.schemeItems = now.schemeItems;
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
    if (!title) return { error: `${label} : le titre ne peut pas être vide.` };
    if (title.length > TITLE_MAX) return { error: `${label} : le titre est trop long (${TITLE_MAX} caractères au plus).` };
    if (d.versions.length === 0) return { error: `${label} : un exercice doit avoir au moins une version.` };
    if (d.versions.length > VERSIONS_MAX) return { error: `${label} : ${VERSIONS_MAX} versions au plus.` };
    const max = parseDecimal(d.maxPoints);
    if (max === null || max < 0) return { error: `${label} : les points doivent être un nombre positif ou nul.` };
    let sum = 0;
    for (const [k, item] of d.scheme.entries()) {
      const points = parseDecimal(item.points);
      if (item.text.trim() === '') return { error: `${label} : l’élément de barème ${k + 1} n’a pas de texte.` };
      if (points === null || points < 0)
        return { error: `${label} : les points de l’élément de barème ${k + 1} doivent être un nombre positif ou nul.` };
      sum += points;
    }
    if (sum > max + 1e-9)
      return { error: `${label} : le barème totalise ${formatPoints(sum)} points pour un exercice noté sur ${formatPoints(max)}.` };
    if (d.answerFormat === 'numeric') {
      for (const [k, v] of d.versions.entries()) {
        if (v.answer.trim() !== '' && parseDecimal(v.answer) === null) {
          return { error: `${label} : la réponse attendue de la version ${k + 1} n’est pas un nombre.` };
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
