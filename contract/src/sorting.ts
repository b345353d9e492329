import { z } from 'zod';

/**
 * Sorting of scanned copies (docs/product.md#spec-2 "Triage", §3 "Sorting entry per page", docs/product.md#design-3 Sorting):
 * the shapes shared by the server routes and the sorting page.
 */

/** docs/product.md#spec-9: rotation steps of 90 degrees. */
export const ROTATIONS = [0, 90, 180, 270] as const;
export type Rotation = (typeof ROTATIONS)[number];

/** docs/product.md#design-3: a sorter holds the copy they opened this long. */
export const SORTING_RESERVATION_MINUTES = 10;

/** docs/product.md#spec-2 / §8 exact texts. */
export const SORTING_TITLE = 'Triage';
export const SORTING_EMPTY_TEXT = 'Aucune copie à trier pour le moment.';
export const SORTING_SAVE_LABEL = 'Sauvegarder et passer au fichier suivant';
/** Marks a page whose choices were read from the answer sheet's QR code and await confirmation. */
export const SORTING_SUGGESTION_TEXT = 'Suggestion lue sur le QR code';

const uuid = (error: string) => z.uuid({ error });

/** docs/product.md#spec-3 "Sorting entry per page": user null means a blank page, dropped. */
export const pageLabelSchema = z.object({
  pageNum: z
    .number({ error: 'Le numéro de page doit être un nombre.' })
    .int({ error: 'Le numéro de page doit être un nombre entier.' })
    .min(1, { error: 'Le numéro de page commence à 1.' }),
  exercises: z
    .array(uuid('Identifiant d’exercice invalide.'), { error: 'La liste des exercices est invalide.' })
    .max(100, { error: 'Trop d’exercices pour une page.' }),
  rotation: z.literal(ROTATIONS, { error: 'La rotation doit valoir 0, 90, 180 ou 270 degrés.' }),
  user: uuid('Identifiant d’élève invalide.').nullable(),
});
export type PageLabel = z.infer<typeof pageLabelSchema>;

/** A scan of a whole room stays far below this; the bound keeps one request from holding the server. */
export const LABEL_MAX_PAGES = 2000;

/** POST /answer/label/{answerId}: one entry per page. */
export const labelBodySchema = z
  .array(pageLabelSchema, { error: 'Une liste de pages est attendue.' })
  .max(LABEL_MAX_PAGES, { error: `Au plus ${LABEL_MAX_PAGES} pages par copie.` });
export type LabelBody = z.infer<typeof labelBodySchema>;

const ref = z.object({ _id: z.string(), name: z.string() });

/** A pupil offered by the picker: registered pupils of the chapter first (at the copy's centre first). */
export const sortingPupilSchema = z.object({
  _id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  grade: z.string().nullable(),
  /** The year of birth alone: with the class, what tells two pupils of one name and school apart. */
  birthYear: z.number().int().nullable(),
  institution: ref.nullable(),
  /** Registered to a centre for this chapter. */
  registered: z.boolean(),
  /** Registered at the centre of the copy's institution. */
  atCenter: z.boolean(),
});
export type SortingPupil = z.infer<typeof sortingPupilSchema>;

/** What the scan reader found on a page: a code, no ink at all, or neither. */
export const pageReadingSchema = z.enum(['read', 'unread', 'blank']);
export type PageReading = z.infer<typeof pageReadingSchema>;

/** The unlabelled copy handed to a sorter (docs/product.md#spec-3 "Unlabelled answer"). */
export const sortingCopySchema = z.object({
  _id: z.string(),
  /** pdfs/<uuid>.pdf */
  answer: z.string(),
  pages: z.number().int(),
  originalName: z.string(),
  institution: ref.nullable(),
  createdAt: z.string(),
  /** End of this sorter's reservation. */
  reservedUntil: z.string(),
  /** Per-page labels read from the QR codes, to confirm or correct; null when none. */
  suggestions: z.array(pageLabelSchema).nullable(),
  /** What the reader found on each page, in order; null until the scan was read. */
  pageReadings: z.array(pageReadingSchema).nullable(),
  /** Why the scan could not be read (French); null when it was, or is still to be. */
  readError: z.string().nullable(),
});
export type SortingCopy = z.infer<typeof sortingCopySchema>;

/** GET /answer/unlabeled/select/{chapterId}: the copy, what may be chosen for it; null when nothing is left. */
export const sortingSelectionSchema = z
  .object({
    copy: sortingCopySchema,
    chapter: z.object({ _id: z.string(), title: z.string() }),
    /** Copies of the chapter still to sort, this one included. */
    remaining: z.number().int(),
    /** The chapter's PDF-format exercises, in order. */
    exercises: z.array(z.object({ _id: z.string(), title: z.string() })),
    pupils: z.array(sortingPupilSchema),
  })
  .nullable();
export type SortingSelection = z.infer<typeof sortingSelectionSchema>;

/** GET /answer/unlabeled/pupils/{chapterId}?q=: every pupil matching the words (accent-insensitive). */
export const pupilSearchQuerySchema = z.object({
  q: z
    .string({ error: 'Texte de recherche manquant.' })
    .trim()
    .min(2, { error: 'Tapez au moins 2 caractères.' })
    .max(100, { error: 'Texte de recherche trop long.' }),
});
export const PUPIL_SEARCH_LIMIT = 20;
export const pupilSearchResultSchema = z.array(sortingPupilSchema);

/** POST /answer/label/{answerId}: what was created. */
export const labelResultSchema = z.object({
  message: z.string(),
  answers: z.array(
    z.object({ _id: z.string(), user: z.string(), exercise: z.string(), answer: z.string(), pages: z.array(z.number().int()) }),
  ),
});
export type LabelResult = z.infer<typeof labelResultSchema>;

/** POST /answer/relabel/ (admins). */
export const relabelBodySchema = z.object({ answerId: uuid('Identifiant de copie invalide.') });
export const relabelResultSchema = z.object({ message: z.string(), _id: z.string() });
export type RelabelResult = z.infer<typeof relabelResultSchema>;

/** The picker's text of a pupil: "Nom Prénom". */
export function pupilName(p: { firstName: string | null; lastName: string | null }): string {
  return `${p.lastName ?? ''} ${p.firstName ?? ''}`.trim() || 'Élève sans nom';
}
