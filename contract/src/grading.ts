import { z } from 'zod';
import {
  correctorProgressSchema,
  deskSchema,
  DOUBLE_STATUSES,
  exerciseProgressSchema,
  gradingViewSchema,
  personSchema,
} from './grading-rules.js';
import { annotationSchema, annotationsSchema } from './annotations.js';

/**
 * Grading (docs/product.md#spec-2 "Correction", "History", "Overview"; docs/product.md#design-3 Answers). Schemas shared by the
 * server routes and the web pages, and the pure cell / total rules both sides apply.
 */

/** docs/product.md#spec-3 Grading table values: ' ' no answer, '?' answered not graded, 'X' excused or blank, or the number. */
export const CELL_NONE = ' ';
export const CELL_UNGRADED = '?';
export const CELL_EXCUSED = 'X';
export type CellKind = 'none' | 'ungraded' | 'excused' | 'graded';

/** A stored grade: digits with an optional decimal part (docs/product.md#spec-5: the grade field takes digits and the dot), or X. */
export const GRADE_NUMBER_PATTERN = /^\d{1,6}(\.\d{1,4})?$/;
export const GRADE_MESSAGE = 'Note invalide : un nombre (chiffres et point) ou X est attendu.';

/** The kind of a table cell value. */
export function cellKind(value: string): CellKind {
  if (value === CELL_NONE || value === '') return 'none';
  if (value === CELL_UNGRADED) return 'ungraded';
  if (value === CELL_EXCUSED) return 'excused';
  return 'graded';
}

/**
 * The value of a cell from the pupil's current answer (docs/product.md#design-3): no current answer, or an empty
 * one (a cleared numeric answer) that nobody graded, is ' '; a grade wins over everything.
 */
export function cellValue(current: { answered: boolean; grade: string | null } | null | undefined): string {
  if (!current) return CELL_NONE;
  if (current.grade !== null && current.grade !== '') return current.grade;
  return current.answered ? CELL_UNGRADED : CELL_NONE;
}

/** The numeric value of a cell, or null for ' ', '?', 'X' and anything that is not a number. */
export function cellNumber(value: string): number | null {
  const t = value.trim().replace(',', '.');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** docs/product.md#spec-4/§5: the total sums the numeric values and ignores the others. Rounded to 4 decimals (0.1 + 0.2). */
export function totalOf(values: readonly string[]): number {
  let sum = 0;
  for (const v of values) sum += cellNumber(v) ?? 0;
  return Math.round(sum * 10_000) / 10_000;
}

/**
 * A grade as typed (string or number), normalised for storage: 'X' (any case), a number with
 * a dot or a comma (trailing zeros kept as typed, spaces trimmed), or null (empty: clears the grade).
 * Returns undefined when the value is not acceptable.
 */
export function normalizeGrade(input: string | number | null): string | null | undefined {
  if (input === null) return null;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return undefined;
    const s = String(input);
    return GRADE_NUMBER_PATTERN.test(s) ? s : undefined;
  }
  const t = input.trim().replace(',', '.');
  if (t === '') return null;
  if (t.toUpperCase() === CELL_EXCUSED) return CELL_EXCUSED;
  const s = t.endsWith('.') ? t.slice(0, -1) : t;
  return GRADE_NUMBER_PATTERN.test(s) ? s : undefined;
}

const instant = z.string();
const person = personSchema;

/** Paged grading table (decision 83): at most this many pupils per page (`limit`). */
export const GRADING_PAGE_MAX = 500;
export const GRADING_LIMIT_MESSAGE = `Taille de page invalide : un nombre entier de 0 à ${GRADING_PAGE_MAX} est attendu.`;
export const GRADING_AFTER_MESSAGE = 'Curseur de page invalide : l’identifiant du dernier élève de la page précédente est attendu.';
export const GRADING_UNKNOWN_AFTER_MESSAGE = 'Curseur de page inconnu : cet élève n’est plus dans le tableau, rechargez-le.';
/** A page size (`limit`, 0–500) of the paged grading table and review page; 0 asks for the counts alone. */
const pageLimit = z.coerce
  .number({ error: GRADING_LIMIT_MESSAGE })
  .int({ error: GRADING_LIMIT_MESSAGE })
  .min(0, { error: GRADING_LIMIT_MESSAGE })
  .max(GRADING_PAGE_MAX, { error: GRADING_LIMIT_MESSAGE })
  .optional();

/**
 * GET /answer/table/{id}?limit=&after=&q= (decision 83). Without `limit` the whole table, as before.
 * With it, one page of pupils in the table's order; `after` is the id of the last pupil of the
 * previous page (`page.next`), `q` keeps the pupils whose name (or pseudonym) holds every word.
 * `limit=0` asks for the header alone (counts, progress, correctors), a request of its own so the
 * first rows never wait for it.
 */
