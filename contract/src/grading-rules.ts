import { z } from 'zod';

/**
 * Marks and the corrector's desk (decisions 61–65): points per exercise, marking-scheme items, anonymous and
 * double correction, assignment of exercises to correctors. Schemas shared by the server and the web
 * app, and the pure rules both apply (pseudonyms, the double-correction settlement, item sums).
 */

/** A person as grading responses name them; under anonymous correction a pupil is only a pseudonym. */
export const personSchema = z.object({
  _id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  /** « Copie 0042 »: set (and the names null) when the caller grades an anonymous chapter (decision 62). */
  pseudonym: z.string().optional(),
});
export type Person = z.infer<typeof personSchema>;

// ---------------------------------------------------------------------------------------------
// Points and marking scheme

export const MAX_POINTS_DEFAULT = 1;
export const MAX_POINTS_LIMIT = 10_000;
export const SCHEME_ITEMS_MAX = 30;
export const SCHEME_ITEM_TEXT_MAX = 200;

/** Points: a number ≥ 0 with at most two decimals (half or quarter points are common in a jury). */
const points = (what: string) =>
  z
    .number({ error: `${what} doit être un nombre.` })
    .min(0, { error: `${what} ne peut pas être négatif.` })
    .max(MAX_POINTS_LIMIT, { error: `${what} est trop grand.` })
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, {
      error: `${what} a au plus deux décimales.`,
    });

/** The maximum of an exercise (`maxPoints`), editable with PATCH /exos/{id}. */
export const maxPointsSchema = points('Le barème de l’exercice');

/** A marking-scheme item as stored and sent: `id` is stable, grades keep the ids of the items ticked. */
export const schemeItemSchema = z.object({ id: z.string(), text: z.string(), points: z.number() });
export type SchemeItem = z.infer<typeof schemeItemSchema>;

/** A marking-scheme item as an admin sends it (PATCH /exos/{id}): without `id` a new item gets one. */
export const schemeItemInputSchema = z.object({
  id: z.uuid({ error: 'Identifiant d’élément de barème invalide.' }).optional(),
  text: z
    .string({ error: 'Le texte de l’élément de barème doit être un texte.' })
    .trim()
    .min(1, { error: 'Un élément de barème doit avoir un texte.' })
    .max(SCHEME_ITEM_TEXT_MAX, { error: `Le texte d’un élément de barème a au plus ${SCHEME_ITEM_TEXT_MAX} caractères.` }),
  points: points('Les points d’un élément de barème'),
});
export type SchemeItemInput = z.output<typeof schemeItemInputSchema>;

export const schemeItemsInputSchema = z
  .array(schemeItemInputSchema, { error: 'Le barème doit être une liste d’éléments.' })
  .max(SCHEME_ITEMS_MAX, { error: `Un exercice a au plus ${SCHEME_ITEMS_MAX} éléments de barème.` });

/** Sum of points, rounded to 4 decimals (0.1 + 0.2). */
export function sumPoints(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return Math.round(sum * 10_000) / 10_000;
}

/** The grade the ticked items give (their sum), as stored text ('2.5'). */
export function gradeFromItems(items: readonly SchemeItem[], ticked: readonly string[]): string {
  const chosen = new Set(ticked);
  return String(sumPoints(items.filter((i) => chosen.has(i.id)).map((i) => i.points)));
}

/** French message of a grade above the maximum (400). */
export function gradeAboveMaxMessage(maxPoints: number): string {
  return `Note trop élevée : cet exercice est noté sur ${formatPoints(maxPoints)}.`;
}
export const GRADE_NEGATIVE_MESSAGE = 'Une note ne peut pas être négative.';

/** Points in French: decimal comma, no trailing zeros (« 2,5 »). */
export function formatPoints(n: number): string {
  return String(Math.round(n * 10_000) / 10_000).replace('.', ',');
}

/**
 * A stored grade as every page shows it (« 6,5 »): a number in points with the decimal comma; any
 * other value (X, the cells « ? », « ≠ », « - ») as it is; none gives ''.
 */
