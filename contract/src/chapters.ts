import { z } from 'zod';
import { gradingOptionsSchema, maxPointsSchema, schemeItemSchema, schemeItemsInputSchema } from './grading-rules.js';
import { GENDERS, GRADES } from './user.js';

/** docs/product.md#spec-3 Exercise.answerFormat. */
export const ANSWER_FORMATS = ['none', 'numeric', 'pdf'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];
export const ANSWER_FORMAT_LABELS: Record<AnswerFormat, string> = {
  none: 'Aucune réponse',
  numeric: 'Numérique',
  pdf: 'Copie PDF',
};

/** docs/product.md#spec-9 defaults. */
export const NEW_CHAPTER_TITLE = 'Nouveau chapitre';
export const NEW_EXERCISE_TITLE = 'Nouvel exercice';
export const NEW_VERSION_CONTENT = 'Nouvelle version';
export const NEW_ACCESS_GROUP_NAME = 'all';

export const TITLE_MAX = 200;
export const RICH_TEXT_MAX = 100_000;
export const VERSIONS_MAX = 50;
export const ACCESS_GROUPS_MAX = 100;

/**
 * A numeric answer as a number: comma or dot as decimal separator, surrounding spaces ignored
 * (docs/product.md#design-3 Auto-correction). Null when the text is not a plain decimal number.
 */
