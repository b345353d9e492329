import { z } from 'zod';
import { GENDERS, GRADES } from './profile.js';

/**
 * Selections: the jury's list of who goes on to the next round (docs/product.md#selections, decisions 155–158).
 * The shapes of the API and the one computation both sides share: the browser recomputes a category's list at
 * each move of a cut-off from the board, the server recomputes the same list when the jury freezes a version.
 */

export const SELECTION_TITLE_MAX = 120;
export const CATEGORY_NAME_MAX = 80;
export const SELECTION_CATEGORIES_MAX = 12;
export const SELECTION_CHAPTERS_MAX = 6;
export const DECISION_REASON_MAX = 300;

const isoDate = z.iso.date({ error: 'Date invalide (format AAAA-MM-JJ attendu).' });
const instant = z.iso.datetime({ offset: true, error: 'Date et heure de publication invalides.' });
const uuid = (what: string) => z.uuid({ error: `Identifiant ${what} invalide.` });

/** What a jury group may do on a selection: read the board, or also move cut-offs, decide and freeze. */
export const JURY_RIGHTS = ['read', 'decide'] as const;
export type JuryRight = (typeof JURY_RIGHTS)[number];
/** The caller's own right on a selection: an admin does everything a jury may, and more. */
export type SelectionRight = JuryRight | 'admin';

/** Pupils exactly at a category's cut-off: included or excluded as one group, never split (decision 156). */
export const AT_CUTOFF = ['include', 'exclude'] as const;
export type AtCutoff = (typeof AT_CUTOFF)[number];

/** A category: a filter on the grade, gender and birth date a pupil had when they started (decision 155). */
export const categoryInputSchema = z
  .object({
    _id: uuid('de catégorie').optional(),
    name: z
      .string({ error: 'Nom de catégorie invalide.' })
      .trim()
      .min(1, { error: 'Indiquez le nom de la catégorie.' })
      .max(CATEGORY_NAME_MAX, { error: `Le nom de la catégorie est trop long (${CATEGORY_NAME_MAX} caractères au plus).` }),
    genders: z.array(z.enum(GENDERS, { error: 'Genre invalide.' })).default([]),
    grades: z.array(z.enum(GRADES, { error: 'Classe invalide.' })).default([]),
    birthDateMin: isoDate.nullable().default(null),
    birthDateMax: isoDate.nullable().default(null),
  })
  .refine((c) => !c.birthDateMin || !c.birthDateMax || c.birthDateMax >= c.birthDateMin, {
    error: 'La date de naissance maximale précède la minimale.',
    path: ['birthDateMax'],
  });
export type CategoryInput = z.output<typeof categoryInputSchema>;

/** The jury's settings of one category: where the cut-off is and the quotas. */
export const cutoffSchema = z.object({
  /** Points: above, selected; exactly at it, the tie group `atCutoff` decides; null, nobody selected yet. */
  cutoff: z.number({ error: 'Le seuil doit être un nombre de points.' }).min(0, { error: 'Le seuil ne peut pas être négatif.' }).nullable(),
  atCutoff: z.enum(AT_CUTOFF, { error: 'Choix des ex æquo invalide.' }).nullable(),
  /** At least this many girls selected: the best girls below the cut-off are added (null: no quota). */
  minGirls: z.number().int({ error: 'Quota invalide.' }).min(1, { error: 'Quota invalide.' }).max(100_000).nullable(),
  /** At most this many pupils of one school: the lowest of a school over it are left out (null: no quota). */
  maxPerSchool: z.number().int({ error: 'Quota invalide.' }).min(1, { error: 'Quota invalide.' }).max(100_000).nullable(),
});
export type CutoffSettings = z.output<typeof cutoffSchema>;

export const categorySchema = z.object({
  _id: z.string(),
  name: z.string(),
  genders: z.array(z.string()),
  grades: z.array(z.string()),
  birthDateMin: z.string().nullable(),
  birthDateMax: z.string().nullable(),
  ...cutoffSchema.shape,
});
export type Category = z.infer<typeof categorySchema>;

