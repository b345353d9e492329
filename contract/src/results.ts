import { z } from 'zod';
import { GENDERS, GRADES } from './profile.js';

/** Decision 70: the words a qualified pupil reads when the admin writes none. */
export const DEFAULT_QUALIFICATION_TEXT = 'Qualifié(e) pour le tour suivant';
export const RESULTS_NOT_PUBLISHED_MESSAGE = 'Les résultats de cette épreuve ne sont pas encore publiés.';
export const QUALIFICATION_TEXT_MAX = 200;

const instant = z.iso.datetime({ offset: true, error: 'Date et heure de publication invalides.' });

/** GET /results/{chapterId}/publication (admins): the chapter's publication and what it concerns. */
export const publicationSchema = z.object({
  _id: z.string(),
  title: z.string(),
  /** The flag « Notes publiées » as saved. */
  analysis: z.boolean(),
  publishAt: z.string().nullable(),
  /** The one rule: the flag, or publishAt passed. */
  published: z.boolean(),
  showRank: z.boolean(),
  qualificationThreshold: z.number().nullable(),
  qualificationText: z.string(),
  /** Decision 162: the corrected copies go back to the pupils once published; the returned copy names its corrector. */
  copiesReturned: z.boolean(),
  correctorNamed: z.boolean(),
  maxTotal: z.number(),
  /** Who will see results and how many copies are graded (for the confirmation dialogs). */
  counts: z.object({ pupils: z.number().int(), answers: z.number().int(), graded: z.number().int() }),
  /** The participants, for the admin's preview picker. */
  pupils: z.array(z.object({ _id: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable() })),
});
export type Publication = z.infer<typeof publicationSchema>;

/**
 * PUT /results/{chapterId}/publication (admins). `mode`: publish now, at `publishAt`, or withdraw the
 * publication (flag off and schedule dropped). Options are saved whatever the mode.
 */
export const publicationUpdateSchema = z
  .object({
    mode: z.enum(['now', 'scheduled', 'unpublished'], { error: 'Mode de publication invalide (now, scheduled ou unpublished).' }),
    publishAt: instant.nullable().default(null),
    showRank: z.boolean({ error: 'Affichage du rang invalide.' }).default(false),
    qualificationThreshold: z
      .number({ error: 'Le seuil de qualification doit être un nombre de points.' })
      .min(0, { error: 'Le seuil de qualification ne peut pas être négatif.' })
      .max(100_000, { error: 'Le seuil de qualification est trop grand.' })
      .nullable()
      .default(null),
    qualificationText: z
      .string()
      .trim()
      .max(QUALIFICATION_TEXT_MAX, { error: `La mention est trop longue (${QUALIFICATION_TEXT_MAX} caractères au plus).` })
      .default(DEFAULT_QUALIFICATION_TEXT)
      .transform((t) => t || DEFAULT_QUALIFICATION_TEXT),
    /** Decision 162: « Rendre les copies corrigées aux élèves », « Nommer le correcteur sur la copie rendue »; absent: unchanged. */
    copiesReturned: z.boolean({ error: 'Le champ « Copies rendues » doit valoir vrai ou faux.' }).optional(),
    correctorNamed: z.boolean({ error: 'Le champ « Correcteur nommé » doit valoir vrai ou faux.' }).optional(),
    /**
     * Decision 139: the number of pupils still able to answer that the admin confirms publishing anyway (the
     * `stillAnswering` of the 409 `still_answering`); refused again when the number changed meanwhile.
     */
    confirm: z
      .number({ error: 'Confirmation invalide : un nombre d’élèves est attendu.' })
      .int({ error: 'Confirmation invalide : un nombre d’élèves est attendu.' })
      .min(0, { error: 'Confirmation invalide : un nombre d’élèves est attendu.' })
      .optional(),
  })
  .refine((p) => p.mode !== 'scheduled' || p.publishAt !== null, {
    error: 'Indiquez la date et l’heure de publication.',
    path: ['publishAt'],
  });
export type PublicationUpdate = z.output<typeof publicationUpdateSchema>;

/** Decision 139: the qualification threshold is at most the chapter's maximum total. */
export const thresholdAboveMaxMessage = (maxTotal: number) =>
  `Le seuil de qualification dépasse le total maximal du chapitre (${String(Math.round(maxTotal * 10_000) / 10_000).replace('.', ',')} points).`;

/** Decision 139: a publication instant already past publishes at once, and the answer says so. */
export const PAST_INSTANT_MESSAGE = 'Instant passé : publication immédiate.';

/** Decision 139: « 3 élèves peuvent encore répondre », the dialog's words and the 409's start. */
export const stillAnsweringText = (n: number) => (n === 1 ? '1 élève peut encore répondre' : `${n} élèves peuvent encore répondre`);

/** 409 `still_answering` of PUT /results/{chapterId}/publication: publish anyway by sending `confirm: stillAnswering`. */
export const stillAnsweringSchema = z.object({ message: z.string(), code: z.literal('still_answering'), stillAnswering: z.number().int() });

/**
 * GET /results/{chapterId}/preview/{userId} query (decision 70): the options of the dialog, saved or not, so the
 * preview shows what the pupil will see once they are saved. Absent: the saved options.
 */
