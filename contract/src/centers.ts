import { z } from 'zod';
import { centerDayStatsSchema, centerDetailsPatchSchema, centerDetailsSchema } from './exam-day.js';
import { GRADES } from './user.js';

/** docs/product.md#design-3 Centres: the status of an institution for one paper chapter, as the selection map shows it. */
export const CENTER_STATUSES = ['unknown', 'yes', 'center', 'no', 'full'] as const;
export type CenterStatus = (typeof CENTER_STATUSES)[number];

/** Legend of the centre map (one colour per status). */
export const CENTER_STATUS_LABELS: Record<CenterStatus, string> = {
  center: 'Centre pôle (ouvert à tous)',
  yes: 'Centre ouvert',
  full: 'Centre complet',
  unknown: 'Réponse de l’établissement en attente',
  no: 'N’organise pas l’épreuve',
};

/** docs/product.md#spec-9: the centre map draws at most 500 centres. */
export const CENTER_MAP_MAX_MARKERS = 500;
/** docs/product.md#spec-9: default number of places for outside pupils. */
export const DEFAULT_NB_PLACES = 0;
export const CENTER_INSTRUCTIONS_MAX = 20_000;
export const NB_PLACES_MAX = 100_000;

/** docs/product.md#spec-8 exact texts. */
export const NO_INSTRUCTIONS_TEXT = 'Les instructions pour ce centre ne sont pas encore disponibles.';
export const NO_OWN_PUPILS_TEXT = 'Aucun élève de votre établissement n’est inscrit pour l’instant.';
export const NO_OUTSIDE_PUPILS_TEXT = 'Aucun élève extérieur n’est inscrit pour l’instant.';
export const CENTER_FULL_MESSAGE = 'Ce centre est complet.';

const ref = z.object({ _id: z.string(), name: z.string() });

/** A pupil registered at a centre (docs/product.md#spec-3 Centre.members). */
export const centerMemberSchema = z.object({
  _id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  grade: z.enum(GRADES).nullable(),
  institution: ref.nullable(),
  /**
   * The pupil moved to their current school after the chapter was opened (a claim that makes them
   * fit a full centre as one of its own): when, and from which school. Absent otherwise.
   */
  schoolChange: z.object({ at: z.string(), previous: ref.nullable() }).optional(),
  /** Attendance recorded by the centre's staff (decision 59); null until recorded. */
  present: z.boolean().nullable().optional(),
});
export type CenterMember = z.infer<typeof centerMemberSchema>;

/** POST /center/refuse/{chapterId}: the centre's staff turn away a pupil who claims their school. */
export const centerRefusalSchema = z.object({
  user: z.uuid({ error: 'Identifiant d’élève invalide.' }),
  institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).optional(),
});
export type CenterRefusal = z.infer<typeof centerRefusalSchema>;

/** GET /center/{chapterId}: the centre of one institution (the caller's for school staff). */
export const centerSchema = z.object({
  institution: ref,
  opened: z.boolean().nullable(),
  instructions: z.string(),
  nb_places: z.number().int(),
  isPole: z.boolean(),
  status: z.enum(CENTER_STATUSES),
  members: z.array(centerMemberSchema),
  /** The details as set by the centre (null: the default applies) and as pupils see them. */
  details: centerDetailsSchema,
  own: z.object({ sittingAt: z.string().nullable(), address: z.string().nullable(), room: z.string(), bring: z.string() }),
  stats: centerDayStatsSchema,
});
export type Center = z.infer<typeof centerSchema>;

const nbPlaces = z
  .number({ error: 'Le nombre de places doit être un nombre.' })
  .int({ error: 'Le nombre de places doit être un nombre entier.' })
  .min(0, { error: 'Le nombre de places ne peut pas être négatif.' })
  .max(NB_PLACES_MAX, { error: 'Nombre de places trop grand.' });

/**
 * PATCH /center/{chapterId}: school staff answer for their own school; an admin may name the
 * institution and mark the centre as a pole (open to all).
 */
export const centerPatchSchema = centerDetailsPatchSchema.extend({
  opened: z.boolean({ error: 'Réponse invalide (oui ou non attendu).' }).nullable().optional(),
  instructions: z
    .string({ error: 'Les instructions doivent être un texte.' })
    .max(CENTER_INSTRUCTIONS_MAX, { error: 'Les instructions sont trop longues.' })
    .optional(),
  nb_places: nbPlaces.optional(),
  institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).optional(),
  isPole: z.boolean({ error: 'La valeur « centre pôle » doit être oui ou non.' }).optional(),
});
export type CenterPatch = z.infer<typeof centerPatchSchema>;