export function parseDecimal(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

const title = z
  .string()
  .trim()
  .min(1, { error: 'Le titre ne peut pas être vide.' })
  .max(TITLE_MAX, { error: `Le titre est trop long (${TITLE_MAX} caractères au plus).` });
const richText = z.string().max(RICH_TEXT_MAX, { error: 'Le texte est trop long.' });

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const isoDate = z.iso.date({ error: 'Date invalide (format AAAA-MM-JJ attendu).' }).refine((d) => {
  const parsed = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === d;
}, 'Cette date n’existe pas.');
const instant = z.iso.datetime({ offset: true, error: 'Date et heure invalides.' });

/** docs/product.md#spec-3 Access group, as sent and received (instants are ISO strings; the web converts Paris time). */
export const accessGroupSchema = z
  .object({
    name: z.string().trim().max(TITLE_MAX, { error: 'Nom de groupe trop long.' }).default(NEW_ACCESS_GROUP_NAME),
    authorizedGenders: z.array(z.enum(GENDERS, { error: 'Genre invalide.' })).default([]),
    authorizedGrades: z.array(z.enum(GRADES, { error: 'Classe invalide.' })).default([]),
    birthDateMin: z.preprocess(emptyToNull, isoDate.nullable()).default(null),
    birthDateMax: z.preprocess(emptyToNull, isoDate.nullable()).default(null),
    timeDuration: z
      .number({ error: 'La durée doit être un nombre de minutes.' })
      .int({ error: 'La durée doit être un nombre entier de minutes.' })
      .min(0, { error: 'La durée ne peut pas être négative.' })
      .max(100_000, { error: 'La durée est trop longue.' })
      .nullable()
      .default(null),
    accessStart: z.preprocess(emptyToNull, instant.nullable()).default(null),
    accessEnd: z.preprocess(emptyToNull, instant.nullable()).default(null),
    /** Decision 157: only pupils qualified in the latest published version of this selection match the group (absent: none). */
    requiredSelectionId: z.preprocess(emptyToNull, z.uuid({ error: 'Identifiant de sélection invalide.' }).nullable()).optional(),
  })
  .refine((g) => !g.accessStart || !g.accessEnd || Date.parse(g.accessEnd) > Date.parse(g.accessStart), {
    error: 'La fin de l’accès doit être après son début.',
    path: ['accessEnd'],
  })
  .refine((g) => !g.birthDateMin || !g.birthDateMax || g.birthDateMax >= g.birthDateMin, {
    error: 'La date de naissance maximale doit être après la minimale.',
    path: ['birthDateMax'],
  });
export type AccessGroup = z.output<typeof accessGroupSchema>;

/** The same group in responses: plain fields (response schemas must not transform, they are encoded). */
export const accessGroupViewSchema = z.object({
  name: z.string(),
  authorizedGenders: z.array(z.enum(GENDERS)),
  authorizedGrades: z.array(z.enum(GRADES)),
  birthDateMin: z.string().nullable(),
  birthDateMax: z.string().nullable(),
  timeDuration: z.number().int().nullable(),
  accessStart: z.string().nullable(),
  accessEnd: z.string().nullable(),
  requiredSelectionId: z.string().nullable().optional(),
});

/** A chapter as GET /chapter/{id} presents it; staff-only fields are absent for others. */
export const chapterDetailSchema = z.object({
  _id: z.string(),
  title: z.string(),
  offline: z.boolean(),
  analysis: z.boolean(),
  headerStudents: z.string(),
  /** Staff and school staff only. */
  headerCenters: z.string().optional(),
  /** Admins and members only. */
  groups: z.array(accessGroupViewSchema).optional(),
  /** Admins and members only: anonymous and double correction (decisions 62, 63). */
  anonymousGrading: z.boolean().optional(),
  doubleGrading: z.boolean().optional(),
  gradingTolerance: z.number().optional(),
  /** Admins and members only (decision 162). */
  copiesReturned: z.boolean().optional(),
  correctorNamed: z.boolean().optional(),
});
export type ChapterDetail = z.infer<typeof chapterDetailSchema>;

/** POST /chapter; the grading options (decision 61) as PATCH takes them, each optional (the chapter's defaults otherwise). */
export const chapterCreateSchema = z.object({
  title,
  analysis: z.boolean().default(false),
  offline: z.boolean().default(false),
  ...gradingOptionsSchema.partial().shape,
});
export type ChapterCreate = z.output<typeof chapterCreateSchema>;

/** PATCH /chapter/{id}: any subset (docs/product.md#spec-7: headers; or title/flags; or groups). */
export const chapterPatchSchema = z
  .object({
    title,
    analysis: z.boolean(),
    offline: z.boolean(),
    headerStudents: richText,
    headerCenters: richText,
    groups: z.array(accessGroupSchema).max(ACCESS_GROUPS_MAX, { error: 'Trop de groupes d’accès.' }),
    ...gradingOptionsSchema.shape,
    /** Decision 162: the corrected copies go back to the pupils once published; the returned copy names its corrector. */
    copiesReturned: z.boolean({ error: 'Le champ « Copies rendues » doit valoir vrai ou faux.' }),
    correctorNamed: z.boolean({ error: 'Le champ « Correcteur nommé » doit valoir vrai ou faux.' }),
    /**
     * Decision 152: with `analysis: true`, the number of pupils still able to answer that the admin confirms
     * publishing anyway (the number the 409 `still_answering` gave); refused again when it changed meanwhile.
     */
    confirm: z
      .number({ error: 'Confirmation invalide : un nombre d’élèves est attendu.' })
      .int({ error: 'Confirmation invalide : un nombre d’élèves est attendu.' })
      .min(0, { error: 'Confirmation invalide : un nombre d’élèves est attendu.' }),
  })
  .partial();
export type ChapterPatch = z.output<typeof chapterPatchSchema>;

export const statementVersionSchema = z.object({
  content: richText.default(''),
  /** Expected answer of a numeric exercise; staff only. */
  answer: z.preprocess(emptyToNull, z.string().trim().max(100).nullable()).default(null),
});
export type StatementVersion = z.output<typeof statementVersionSchema>;

const versions = z
  .array(statementVersionSchema)
  .min(1, { error: 'Un exercice doit avoir au moins une version.' })
  .max(VERSIONS_MAX, { error: `Un exercice a au plus ${VERSIONS_MAX} versions.` });

/** Numeric expected answers must parse as numbers (comma or dot). */
function checkAnswers(v: { answerFormat?: AnswerFormat; statementVersions?: StatementVersion[] }, ctx: z.RefinementCtx) {
  if (v.answerFormat !== 'numeric' || !v.statementVersions) return;
  v.statementVersions.forEach((version, i) => {
    if (version.answer !== null && parseDecimal(version.answer) === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['statementVersions', i, 'answer'],
        message: `La réponse attendue de la version ${i + 1} n’est pas un nombre.`,
      });
    }
  });
}

const answerFormat = z.enum(ANSWER_FORMATS, { error: 'Type de réponse invalide (none, numeric ou pdf).' });