export const gradingTableQuerySchema = z
  .object({
    limit: pageLimit,
    after: z.uuid({ error: GRADING_AFTER_MESSAGE }).optional(),
    q: z.string({ error: 'Recherche invalide.' }).max(200, { error: 'Recherche trop longue (200 caractères au plus).' }).optional(),
  })
  .refine((v) => v.limit !== undefined || (v.after === undefined && v.q === undefined), {
    error: 'Les paramètres « after » et « q » demandent une taille de page (« limit »).',
  })
  .refine((v) => v.limit !== 0 || v.after === undefined, {
    error: 'L’en-tête du tableau (« limit=0 ») ne prend pas de curseur (« after »).',
  });
export type GradingTableQuery = z.infer<typeof gradingTableQuerySchema>;

/** GET /answer/table/{id}: the chapter, its answerable exercises in order, and the pupils keyed by id. */
export const gradingTableSchema = z.object({
  chapter: z.object({
    _id: z.string(),
    title: z.string(),
    offline: z.boolean(),
    analysis: z.boolean(),
    /** Decisions 62 and 63 (always sent): grading options; under anonymous correction a corrector gets pseudonyms. */
    anonymousGrading: z.boolean().optional(),
    doubleGrading: z.boolean().optional(),
    gradingTolerance: z.number().optional(),
  }),
  exercises: z.array(
    z.object({
      _id: z.string(),
      title: z.string(),
      answerFormat: z.string(),
      /** Decision 61 (always sent): the exercise's maximum. */
      maxPoints: z.number().optional(),
    }),
  ),
  /** Decision 61 (always sent): the sum of the exercises' maxPoints, for « total / maximum ». */
  maxTotal: z.number().optional(),
  /**
   * Decision 63 (sent with the whole table and with the header of a paged one, `limit=0`, not with its pages):
   * per exercise, copies with 0, 1, 2 gradings and awaiting arbitration, in the order of `exercises`.
   */
  progress: z.array(exerciseProgressSchema).optional(),
  /** Decision 63 (sent like `progress`): per corrector, copies graded and mean grade given. */
  correctors: z.array(correctorProgressSchema).optional(),
  /** Paged requests only (decision 83). */
  page: z
    .object({
      /** The `after` of the next page; null on the last page. */
      next: z.string().nullable(),
      /** Header (`limit=0`) only: pupils in the whole table, and those the search `q` keeps. */
      pupils: z.number().int().optional(),
      matched: z.number().int().optional(),
      /** Header only: per exercise, in the order of `exercises`, cells graded (a number or X) and answered (any but ' '). */
      counts: z.array(z.object({ graded: z.number().int(), answered: z.number().int() })).optional(),
    })
    .optional(),
  users: z.record(
    z.string(),
    z.object({
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      email: z.string(),
      grade: z.string().nullable(),
      gender: z.string().nullable(),
      birthDate: z.string().nullable(),
      /** Anonymous correction, for correctors: « Copie 0042 »; names, e-mail ('') and profile fields are then blank. */
      pseudonym: z.string().optional(),
      /** One value per exercise, in the order of `exercises` (CELL_ARBITRATION '≠' awaits an admin in double correction). */
      data: z.array(z.string()),
      /** Decision 139: indexes in `exercises` of this pupil's copies flagged « pages ajoutées après la note » (absent: none). */
      pagesAdded: z.array(z.number().int()).optional(),
    }),
  ),
});
export type GradingTable = z.infer<typeof gradingTableSchema>;
export type GradingTableUser = GradingTable['users'][string];

/** GET /answer/select/{exerciseId}: `url` is "{userId}/{exerciseId}" for /history/{url}; a message when none is left. */
export const selectedAnswerSchema = z.object({ url: z.string().optional(), message: z.string().optional() });
export type SelectedAnswer = z.infer<typeof selectedAnswerSchema>;

/** One corrector's marks on a copy as a reader other than their author gets them (decision 159); no name under anonymous correction. */
export const annotationLayerSchema = z.object({
  label: z.string(),
  grader: person.nullable(),
  arbitration: z.boolean(),
  annotations: z.array(annotationSchema),
});
export type AnnotationLayer = z.infer<typeof annotationLayerSchema>;

/** At most this many comment-bank remarks recorded with one grading (decision 160). */
export const BANK_COMMENTS_APPLIED_MAX = 50;

