import { z } from 'zod';
import { normalizeText } from './text.js';

/**
 * The special entry « Instruction en famille » (decision 9), created by migration 0001 with this fixed id
 * (server/src/db/schema.ts HOME_SCHOOLING_ID): the profile offers it by id, without searching for it.
 */
export const HOME_SCHOOLING_INSTITUTION_ID = '00000000-0000-4000-8000-000000000010';

/** docs/product.md#spec-2 / §9: default view of every map (France). */
export const MAP_DEFAULT_VIEW = { lat: 46, lng: 2.3522, zoom: 5 } as const;
/** docs/product.md#spec-9: the profile map draws at most 100 schools; the institutions map at most 500 markers. */
export const PROFILE_MAP_MAX_MARKERS = 100;
export const INSTITUTION_MAP_MAX_MARKERS = 500;
/** docs/product.md#spec-5 / §9: schools at identical coordinates (5 decimals) are spread by this many degrees of longitude. */
export const SAME_LOCATION_OFFSET = 0.0002;
/** docs/product.md#spec-9 debounces. */
export const MAP_REDRAW_DEBOUNCE_MS = 200;
export const SCHOOL_FILTER_DEBOUNCE_MS = 300;

/** An institution as GET /institution presents it (docs/product.md#spec-3 field names). */
export const institutionSchema = z.object({
  _id: z.string(),
  name: z.string(),
  address: z.string(),
  email: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  confirmed: z.boolean(),
});
export type Institution = z.infer<typeof institutionSchema>;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const institutionName = z
  .string({ error: 'Le nom est requis.' })
  .trim()
  .min(1, { error: 'Le nom est requis.' })
  .max(200, { error: 'Nom trop long (200 caractères au plus).' });
const institutionAddress = z.string().trim().max(300, { error: 'Adresse trop longue (300 caractères au plus).' });
const institutionEmail = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.email({ error: 'Adresse e-mail invalide.' }))
    .nullable(),
);
const latitude = z
  .number({ error: 'Latitude invalide.' })
  .min(-90, { error: 'Latitude invalide.' })
  .max(90, { error: 'Latitude invalide.' });
const longitude = z
  .number({ error: 'Longitude invalide.' })
  .min(-180, { error: 'Longitude invalide.' })
  .max(180, { error: 'Longitude invalide.' });
const confirmed = z.boolean({ error: 'La valeur de « Vérifié » doit être oui ou non.' });
/** The national school code (UAI, e.g. 0341234A): set by admins so people find the school by it (decision 67). */
const uai = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[0-9]{7}[A-Z]$/, { error: 'Code UAI invalide (7 chiffres et une lettre, par exemple 0341234A).' })
    .nullable(),
);

/** POST /institution: a click on the map gives the coordinates; only admins may send `confirmed`. */
export const institutionCreateSchema = z.object({
  name: institutionName,
  address: institutionAddress.optional(),
  email: institutionEmail.optional(),
  latitude,
  longitude,
  confirmed: confirmed.optional(),
  uai: uai.optional(),
});
export type InstitutionCreate = z.infer<typeof institutionCreateSchema>;

/** PATCH /institution/{id}: any field present is changed (no defaults, so absent fields stay). */
export const institutionUpdateSchema = z
  .object({
    name: institutionName,
    address: institutionAddress,
    email: institutionEmail,
    latitude,
    longitude,
    confirmed,
    uai,
  })
  .partial();
export type InstitutionUpdate = z.infer<typeof institutionUpdateSchema>;

/**
 * GET /institution/in-view (decision 89): the map asks for the schools of its view. `map` names whose rule
 * applies: « profile » draws at most PROFILE_MAP_MAX_MARKERS schools, « institutions » (/map) at most
 * INSTITUTION_MAP_MAX_MARKERS with its priority to unconfirmed schools for admins. Above that, the server
 * groups the schools of the view into clusters by the map's zoom.
 */
export const MAP_KINDS = ['profile', 'institutions'] as const;
export type MapKind = (typeof MAP_KINDS)[number];
/** Side of a cluster's cell on screen, in pixels (Leaflet.markercluster's default radius): about 5 × 10 cells on a phone. */
export const MAP_CLUSTER_CELL_PX = 80;
export const MAP_MAX_ZOOM = 22;

const LATITUDE_BOUND = 'Limite de carte invalide : une latitude de -90 à 90 est attendue.';
const LONGITUDE_BOUND = 'Limite de carte invalide : une longitude de -180 à 180 est attendue.';
const ZOOM_MESSAGE = `Zoom invalide : un nombre entier de 0 à ${MAP_MAX_ZOOM} est attendu.`;
/** A number from the query string: an empty value is refused, not read as 0. */
const queryNumber = (message: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number({ error: message }).min(min, { error: message }).max(max, { error: message }),
  );

export const inViewQuerySchema = z
  .object({
    south: queryNumber(LATITUDE_BOUND, -90, 90),
    west: queryNumber(LONGITUDE_BOUND, -180, 180),
    north: queryNumber(LATITUDE_BOUND, -90, 90),
    east: queryNumber(LONGITUDE_BOUND, -180, 180),
    zoom: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      z.coerce
        .number({ error: ZOOM_MESSAGE })
        .int({ error: ZOOM_MESSAGE })
        .min(0, { error: ZOOM_MESSAGE })
        .max(MAP_MAX_ZOOM, { error: ZOOM_MESSAGE }),
    ),
    map: z.enum(MAP_KINDS, { error: 'Carte inconnue : « profile » ou « institutions » est attendu.' }).default('profile'),
  })
  .refine((q) => q.south <= q.north, { error: 'Limites de carte inversées : le sud doit être au sud du nord.', path: ['south'] })
  .refine((q) => q.west <= q.east, { error: 'Limites de carte inversées : l’ouest doit être à l’ouest de l’est.', path: ['west'] });