export const previewOptionsSchema = z.object({
  showRank: z.enum(['true', 'false'], { error: 'Affichage du rang invalide (true ou false).' }).optional(),
  /** Points; an empty value means no threshold. */
  qualificationThreshold: z
    .union([
      z.literal(''),
      z.coerce
        .number({ error: 'Le seuil de qualification doit être un nombre de points.' })
        .min(0, { error: 'Le seuil de qualification ne peut pas être négatif.' })
        .max(100_000, { error: 'Le seuil de qualification est trop grand.' }),
    ])
    .optional(),
  qualificationText: z
    .string()
    .trim()
    .max(QUALIFICATION_TEXT_MAX, { error: `La mention est trop longue (${QUALIFICATION_TEXT_MAX} caractères au plus).` })
    .optional(),
});
export type PreviewOptions = z.input<typeof previewOptionsSchema>;
export type PreviewOptionsQuery = z.output<typeof previewOptionsSchema>;
export type PublicationUpdateInput = z.input<typeof publicationUpdateSchema>;

/** One exercise of a results card: the grade (null: not graded or not answered), `excused` for X. */
export const resultExerciseSchema = z.object({
  _id: z.string(),
  title: z.string(),
  grade: z.number().nullable(),
  excused: z.boolean(),
  maxPoints: z.number(),
  comment: z.string(),
});
export type ResultExercise = z.infer<typeof resultExerciseSchema>;

/** The ranking fields, present when the chapter shows them (ties share a rank: 1, 2, 2, 4). */
const rankingShape = {
  rank: z.number().int().optional(),
  participants: z.number().int().optional(),
  /** Percentile rank: the share of participants below, plus half of those level, in %. */
  percentile: z.number().int().optional(),
  /** Present when a threshold is set. */
  qualified: z.boolean().optional(),
};

/** GET /results/{chapterId} (the pupil) and /results/{chapterId}/preview/{userId} (admins): one results card. */
export const resultsCardSchema = z.object({
  chapter: z.object({ _id: z.string(), title: z.string() }),
  exercises: z.array(resultExerciseSchema),
  total: z.number(),
  maxTotal: z.number(),
  /** Decision 139 (always sent by the server): false for a pupil with no answer in the chapter, who gets no certificate. */
  participated: z.boolean().optional(),
  /** Decision 162: the chapter returns the corrected copies (GET /results/{chapterId}/copies answers). */
  copiesReturned: z.boolean().optional(),
  ...rankingShape,
  qualificationText: z.string().optional(),
});
export type ResultsCard = z.infer<typeof resultsCardSchema>;

/** GET /results/{chapterId}/institution (school staff): their school's pupils, the same fields. */
export const institutionResultsSchema = z.object({
  chapter: z.object({ _id: z.string(), title: z.string() }),
  institution: z.object({ _id: z.string(), name: z.string() }),
  exercises: z.array(z.object({ _id: z.string(), title: z.string(), maxPoints: z.number() })),
  maxTotal: z.number(),
  qualificationText: z.string().optional(),
  /** Decision 162: the chapter returns the corrected copies (GET /results/{chapterId}/copies.zip answers). */
  copiesReturned: z.boolean().optional(),
  pupils: z.array(
    z.object({
      _id: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      grade: z.enum(GRADES).nullable(),
      gender: z.enum(GENDERS).nullable(),
      grades: z.array(z.object({ grade: z.number().nullable(), excused: z.boolean(), comment: z.string() })),
      total: z.number(),
      ...rankingShape,
    }),
  ),
});
export type InstitutionResults = z.infer<typeof institutionResultsSchema>;

/** What a deletion takes with it, for the confirmation dialogs (decision 69). */
export const deletionImpactSchema = z.object({
  exercises: z.number().int(),
  pupils: z.number().int(),
  answers: z.number().int(),
  grades: z.number().int(),
});
export type DeletionImpact = z.infer<typeof deletionImpactSchema>;

/** GET /answer/auto/{chapterId}/count: how many copies « Correction automatique » would grade now. */
export const autoCorrectionCountSchema = z.object({ count: z.number().int() });
export type AutoCorrectionCount = z.infer<typeof autoCorrectionCountSchema>;

/**
 * The column titles of a school's results, in French, for both the CSV and the XLSX (decision 71):
 * name, class, gender, each exercise « sur » its maximum, total, then rank and qualification when shown.
 */
export function institutionResultsHeader(
  results: Pick<InstitutionResults, 'exercises' | 'maxTotal' | 'pupils' | 'qualificationText'>,
): string[] {
  const onPoints = (n: number) => String(Math.round(n * 10_000) / 10_000).replace('.', ',');
  return [
    'Nom',
    'Prénom',
    'Classe',
    'Genre',
    ...results.exercises.map((e) => `${e.title} (sur ${onPoints(e.maxPoints)})`),
    `Total (sur ${onPoints(results.maxTotal)})`,
    ...(results.pupils.some((p) => p.rank !== undefined) ? ['Rang', 'Participants', 'Centile'] : []),
    ...(results.qualificationText !== undefined ? ['Qualifié(e)'] : []),
  ];
}