/** The grade block of an answer. Members also get `answerId` and the version to send back. */
export const gradeStateSchema = z.object({
  answerId: z.string().optional(),
  grade: z.string().nullable(),
  grade_comment: z.string(),
  hidden: z.boolean().optional(),
  /** The conflict check: send it back as `expectedGradeTimestamp`. */
  grade_timestamp: instant.nullable().optional(),
  grader: person.nullable().optional(),
  /** Decision 61: ids of the marking-scheme items ticked with this grade. */
  items: z.array(z.string()).optional(),
  /** Decision 159 (staff): the caller's own marks on the copy (single correction: the copy's grading), never another corrector's. */
  annotations: z.array(annotationSchema).optional(),
  /** Decision 160 (staff): the comment-bank remarks applied with these marks. */
  bankComments: z.array(z.string()).optional(),
  /**
   * Decision 159, double correction: the correctors' layers, sent only to the arbiter and, once the copy is settled,
   * to its two correctors (decision 63's blind rule); « Correcteur 1 », « Correcteur 2 », then « Arbitrage ».
   */
  layers: z.array(annotationLayerSchema).optional(),
});
export type GradeState = z.infer<typeof gradeStateSchema>;

/** GET /answer/history/{uid}/{eid}. `result` is null when there is nothing to show (see docs/product.md#spec-6 for pupils). */
export const answerHistorySchema = z.object({
  user: person,
  exercise: z.object({
    _id: z.string(),
    title: z.string(),
    answerFormat: z.string(),
    chapter: z.string(),
    chapterTitle: z.string(),
  }),
  answers: z.array(z.object({ _id: z.string(), answer: z.string(), timestamp: instant })),
  result: gradeStateSchema.nullable(),
  /** True when the caller may grade (members, admins): the page shows the editable block. */
  canGrade: z.boolean(),
  /** Members and admins only (decision 65): the statement, expected answer, points, scheme, double-correction state. */
  desk: deskSchema.optional(),
});
export type AnswerHistory = z.infer<typeof answerHistorySchema>;

/** POST /answer/grade. `expectedGradeTimestamp` is the grade_timestamp the corrector started from (null: never graded). */
export const gradeSaveSchema = z.object({
  answerId: z.uuid({ error: 'Copie invalide.' }),
  grade: z.union([z.string().max(20, { error: GRADE_MESSAGE }), z.number()], { error: GRADE_MESSAGE }).nullable(),
  grade_comment: z
    .string({ error: 'Le commentaire doit être un texte.' })
    .max(20_000, { error: 'Le commentaire est trop long.' })
    .nullable()
    .default(''),
  hidden: z.boolean({ error: 'Le champ « Cacher la copie » doit valoir vrai ou faux.' }).default(false),
  expectedGradeTimestamp: z.iso.datetime({ offset: true, error: 'Version de la copie invalide ou absente.' }).nullable(),
  /**
   * Decision 61: ids of the marking-scheme items ticked, stored with the grade. When `grade` is null and
   * items are ticked, the grade is their sum; a grade typed by hand wins over the sum.
   */
  items: z
    .array(z.uuid({ error: 'Élément de barème invalide.' }))
    .max(50, { error: 'Trop d’éléments de barème.' })
    .optional(),
  /** Decision 159: the caller's marks on the copy, saved with the grade; omitted leaves them as they are, [] clears them. */
  annotations: annotationsSchema.optional(),
  /** Decision 160: the comment-bank remarks applied (omitted: unchanged). */
  bankComments: z
    .array(z.uuid({ error: 'Remarque de la banque invalide.' }), { error: 'Les remarques appliquées doivent être une liste.' })
    .max(BANK_COMMENTS_APPLIED_MAX, { error: `Au plus ${BANK_COMMENTS_APPLIED_MAX} remarques de la banque par copie.` })
    .optional(),
});
export type GradeSave = z.input<typeof gradeSaveSchema>;

export const gradeSavedSchema = z.object({
  answerId: z.string(),
  grade: z.string().nullable(),
  grade_comment: z.string(),
  hidden: z.boolean(),
  grade_timestamp: instant,
  /** Decision 61: the items stored with the grade. */
  items: z.array(z.string()).optional(),
  /** Double correction (decision 63): where the copy stands after this save, and its final grade once settled. */
  status: z.enum(DOUBLE_STATUSES).optional(),
  finalGrade: z.string().nullable().optional(),
});
export type GradeSaved = z.infer<typeof gradeSavedSchema>;

export const GRADE_CONFLICT_MESSAGE =
  'Cette copie a été modifiée par un autre correcteur entre-temps : sa version est affichée, vos dernières modifications n’ont pas été enregistrées.';