export type InViewQuery = z.infer<typeof inViewQuerySchema>;

/** A group of schools the map draws as one marker with their number; a click zooms to their extent. */
export const mapClusterSchema = z.object({
  /** Mean position of the schools of the cell. */
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  /** The extent of those schools. */
  south: z.number(),
  west: z.number(),
  north: z.number(),
  east: z.number(),
});
export type MapCluster = z.infer<typeof mapClusterSchema>;

export const inViewResponseSchema = z.object({
  /** Schools of the view the caller may see (schools without coordinates are never in a view). */
  total: z.number().int(),
  /** The schools drawn as markers: all of them when `tooMany` is false. */
  schools: z.array(institutionSchema),
  /** The others, grouped by cell (empty when `tooMany` is false). */
  clusters: z.array(mapClusterSchema),
  /** More schools in view than the map's rule lets it draw. */
  tooMany: z.boolean(),
});
export type InViewResponse = z.infer<typeof inViewResponseSchema>;

export interface MarkerSelection<T> {
  markers: T[];
  /** More schools in view than may be drawn: the page says so. */
  tooMany: boolean;
}

/**
 * docs/product.md#spec-5 Institutions map: at most 500 markers; above that, admins see only the first 500
 * unconfirmed ones (the ones waiting for them) and non-admins see none.
 */
export function selectInstitutionMarkers<T extends { confirmed: boolean }>(
  inView: readonly T[],
  isAdmin: boolean,
  max = INSTITUTION_MAP_MAX_MARKERS,
): MarkerSelection<T> {
  if (inView.length <= max) return { markers: [...inView], tooMany: false };
  if (!isAdmin) return { markers: [], tooMany: true };
  const markers: T[] = [];
  for (const item of inView) {
    if (!item.confirmed) markers.push(item);
    if (markers.length === max) break;
  }
  return { markers, tooMany: true };
}

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

type Located = { latitude: number | null; longitude: number | null };

/** The schools whose coordinates fall inside the map's current bounds (schools without coordinates never do). */
export function withinBounds<T extends Located>(items: readonly T[], b: Bounds): T[] {
  const out: T[] = [];
  for (const it of items) {
    const { latitude: lat, longitude: lng } = it;
    if (lat === null || lng === null) continue;
    if (lat >= b.south && lat <= b.north && lng >= b.west && lng <= b.east) out.push(it);
  }
  return out;
}

export interface PlacedMarker<T> {
  item: T;
  lat: number;
  lng: number;
}

/**
 * docs/product.md#spec-5: markers at identical coordinates (compared at 5 decimals) are spread sideways, the
 * n-th extra one by n × 0.0002° of longitude, so each can be seen and clicked.
 */
export function spreadSameLocation<T extends Located>(items: readonly T[]): PlacedMarker<T>[] {
  const seen = new Map<string, number>();
  const out: PlacedMarker<T>[] = [];
  for (const item of items) {
    if (item.latitude === null || item.longitude === null) continue;
    const key = `${item.latitude.toFixed(5)},${item.longitude.toFixed(5)}`;
    const extra = seen.get(key) ?? 0;
    seen.set(key, extra + 1);
    out.push({ item, lat: item.latitude, lng: item.longitude + extra * SAME_LOCATION_OFFSET });
  }
  return out;
}

/**
 * The words of a school search, folded as the database folds a school's words (migration
 * 0012_first_hour, function institution_search_words): accents and case dropped, split on anything
 * but letters and digits. « Saint-Étienne 42000 » → ['saint', 'etienne', '42000'].
 */
export function schoolSearchWords(query: string): string[] {
  const words = normalizeText(query.replace(/[’']/g, ' '))
    .split(/[^a-z0-9œæ]+/)
    .filter(Boolean);
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}
const MAX_SEARCH_WORDS = 8;

/** GET /institution/search: at most this many schools, the best first. */
export const SCHOOL_SEARCH_LIMIT = 20;

export const schoolSearchQuerySchema = z.object({
  q: z.string().max(200, { error: 'Recherche trop longue (200 caractères au plus).' }),
});

/** One school found: the map's fields plus the UAI, shown beside the name. */
export const schoolSearchResultSchema = institutionSchema.extend({ uai: z.string().nullable() });
export type SchoolSearchResult = z.infer<typeof schoolSearchResultSchema>;
export const schoolSearchResponseSchema = z.object({
  results: z.array(schoolSearchResultSchema),
  /** More schools match than were sent: the user should narrow the search. */
  more: z.boolean(),
});
export type SchoolSearchResponse = z.infer<typeof schoolSearchResponseSchema>;

/**
 * GET /institution/geocode (decision 87): an address typed on /map, sent to the configured geocoder
 * (GEOCODER_URL) by the server. 3 characters at least: a shorter query finds nothing useful.
 */
export const GEOCODE_RESULTS_LIMIT = 5;
export const geocodeQuerySchema = z.object({
  q: z
    .string({ error: 'Saisissez une adresse.' })
    .trim()
    .min(3, { error: 'Adresse trop courte (3 caractères au moins).' })
    .max(200, { error: 'Adresse trop longue (200 caractères au plus).' }),
});
export const geocodeResultSchema = z.object({ label: z.string(), latitude: z.number(), longitude: z.number() });
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;
export const geocodeResponseSchema = z.object({ results: z.array(geocodeResultSchema) });
export type GeocodeResponse = z.infer<typeof geocodeResponseSchema>;