/** POST /exos. */
export const exerciseCreateSchema = z
  .object({
    title: title.default(NEW_EXERCISE_TITLE),
    answerFormat: answerFormat.default('numeric'),
    statementVersions: versions.default([{ content: NEW_VERSION_CONTENT, answer: null }]),
    chapter: z.uuid({ error: 'Chapitre invalide.' }),
    maxPoints: maxPointsSchema.optional(),
    schemeItems: schemeItemsInputSchema.optional(),
  })
  .superRefine(checkAnswers);
export type ExerciseCreate = z.output<typeof exerciseCreateSchema>;

/** PATCH /exos/{id}: the same fields, any subset; `chapter` is accepted but an exercise never moves. */
export const exercisePatchSchema = z
  .object({
    title,
    answerFormat,
    statementVersions: versions,
    chapter: z.uuid({ error: 'Chapitre invalide.' }),
    /** Decision 61: the exercise's maximum (≥ 0, default 1) and its marking-scheme items (sum ≤ maxPoints). */
    maxPoints: maxPointsSchema,
    schemeItems: schemeItemsInputSchema,
    /**
     * Decision 161: when the new points move grades already given, their number as the preview (and the 409
     * `scheme_recompute`) gave it, so that the grades are recomputed knowingly.
     */
    confirmRecompute: z
      .number({ error: 'Confirmation invalide.' })
      .int({ error: 'Confirmation invalide.' })
      .min(0, { error: 'Confirmation invalide.' }),
  })
  .partial()
  .superRefine(checkAnswers);
export type ExercisePatch = z.output<typeof exercisePatchSchema>;

/** An exercise for editing (GET /exos/raw/{chapterId}, staff GET /exos/{eid}). */
export const exerciseRawSchema = z.object({
  _id: z.string(),
  title: z.string(),
  answerFormat: z.enum(ANSWER_FORMATS),
  chapter: z.string(),
  statementVersions: z.array(z.object({ content: z.string(), answer: z.string().nullable() })),
  /** Decision 61 (always sent). */
  maxPoints: z.number().optional(),
  schemeItems: z.array(schemeItemSchema).optional(),
});
export type ExerciseRaw = z.infer<typeof exerciseRawSchema>;

/** An exercise as a pupil reads it: only the assigned version's content, never an expected answer. */
export const exerciseViewSchema = z.object({
  _id: z.string(),
  title: z.string(),
  answerFormat: z.enum(ANSWER_FORMATS),
  chapter: z.string(),
  statement: z.string(),
  /**
   * GET /exos/chapter/{id} (decision 122): the statement drawn by the server, sanitised HTML, as the browser's
   * MathText would draw it; absent if it could not be drawn (the browser then draws `statement`).
   */
  statementHtml: z.string().optional(),
  /** Admins and members only: every version with its expected answer. */
  statementVersions: exerciseRawSchema.shape.statementVersions.optional(),
  /** Decision 61 (always sent): what the exercise is worth, for « total / maximum ». */
  maxPoints: z.number().optional(),
  /** Admins and members only (decisions 62, 63). */
  schemeItems: z.array(schemeItemSchema).optional(),
});
export type ExerciseView = z.infer<typeof exerciseViewSchema>;

/** GET /exos/chapter/{id}: the chapter's header and its exercises. */
export const chapterPageSchema = z.object({
  _id: z.string(),
  title: z.string(),
  offline: z.boolean(),
  analysis: z.boolean(),
  headerStudents: z.string(),
  /** Decision 122: `headerStudents` drawn by the server, as `statementHtml`. */
  headerStudentsHtml: z.string().optional(),
  exercises: z.array(exerciseViewSchema),
  /** Decision 61 (always sent): the sum of the answerable exercises' maxPoints. */
  maxTotal: z.number().optional(),
});
export type ChapterPage = z.infer<typeof chapterPageSchema>;

export const savedMessageSchema = z.object({ message: z.string() });
export const createdWithIdSchema = z.object({ _id: z.string(), message: z.string() });

/** The LaTeX subject's file name: the chapter title without path characters, plus .tex (docs/product.md#spec-9). */
export function subjectFileName(title: string): string {
  const base = title
    .normalize('NFC')
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150);
  return `${base || 'sujet'}.tex`;
}
