import { z } from 'zod';

/**
 * Answer sheets with QR codes (paper chapters): the download a centre's staff print for their
 * pupils, and the blank sheet whose name is written by hand.
 */

export const SHEETS_DOWNLOAD_LABEL = 'Télécharger les feuilles réponses';
export const SHEETS_BLANK_LABEL = 'Feuille vierge';

/** Extra answer pages printed after each exercise's first page. */
export const SHEET_SPARE_DEFAULT = 2;
export const SHEET_SPARE_MAX = 5;

export const sheetQuerySchema = z.object({
  /** The centre's institution (admins; school staff default to their own). */
  institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).optional(),
  spare: z.coerce
    .number({ error: 'Le nombre de pages supplémentaires doit être un nombre.' })
    .int({ error: 'Le nombre de pages supplémentaires doit être un nombre entier.' })
    .min(0, { error: 'Le nombre de pages supplémentaires ne peut pas être négatif.' })
    .max(SHEET_SPARE_MAX, { error: `Au plus ${SHEET_SPARE_MAX} pages supplémentaires par exercice.` })
    .default(SHEET_SPARE_DEFAULT),
});
export type SheetQuery = z.input<typeof sheetQuerySchema>;

/** GET /sheets/{chapterId}/link: a short-lived download URL; `blank=1` for the blank sheet. */
export const sheetLinkQuerySchema = sheetQuerySchema.extend({
  blank: z.enum(['1'], { error: 'Paramètre blank invalide (1 attendu).' }).optional(),
});
export type SheetLinkQuery = z.input<typeof sheetLinkQuerySchema>;