/** POST /selection and PATCH /selection/{id} (admins). */
export const selectionInputSchema = z.object({
  title: z
    .string({ error: 'Titre invalide.' })
    .trim()
    .min(1, { error: 'Indiquez le titre de la sélection.' })
    .max(SELECTION_TITLE_MAX, { error: `Le titre est trop long (${SELECTION_TITLE_MAX} caractères au plus).` }),
  /** The chapters whose totals, times their weight, make a pupil's score. */
  chapters: z
    .array(
      z.object({
        chapterId: uuid('de chapitre'),
        weight: z.number({ error: 'Coefficient invalide.' }).positive({ error: 'Le coefficient doit être positif.' }).max(100),
      }),
    )
    .min(1, { error: 'Choisissez au moins un chapitre.' })
    .max(SELECTION_CHAPTERS_MAX, { error: `Au plus ${SELECTION_CHAPTERS_MAX} chapitres.` }),
  categories: z
    .array(categoryInputSchema)
    .min(1, { error: 'Définissez au moins une catégorie.' })
    .max(SELECTION_CATEGORIES_MAX, { error: `Au plus ${SELECTION_CATEGORIES_MAX} catégories.` }),
  /** What the qualified pupils read and their letter says: « Qualifié(e) pour {nextRoundTitle} ». */
  nextRoundTitle: z.string().trim().min(1, { error: 'Indiquez le tour suivant.' }).max(120, { error: 'Titre du tour suivant trop long.' }),
  nextRoundDate: isoDate.nullable().default(null),
  nextRoundPlace: z.string().trim().max(300, { error: 'Lieu trop long (300 caractères au plus).' }).default(''),
  juryGroupId: uuid('de groupe').nullable().default(null),
  juryRight: z.enum(JURY_RIGHTS, { error: 'Droit du jury invalide (read ou decide).' }).default('read'),
});
export type SelectionInput = z.output<typeof selectionInputSchema>;