/** GET /center/institutions/{chapterId}: one centre on the selection map. */
export const centerOptionSchema = z.object({
  _id: z.string(),
  name: z.string(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  status: z.enum(CENTER_STATUSES),
  /** Instructions given by the centre; empty until it opened. */
  instructions: z.string(),
  /** Date, address, room and what to bring; null until the centre opened. */
  details: centerDetailsSchema.nullable(),
  /** The caller's own school. */
  own: z.boolean(),
  /** Hidden behind "more possibilities" for this caller (local/global rule). */
  extra: z.boolean(),
});
export type CenterOption = z.infer<typeof centerOptionSchema>;

/** GET /center/user/{chapterId}: the caller's registration and its centre. */
export const userCenterSchema = z.object({
  registration: z.object({ institution: ref, createdAt: z.string() }).nullable(),
  center: centerOptionSchema.nullable(),
  /** Centres whose staff turned the pupil away for this chapter: the pupil picks another one. */
  refusals: z.array(z.object({ institution: ref, at: z.string() })).optional(),
});
export type UserCenter = z.infer<typeof userCenterSchema>;

export const userCenterPatchSchema = z.object({
  institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }),
});

/** GET /answer/unlabeled/{chapterId}: a scanned copy waiting for sorting (docs/product.md#spec-3 Unlabelled answer). */
export const unlabeledAnswerSchema = z.object({
  _id: z.string(),
  answer: z.string(),
  institution: ref.nullable(),
  originalName: z.string(),
  pages: z.number().nullable(),
  createdAt: z.string(),
  labeled: z.boolean(),
  /** Blank pages (duplex backs) left out of every copy when it was sorted (decision 109); null before. */
  droppedBlanks: z.number().nullable(),
});
export type UnlabeledAnswer = z.infer<typeof unlabeledAnswerSchema>;

export const unlabeledCreateSchema = z.object({
  answer: z
    .string({ error: 'Chemin de fichier manquant.' })
    .regex(/^pdfs\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/, {
      error: 'Chemin de fichier invalide (pdfs/<identifiant>.pdf attendu).',
    }),
  institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).nullable().optional(),
});

/** GET /center/overview/{chapterId}: one participant. */
export const overviewUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  grade: z.enum(GRADES).nullable(),
  institution: ref.nullable(),
});
export type OverviewUser = z.infer<typeof overviewUserSchema>;

/** docs/product.md#spec-3 Registration overview: unregistered users, and members grouped by centre with the centre flag. */
export const centerOverviewSchema = z.object({
  unregistered: z.array(overviewUserSchema),
  members: z.array(
    z.object({
      institution: ref,
      /** The centre flag: VALIDÉ when set (opened, or a pole centre), else EN ATTENTE. */
      validated: z.boolean(),
      opened: z.boolean().nullable(),
      isPole: z.boolean(),
      status: z.enum(CENTER_STATUSES),
      members: z.array(overviewUserSchema),
      stats: centerDayStatsSchema,
    }),
  ),
});
export type CenterOverview = z.infer<typeof centerOverviewSchema>;

/** docs/product.md#spec-2 Registrations: the centre status shown per participant. */
export const centerFlagLabel = (validated: boolean) => (validated ? 'VALIDÉ' : 'EN ATTENTE');

/** What the admins must chase for one centre (decision 59): no answer yet, or no copy uploaded once present pupils were recorded. */
export function centerFollowUp(c: CenterOverview['members'][number]): string {
  const todo: string[] = [];
  if (c.opened === null && !c.isPole) todo.push('n’a pas répondu');
  if (c.stats.copies === 0) todo.push('aucune copie déposée');
  if (c.stats.present + c.stats.absent === 0) todo.push('présences non saisies');
  return todo.join(', ');
}

/** The exam-day table per centre (decision 81): its column headers, shared by the page, the CSV and the XLSX. */
export const CENTER_DAY_HEADERS = ['Centre', 'Inscrits', 'Présents', 'Absents', 'Copies reçues', 'Pages triées', 'À relancer'] as const;

export interface CenterDayRow {
  id: string;
  name: string;
  registered: number;
  present: number;
  absent: number;
  copies: number;
  pagesSorted: number;
  /** '' when there is nothing to chase. */
  followUp: string;
}

/** The centres of the overview in French alphabetical order, one row each. */
export function centerDayRows(overview: CenterOverview): CenterDayRow[] {
  return [...overview.members]
    .sort((a, b) => a.institution.name.localeCompare(b.institution.name, 'fr'))
    .map((c) => ({ id: c.institution._id, name: c.institution.name, ...c.stats, followUp: centerFollowUp(c) }));
}