export const NEWER_ANSWER_MESSAGE =
  'L’élève a envoyé une réponse plus récente : la copie affichée a été rechargée, vos dernières modifications n’ont pas été enregistrées.';

/** 409 of POST /answer/grade: the state now stored, so the page can show it. */
export const gradeConflictSchema = z.object({
  message: z.string(),
  current: gradeStateSchema.extend({ answerId: z.string() }),
});
export type GradeConflict = z.infer<typeof gradeConflictSchema>;

/** Decision 139: the desk's « pages ajoutées après la note » notice, dismissed without grading again. */
export const PAGES_ADDED_DISMISSED_MESSAGE = 'Avertissement retiré : la note de cette copie reste inchangée.';

/** docs/product.md#spec-3 Overview row. */
export const overviewRowSchema = z.object({
  _id: z.string(),
  student: person,
  grader: person.nullable(),
  /** `maxPoints`: what the exercise is graded on (decision 61: a grade is shown with its maximum). */
  exercise: z.object({ _id: z.string(), title: z.string(), maxPoints: z.number() }),
  grade: z.string().nullable(),
  grade_comment: z.string().nullable(),
  grade_timestamp: instant.nullable(),
  /** Double correction (decision 63): both gradings and the arbitration (a corrector sees others' only once both are in). */
  status: z.enum(DOUBLE_STATUSES).optional(),
  gradings: z.array(gradingViewSchema).optional(),
});
export type OverviewRow = z.infer<typeof overviewRowSchema>;

/** The overview's columns the server sorts by (decision 94). */
export const OVERVIEW_SORTS = ['date', 'student', 'grader', 'exercise', 'grade'] as const;
export type OverviewSort = (typeof OVERVIEW_SORTS)[number];
/** How far `offset` may go: far beyond a cup's copies (12 exercises × 50,000 pupils), short of a runaway scan. */
export const OVERVIEW_OFFSET_MAX = 1_000_000;
const OVERVIEW_OFFSET_MESSAGE = `Position de page invalide : un nombre entier de 0 à ${OVERVIEW_OFFSET_MAX.toLocaleString('fr-FR')} est attendu.`;
const overviewFilter = (what: string) =>
  z
    .string({ error: `Filtre « ${what} » invalide.` })
    .max(100, { error: `Filtre « ${what} » trop long (100 caractères au plus).` })
    .optional();

/**
 * GET /answer/overview/{chapterId}?limit=&offset=&sort=&dir=&student=&grader=&exercise= (decision 94). Without
 * `limit`, every row as before (the CSV export). With it, one page in the asked order, filtered by the three
 * accent-insensitive filters; `limit=0` asks for the counts alone (`total`, `matched`), a request of its own so
 * the first rows never wait for them.
 */
export const overviewQuerySchema = z
  .object({
    limit: pageLimit,
    offset: z.coerce
      .number({ error: OVERVIEW_OFFSET_MESSAGE })
      .int({ error: OVERVIEW_OFFSET_MESSAGE })
      .min(0, { error: OVERVIEW_OFFSET_MESSAGE })
      .max(OVERVIEW_OFFSET_MAX, { error: OVERVIEW_OFFSET_MESSAGE })
      .optional(),
    sort: z.enum(OVERVIEW_SORTS, { error: 'Tri invalide : date, student, grader, exercise ou grade est attendu.' }).optional(),
    dir: z.enum(['asc', 'desc'], { error: 'Sens de tri invalide : asc ou desc est attendu.' }).optional(),
    student: overviewFilter('Élève'),
    grader: overviewFilter('Correcteur'),
    exercise: overviewFilter('Exercice'),
  })
  .refine((v) => v.limit !== undefined || Object.entries(v).every(([k, x]) => k === 'limit' || x === undefined), {
    error: 'Le tri, les filtres et la position demandent une taille de page (« limit »).',
  });
export type OverviewQuery = z.infer<typeof overviewQuerySchema>;

/** One page of the overview: its rows, the next page's `offset` (null: none left), and the chapter's mode. */
export const overviewPageSchema = z.object({
  rows: z.array(overviewRowSchema),
  next: z.number().int().nullable(),
  /** Double correction: the rows carry both gradings and a status. */
  double: z.boolean(),
  /** With `limit=0` only: the chapter's graded copies, and those the filters keep. */
  total: z.number().int().optional(),
  matched: z.number().int().optional(),
});
export type OverviewPage = z.infer<typeof overviewPageSchema>;

export const unlabeledStatsSchema = z.object({ count: z.number().int() });
export const autoCorrectionSchema = z.object({ message: z.string(), graded: z.number().int(), unchanged: z.number().int() });
export type AutoCorrectionResult = z.infer<typeof autoCorrectionSchema>;
