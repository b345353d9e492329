import { z } from 'zod';
import { schemeItemsInputSchema } from './grading-rules.js';

/**
 * Copies that come back (docs/product.md#returned-copies, decisions 159–162): a corrector's marks on the pages of a
 * copy, the exercise's comment bank, a scheme change recomputed after a preview, and the corrected copy returned.
 * Coordinates are fractions of the page (0 = left/top, 1 = right/bottom), so a mark stays in place at any zoom.
 */

export const ANNOTATIONS_MAX = 400;
export const INK_POINTS_MAX = 1_000;
/** All the ink points of one copy: the desk simplifies strokes; the save's body stays under the 1 MiB of every route. */
export const ANNOTATION_POINTS_MAX = 20_000;
export const NOTE_TEXT_MAX = 1_000;
export const BANK_COMMENT_MAX = 500;
export const BANK_COMMENTS_MAX = 200;

const fraction = z
  .number({ error: 'Position invalide.' })
  .min(0, { error: 'Position hors de la page.' })
  .max(1, { error: 'Position hors de la page.' });
const base = {
  /** Stable per annotation (made by the browser): editing or moving keeps it; a regrade request may point at it. */
  id: z.string().min(1).max(64),
  /** 0-based page of the copy as the desk shows it. */
  page: z.number().int().min(0).max(999),
};

export const annotationSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      ...base,
      kind: z.literal('ink'),
      points: z
        .array(z.tuple([fraction, fraction]))
        .min(1)
        .max(INK_POINTS_MAX),
      color: z.enum(['red', 'blue', 'green']).default('red'),
    }),
    z.object({ ...base, kind: z.literal('box'), x: fraction, y: fraction, w: fraction, h: fraction }),
    z.object({ ...base, kind: z.literal('note'), x: fraction, y: fraction, text: z.string().trim().min(1).max(NOTE_TEXT_MAX) }),
    z.object({ ...base, kind: z.enum(['tick', 'cross']), x: fraction, y: fraction }),
    /** A marking-scheme item dropped where it applies. */
    z.object({ ...base, kind: z.literal('item'), x: fraction, y: fraction, itemId: z.string().min(1).max(64) }),
    /** A remark of the exercise's comment bank placed on the page (its text copied: the bank may change later). */
    z.object({
      ...base,
      kind: z.literal('bank'),
      x: fraction,
      y: fraction,
      bankId: z.string().min(1).max(64),
      text: z.string().max(BANK_COMMENT_MAX),
    }),
  ],
  { error: 'Annotation invalide.' },
);
export type Annotation = z.infer<typeof annotationSchema>;

export const annotationsSchema = z
  .array(annotationSchema, { error: 'Les annotations doivent être une liste.' })
  .max(ANNOTATIONS_MAX, { error: `Au plus ${ANNOTATIONS_MAX} annotations par copie.` })
  .refine((list) => list.reduce((n, a) => n + (a.kind === 'ink' ? a.points.length : 0), 0) <= ANNOTATION_POINTS_MAX, {
    error: `Trop de tracés sur cette copie (20\u202f000 points au plus) : effacez-en quelques-uns.`,
  });

/** The exercise's comment bank (GET/POST/PATCH /exos/{id}/comments): correctors apply, admins curate. */
export const bankCommentSchema = z.object({ _id: z.string(), text: z.string(), position: z.number().int(), uses: z.number().int() });
export type BankComment = z.infer<typeof bankCommentSchema>;
export const bankCommentInputSchema = z.object({
  text: z
    .string({ error: 'Remarque invalide.' })
    .trim()
    .min(1, { error: 'Écrivez la remarque.' })
    .max(BANK_COMMENT_MAX, { error: `Remarque trop longue (${BANK_COMMENT_MAX} caractères au plus).` }),
});

/** PATCH /exos/{id}/comments/{commentId} (admins): reword, or move to a place in the bank (0 = first). */
export const bankCommentPatchSchema = bankCommentInputSchema
  .partial()
  .extend({
    position: z
      .number({ error: 'Place invalide.' })
      .int({ error: 'Place invalide.' })
      .min(0, { error: 'Place invalide.' })
      .max(BANK_COMMENTS_MAX, { error: 'Place invalide.' })
      .optional(),
  })
  .refine((v) => v.text !== undefined || v.position !== undefined, { error: 'Rien à modifier : le texte ou la place est attendu.' });
export type BankCommentPatch = z.infer<typeof bankCommentPatchSchema>;

/** GET /stats/{chapterId}: an exercise's bank remarks with their uses, most used first (retired ones included, flagged). */
export const bankCommentUsesSchema = z.object({ _id: z.string(), text: z.string(), uses: z.number().int(), archived: z.boolean() });
export type BankCommentUses = z.infer<typeof bankCommentUsesSchema>;

/** POST /exos/{id}/scheme/preview: what changing the scheme's points would do to the grades already given. */
/** The body of POST /exos/{id}/scheme/preview: the scheme items as PATCH /exos/{id} would take them. */
export const schemeChangeInputSchema = z.object({ schemeItems: schemeItemsInputSchema });

export const schemeChangePreviewSchema = z.object({
  /** Gradings whose grade moves. */
  changed: z.number().int(),
  /** Smallest and largest move, in points (« de −1 à +0,5 »). */
  minDelta: z.number(),
  maxDelta: z.number(),
  /** Pupils whose published total moves (they are told). */
  publishedPupils: z.number().int(),
});
export type SchemeChangePreview = z.infer<typeof schemeChangePreviewSchema>;

/** A region of a page in page fractions (a regrade request may point at one, decision 162). */
export const pageRegionSchema = z.object(
  { x: fraction, y: fraction, w: fraction, h: fraction },
  { error: 'Zone invalide : x, y, largeur et hauteur en fractions de la page.' },
);
export type PageRegion = z.infer<typeof pageRegionSchema>;

/** One corrector's marks on a returned copy; `corrector` only when the chapter names its correctors (decision 162). */
export const returnedLayerSchema = z.object({ corrector: z.string().optional(), annotations: z.array(annotationSchema) });
export type ReturnedLayer = z.infer<typeof returnedLayerSchema>;

/** One exercise of a returned copy (GET /results/{chapterId}/copies). */
export const returnedExerciseSchema = z.object({
  _id: z.string(),
  title: z.string(),
  maxPoints: z.number(),
  grade: z.number().nullable(),
  excused: z.boolean(),
  comment: z.string(),
  /** The copy as the viewer takes it (« pdfs/<id>.pdf », served by GET /pdfs/{file}); null without a PDF answer. */
  pdf: z.string().nullable(),
  /** The marks of the grade that counts (decision 162): one layer, two for a settled double marking, none before. */
  layers: z.array(returnedLayerSchema),
  /** The texts of the marking-scheme items the marks point at. */
  items: z.array(z.object({ id: z.string(), text: z.string() })),
});
export type ReturnedExercise = z.infer<typeof returnedExerciseSchema>;

export const returnedCopiesSchema = z.object({
  chapter: z.object({ _id: z.string(), title: z.string() }),
  exercises: z.array(returnedExerciseSchema),
});
export type ReturnedCopies = z.infer<typeof returnedCopiesSchema>;

/** Decision 162: the chapter does not return its copies (403). */
export const COPIES_NOT_RETURNED_MESSAGE = 'Les copies corrigées de ce chapitre ne sont pas rendues aux élèves.';