export function formatGrade(grade: string | null | undefined): string {
  if (grade === null || grade === undefined) return '';
  return /^\d+(\.\d+)?$/.test(grade) ? formatPoints(Number(grade)) : grade;
}

/** The columns before the points in the chapter's grade exports (CSV and XLSX, docs/product.md#spec-9). */
export const GRADES_EXPORT_HEADER = ['E-mail', 'Prénom', 'Nom', 'Classe', 'Genre', 'Date de naissance'] as const;

/** An export header that says what the column is graded on (decision 61): « Total (/ 42) », « Somme (/ 7) ». */
export const outOf = (label: string, maximum: number | undefined) =>
  maximum === undefined ? label : `${label} (/ ${formatPoints(maximum)})`;

/** « 12,5 / 20 »: a total and its maximum with a non-breaking space around the slash. */
export function formatTotal(total: number, maximum: number): string {
  return `${formatPoints(total)}\u00a0/\u00a0${formatPoints(maximum)}`;
}

// ---------------------------------------------------------------------------------------------
// Anonymous correction

/** « Copie 0042 »: the pseudonym of a pupil in one chapter (numbers are per chapter, in a random order). */
export function pseudonymOf(number: number): string {
  return `Copie ${String(number).padStart(4, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Double correction

export const TOLERANCE_MAX = 1_000;

/** Chapter options of grading, PATCH /chapter/{id} (admins), also shown by GET /chapter/{id} to staff. */
export const gradingOptionsSchema = z.object({
  anonymousGrading: z.boolean({ error: 'Le champ « Correction anonyme » doit valoir vrai ou faux.' }),
  doubleGrading: z.boolean({ error: 'Le champ « Double correction » doit valoir vrai ou faux.' }),
  /** Points: two grades further apart than this go to arbitration. */
  gradingTolerance: points('La tolérance de double correction'),
});
export type GradingOptions = z.infer<typeof gradingOptionsSchema>;

/**
 * Where a copy stands in double correction: no grading yet, one of two, both in and settled by their
 * mean, both in and too far apart (awaiting an admin), or settled by an admin's arbitration.
 */
export const DOUBLE_STATUSES = ['none', 'partial', 'arbitration', 'settled', 'arbitrated'] as const;
export type DoubleStatus = (typeof DOUBLE_STATUSES)[number];

/** Table cell of a copy awaiting arbitration (docs/product.md#spec-3 cell values). */
export const CELL_ARBITRATION = '≠';

/**
 * The settlement of two independent grades (decision « double correction »): both X → X; one X and
 * one number → arbitration; numbers within the tolerance → their mean rounded to the hundredth
 * (half up); further apart → arbitration. `grade` is null unless settled.
 */
export function settleDouble(a: string, b: string, tolerance: number): { status: 'settled' | 'arbitration'; grade: string | null } {
  if (a === 'X' && b === 'X') return { status: 'settled', grade: 'X' };
  const x = Number(a);
  const y = Number(b);
  if (a === 'X' || b === 'X' || !Number.isFinite(x) || !Number.isFinite(y)) return { status: 'arbitration', grade: null };
  if (Math.abs(x - y) > tolerance + 1e-9) return { status: 'arbitration', grade: null };
  const mean = Math.round(((x + y) / 2) * 100 + 1e-9) / 100;
  return { status: 'settled', grade: String(mean) };
}

/** One corrector's grading of a copy (double correction, and the grader of a single one). */
export const gradingViewSchema = z.object({
  grader: personSchema.nullable(),
  grade: z.string().nullable(),
  grade_comment: z.string(),
  /** Ids of the marking-scheme items ticked. */
  items: z.array(z.string()),
  timestamp: z.string(),
  /** True for an admin's arbitration. */
  arbitration: z.boolean(),
});
export type GradingView = z.infer<typeof gradingViewSchema>;

// ---------------------------------------------------------------------------------------------
// The desk: what a corrector has beside one copy (GET /answer/history/{uid}/{eid}, staff only)

/** What the caller's save does on this copy: the only grade, first or second of two, an arbitration, or nothing left to do. */
export const DESK_ROLES = ['single', 'first', 'second', 'arbiter', 'done'] as const;
export type DeskRole = (typeof DESK_ROLES)[number];

export const deskSchema = z.object({
  chapter: z.object({
    _id: z.string(),
    title: z.string(),
    anonymousGrading: z.boolean(),
    doubleGrading: z.boolean(),
    gradingTolerance: z.number(),
  }),
  /** The statement of the version this pupil received (Markdown + LaTeX), and its position (1-based). */
  statement: z.string(),
  version: z.number().int(),
  /** Expected answer of that version, numeric exercises only (null otherwise or when unset). */
  expectedAnswer: z.string().nullable(),
  maxPoints: z.number(),
  schemeItems: z.array(schemeItemSchema),
  /** Double correction: where the copy stands, and the gradings the caller may see (their own; all once both are in). */
  status: z.enum(DOUBLE_STATUSES).optional(),
  gradings: z.array(gradingViewSchema).optional(),
  role: z.enum(DESK_ROLES),
  /** Ids of the items ticked in the grade block shown (`result`). */
  items: z.array(z.string()),
  /**
   * Decision 139: sorting added pages to (or took pages from) this copy after it was graded; the grade is kept
   * and the desk shows « pages ajoutées après la note » until a corrector saves a grade again or dismisses it.
   */
  pagesAddedAfterGrade: z.boolean().optional(),
});
export type Desk = z.infer<typeof deskSchema>;

// ---------------------------------------------------------------------------------------------
// Grading table additions

/** Per exercise: copies answered with 0, 1, 2 gradings and awaiting arbitration (single correction: 0 or 1). */
export const exerciseProgressSchema = z.object({
  exercise: z.string(),
  answered: z.number().int(),
  graded0: z.number().int(),
  graded1: z.number().int(),
  graded2: z.number().int(),
  arbitration: z.number().int(),
});
export type ExerciseProgress = z.infer<typeof exerciseProgressSchema>;

/** Per corrector: copies graded in the chapter (current copies) and the mean of their numeric grades. */
export const correctorProgressSchema = z.object({
  corrector: personSchema,
  copies: z.number().int(),
  meanGrade: z.number().nullable(),
});
export type CorrectorProgress = z.infer<typeof correctorProgressSchema>;

// ---------------------------------------------------------------------------------------------
// Arbitration and assignments

/** GET /answer/arbitration/{chapterId} (admins): copies whose two grades are too far apart. */
export const arbitrationRowSchema = z.object({
  answerId: z.string(),
  /** "{userId}/{exerciseId}" for /history/{url}. */
  url: z.string(),
  student: personSchema,
  exercise: z.object({ _id: z.string(), title: z.string(), maxPoints: z.number() }),
  gradings: z.array(gradingViewSchema),
});
export type ArbitrationRow = z.infer<typeof arbitrationRowSchema>;

/** GET /chapter/{id}/assignments (members, admins): who grades which exercise; an empty list means anyone. */
export const assignmentsSchema = z.object({
  exercises: z.array(z.object({ _id: z.string(), title: z.string(), correctors: z.array(z.string()) })),
  /** The correctors an admin may choose from (members and admins). */
  correctors: z.array(personSchema),
});
export type Assignments = z.infer<typeof assignmentsSchema>;

/** PUT /chapter/{id}/assignments (admins): replaces the chapter's assignments; exercises left out are open to anyone. */
export const assignmentsSaveSchema = z.object({
  assignments: z
    .array(
      z.object({
        exercise: z.uuid({ error: 'Exercice invalide.' }),
        correctors: z.array(z.uuid({ error: 'Correcteur invalide.' })).max(200, { error: 'Trop de correcteurs.' }),
      }),
    )
    .max(200, { error: 'Trop d’exercices.' }),
});
export type AssignmentsSave = z.output<typeof assignmentsSaveSchema>;

export const NOT_ASSIGNED_MESSAGE = 'Cet exercice est attribué à d’autres correcteurs : aucune copie ne vous est proposée.';
