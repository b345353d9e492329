import { z } from 'zod';
import { schemeItemsInputSchema } from './grading-rules.js';

/**
 * Copies that come back (docs/product.md#returned-copies, decisions 159–162): a corrector's marks on the pages of a
 * copy, the exercise's comment bank, a scheme change recomputed after a preview, and the corrected copy returned.
 * Coordinates are fractions of the page (0 = left/top, 1 = right/bottom), so a mark stays in place at any zoom.
 */

export const ANNOTATIONS_MAX = 400;
export const INK_POINTS_MAX = 2_000;
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
  .max(ANNOTATIONS_MAX, { error: `Au plus ${ANNOTATIONS_MAX} annotations par copie.` });

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