export const versionSummarySchema = z.object({
  number: z.number().int(),
  frozenAt: z.string(),
  frozenBy: z.string(),
  reason: z.string(),
  qualified: z.number().int(),
  participants: z.number().int(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;

/** GET /selection/{id}. */
export const selectionSchema = z.object({
  _id: z.string(),
  title: z.string(),
  chapters: z.array(z.object({ chapterId: z.string(), title: z.string(), weight: z.number() })),
  categories: z.array(categorySchema),
  nextRoundTitle: z.string(),
  nextRoundDate: z.string().nullable(),
  nextRoundPlace: z.string(),
  juryGroupId: z.string().nullable(),
  juryRight: z.enum(JURY_RIGHTS),
  publishAt: z.string().nullable(),
  published: z.boolean(),
  /** Names on the board: once a version is frozen, or when an admin lifted the anonymity (audited). */
  namesShown: z.boolean(),
  versions: z.array(versionSummarySchema),
  right: z.enum(['read', 'decide', 'admin']),
});
export type Selection = z.infer<typeof selectionSchema>;

export const selectionSummarySchema = selectionSchema
  .pick({ _id: true, title: true, published: true, publishAt: true, right: true })
  .extend({
    versions: z.number().int(),
  });
export type SelectionSummary = z.infer<typeof selectionSummarySchema>;

export const DECISIONS = ['include', 'exclude'] as const;
export type DecisionKind = (typeof DECISIONS)[number];

/** PUT /selection/{id}/decision: include or exclude one pupil of one category, with a reason; `decision: null` undoes it. */
export const decisionInputSchema = z.object({
  categoryId: uuid('de catégorie'),
  /** The pupil's key on the board (their pseudonym while deliberation is anonymous). */
  key: z.string().min(1).max(64),
  decision: z.enum(DECISIONS, { error: 'Décision invalide (include ou exclude).' }).nullable(),
  reason: z
    .string()
    .trim()
    .max(DECISION_REASON_MAX, { error: `Motif trop long (${DECISION_REASON_MAX} caractères au plus).` })
    .default(''),
});

export const decisionSchema = z.object({
  categoryId: z.string(),
  key: z.string(),
  decision: z.enum(DECISIONS),
  reason: z.string(),
  by: z.string(),
  at: z.string(),
});
export type Decision = z.infer<typeof decisionSchema>;

/**
 * GET /selection/{id}/board: every participant in columns, sorted by score (highest first), so that the browser
 * recomputes any category's list in a few milliseconds. Index i of each array is the same pupil.
 */
export const boardSchema = z.object({
  exercises: z.array(z.object({ chapterTitle: z.string(), title: z.string(), maxPoints: z.number() })),
  maxScore: z.number(),
  /** Pseudonyms (« C-7KQ2P ») while deliberation is anonymous; with names once shown. */
  keys: z.array(z.string()),
  names: z.array(z.string()).nullable(),
  scores: z.array(z.number()),
  /** Bit c set: the pupil is in category c (categories in the selection's order). */
  masks: z.array(z.number().int()),
  girls: z.array(z.number().int()),
  /** Index in `schools`, -1 for none. */
  schools: z.array(z.number().int()),
  schoolTable: z.array(z.object({ sector: z.string().nullable(), academy: z.string().nullable(), name: z.string().nullable() })),
  /** Row-major, `exercises.length` per pupil; null: not answered or not graded. */
  exerciseScores: z.array(z.number().nullable()),
  decisions: z.array(decisionSchema),
  /** Since the last version: pupils whose status would change with its settings on today's grades (a regrade). */
  drift: z.array(z.object({ key: z.string(), categoryId: z.string(), was: z.boolean(), now: z.boolean(), score: z.number() })),
});
export type Board = z.infer<typeof boardSchema>;

/** POST /selection/{id}/freeze: a new numbered version; from the second on, a reason is required. */
export const freezeInputSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(DECISION_REASON_MAX, { error: `Motif trop long (${DECISION_REASON_MAX} caractères au plus).` })
    .default(''),
});

/** GET /selection/{id}/versions/{n}/changes?from=m: who changed status between two versions. */
export const versionChangesSchema = z.array(
  z.object({ key: z.string(), name: z.string().nullable(), categoryId: z.string(), before: z.boolean(), after: z.boolean() }),
);

/** PUT /selection/{id}/publication (admins): same rules as a chapter's results. */
export const selectionPublicationSchema = z
  .object({
    mode: z.enum(['now', 'scheduled', 'unpublished'], { error: 'Mode de publication invalide (now, scheduled ou unpublished).' }),
    publishAt: instant.nullable().default(null),
  })
  .refine((p) => p.mode !== 'scheduled' || p.publishAt !== null, {
    error: 'Indiquez la date et l’heure de publication.',
    path: ['publishAt'],
  });

/** GET /selection/mine: what a pupil reads on their results page, once a selection is published. */
export const ownQualificationSchema = z.object({
  selectionId: z.string(),
  title: z.string(),
  qualified: z.boolean(),
  /** The category the pupil is qualified in (the first in order), or the first they were in. */
  category: z.string(),
  cutoff: z.number().nullable(),
  score: z.number(),
  nextRoundTitle: z.string(),
  nextRoundDate: z.string().nullable(),
  nextRoundPlace: z.string(),
});
export type OwnQualification = z.infer<typeof ownQualificationSchema>;

export const qualifiedText = (q: Pick<OwnQualification, 'qualified' | 'nextRoundTitle'>) =>
  q.qualified ? `Qualifié(e) pour ${q.nextRoundTitle}` : 'Non qualifié(e)';

export const TIE_UNRESOLVED_MESSAGE = (category: string) =>
  `Départagez les ex æquo au seuil de la catégorie « ${category} » : incluez-les ou excluez-les tous.`;
export const CUTOFF_MISSING_MESSAGE = (category: string) => `Fixez le seuil de la catégorie « ${category} ».`;
/** PUT …/cutoff: a cut-off no pupil can reach is a typing slip, refused (the maximum is Σ weight × chapter maximum). */
export const cutoffAboveMaxMessage = (maxScore: number) =>
  `Le seuil dépasse le score maximal de la sélection (${String(roundScore(maxScore)).replace('.', ',')}\u00a0points).`;
export const DECISION_REASON_MISSING_MESSAGE = 'Indiquez le motif de la décision.';
export const VERSION_REASON_MISSING_MESSAGE = 'Indiquez le motif de cette nouvelle version de la liste.';
export const NAMES_HIDDEN_MESSAGE = 'Les noms restent masqués jusqu’au gel de la liste.';
export const SELECTION_NOT_PUBLISHED_MESSAGE = 'Cette sélection n’est pas encore publiée.';

/** Scores within this of each other are equal (sums of weighted decimals). */
export const SCORE_EPSILON = 1e-6;
export const roundScore = (s: number) => Math.round(s * 10_000) / 10_000;

export type SelectionReason = 'score' | 'tie' | 'girls' | 'school' | 'manual';

/** One category's list, in the board's order (score descending), over the pupils of the category only. */
export interface CategoryOutcome {
  /** Board indexes of the category's pupils, best first. */
  members: number[];
  /** Parallel to `members`: selected or not, and why (`school`: left out by the per-school quota). */
  selected: boolean[];
  reasons: (SelectionReason | null)[];
  count: number;
  girls: number;
  /** Board indexes of the pupils exactly at the cut-off. */
  atCutoff: number[];
  /** Pupils at the cut-off whose fate the jury has not chosen (freezing waits for it). */
  tieUnresolved: boolean;
  /** The girls' quota could not be met (not enough girls in the category). */
  girlsShort: boolean;
}

export interface BoardColumns {
  scores: readonly number[];
  masks: readonly number[];
  girls: readonly number[];
  schools: readonly number[];
}

/**
 * Decision 156: a category's list. Above the cut-off, selected; at it, the tie group as one (`atCutoff`); then the
 * per-school quota leaves out, in score order, those over it; then the girls' quota adds the best girls left out,
 * within the school quota; last, the jury's own decisions (include, exclude) override all. Pure, O(n): run at
 * each move of a slider over 10,000 pupils (docs/product.md#selections, « moving a cut-off < 50 ms »).
 */
export function computeCategory(
  board: BoardColumns,
  categoryIndex: number,
  settings: CutoffSettings,
  decisions: ReadonlyMap<number, DecisionKind> = new Map(),
): CategoryOutcome {
  const bit = 1 << categoryIndex;
  const members: number[] = [];
  for (let i = 0; i < board.scores.length; i++) if ((board.masks[i]! & bit) !== 0) members.push(i);
  const selected = new Array<boolean>(members.length).fill(false);
  const reasons = new Array<SelectionReason | null>(members.length).fill(null);
  const atCutoff: number[] = [];
  const { cutoff } = settings;
  if (cutoff !== null) {
    members.forEach((i, k) => {
      const s = board.scores[i]!;
      if (s > cutoff + SCORE_EPSILON) [selected[k], reasons[k]] = [true, 'score'];
      else if (Math.abs(s - cutoff) <= SCORE_EPSILON) {
        atCutoff.push(i);
        if (settings.atCutoff === 'include') [selected[k], reasons[k]] = [true, 'tie'];
      }
    });
  }
  const perSchool = new Map<number, number>();
  const schoolFull = (school: number) =>
    settings.maxPerSchool !== null && school >= 0 && (perSchool.get(school) ?? 0) >= settings.maxPerSchool;
  const take = (k: number) => {
    const school = board.schools[members[k]!]!;
    if (school >= 0) perSchool.set(school, (perSchool.get(school) ?? 0) + 1);
  };
  members.forEach((i, k) => {
    if (decisions.get(i) === 'exclude' || !selected[k]) return;
    if (schoolFull(board.schools[i]!)) [selected[k], reasons[k]] = [false, 'school'];
    else take(k);
  });
  let girls = members.reduce((n, i, k) => n + (selected[k] && decisions.get(i) !== 'exclude' && board.girls[i] ? 1 : 0), 0);
  if (settings.minGirls !== null && girls < settings.minGirls) {
    for (let k = 0; k < members.length && girls < settings.minGirls; k++) {
      const i = members[k]!;
      if (selected[k] || !board.girls[i] || decisions.get(i) === 'exclude' || schoolFull(board.schools[i]!)) continue;
      [selected[k], reasons[k]] = [true, 'girls'];
      take(k);
      girls++;
    }
  }
  members.forEach((i, k) => {
    const d = decisions.get(i);
    if (d) [selected[k], reasons[k]] = [d === 'include', 'manual'];
  });
  const count = selected.filter(Boolean).length;
  girls = members.reduce((n, i, k) => n + (selected[k] && board.girls[i] ? 1 : 0), 0);
  return {
    members,
    selected,
    reasons,
    count,
    girls,
    atCutoff,
    tieUnresolved: atCutoff.length > 0 && settings.atCutoff === null,
    girlsShort: settings.minGirls !== null && girls < settings.minGirls,
  };
}

/** « Les N premiers »: the cut-off that selects the category's first n (the score of the n-th; ties at it form the group). */
export function cutoffForTop(board: BoardColumns, categoryIndex: number, n: number): number | null {
  if (n < 1) return null;
  const bit = 1 << categoryIndex;
  let seen = 0;
  for (let i = 0; i < board.scores.length; i++) {
    if ((board.masks[i]! & bit) === 0) continue;
    if (++seen === n) return board.scores[i]!;
  }
  return seen > 0 ? board.scores[lastOf(board, bit)]! : null;
}

function lastOf(board: BoardColumns, bit: number): number {
  for (let i = board.scores.length - 1; i >= 0; i--) if ((board.masks[i]! & bit) !== 0) return i;
  return -1;
}

/** The histogram of a category's scores in `bins` equal bins from 0 to `max`, and the count at or above each bin's start. */
export function distribution(
  board: BoardColumns,
  categoryIndex: number,
  max: number,
  bins: number,
): { counts: number[]; atLeast: number[] } {
  const bit = 1 << categoryIndex;
  const counts = new Array<number>(bins).fill(0);
  const width = max > 0 ? max / bins : 1;
  for (let i = 0; i < board.scores.length; i++) {
    if ((board.masks[i]! & bit) === 0) continue;
    counts[Math.min(bins - 1, Math.max(0, Math.floor(board.scores[i]! / width)))]!++;
  }
  const atLeast = new Array<number>(bins).fill(0);
  for (let b = bins - 1, acc = 0; b >= 0; b--) atLeast[b] = acc += counts[b]!;
  return { counts, atLeast };
}

/** GET /selection/{id}/school?institution=: a school's qualified pupils, once published (its staff; admins name the school). */
export const schoolQualifiedSchema = z.array(
  z.object({
    _id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    grade: z.string().nullable(),
    category: z.string(),
    score: z.number(),
  }),
);
export type SchoolQualified = z.infer<typeof schoolQualifiedSchema>;

/** GET /selection/published (school staff and admins): the published selections, which the school page lists. */
export const publishedSelectionsSchema = z.array(
  selectionSchema.pick({ _id: true, title: true, nextRoundTitle: true, nextRoundDate: true, nextRoundPlace: true }),
);
export type PublishedSelection = z.infer<typeof publishedSelectionsSchema>[number];
