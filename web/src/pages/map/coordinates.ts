/**
 * Coordinates typed by a French user on /map (decision 88): « 48,8566 » as well as « 48.8566 », a minus
 * sign from a word processor, spaces and a degree sign are accepted. The bounds are the server's
 * (decision 88): a school outside France is allowed, but the page says so (latitude and longitude swapped?).
 */
export type CoordinateKind = 'latitude' | 'longitude';
export type CoordinateParse = { ok: true; value: number } | { ok: false; reason: string };

const LIMIT: Record<CoordinateKind, number> = { latitude: 90, longitude: 180 };
const LABEL: Record<CoordinateKind, string> = { latitude: 'la latitude', longitude: 'la longitude' };
const EXAMPLE: Record<CoordinateKind, string> = { latitude: '48,8566', longitude: '2,3522' };
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function parseCoordinate(text: string, kind: CoordinateKind): CoordinateParse {
  const compact = text.replace(/[\s\u00a0\u202f\u2009°]/g, '').replace(/[\u2212\u2013]/g, '-');
  if (compact === '') return { ok: false, reason: `Saisissez ${LABEL[kind]}.` };
  // One decimal separator, comma or point; a comma with a point too is ambiguous (thousands?).
  const commas = (compact.match(/,/g) ?? []).length;
  const normal = commas === 1 && !compact.includes('.') ? compact.replace(',', '.') : compact;
  const limit = LIMIT[kind];
  const range = `un nombre entre -${limit} et ${limit}, par exemple ${EXAMPLE[kind]}`;
  if (!NUMBER.test(normal)) return { ok: false, reason: `${capitalise(LABEL[kind])} doit être ${range}.` };
  const value = Number(normal);
  if (!Number.isFinite(value) || Math.abs(value) > limit) return { ok: false, reason: `${capitalise(LABEL[kind])} doit être ${range}.` };
  return { ok: true, value };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** 48.85660 → « 48,8566 »: six decimals at most (about 10 cm), decimal comma. */
export function formatCoordinate(value: number): string {
  return String(Number(value.toFixed(6))).replace('.', ',');
}

/** Metropolitan France with Corsica, then the overseas territories, as [south, west, north, east]. */
const FRANCE: readonly (readonly [number, number, number, number])[] = [
  [41.2, -5.5, 51.2, 9.8],
  [14.3, -61.9, 18.2, -60.7], // Guadeloupe, Martinique, Saint-Martin, Saint-Barthélemy
  [2.0, -54.7, 5.9, -51.5], // Guyane
  [-21.5, 55.1, -20.8, 55.9], // La Réunion
  [-13.1, 44.9, -12.5, 45.4], // Mayotte
  [46.7, -56.5, 47.2, -56.1], // Saint-Pierre-et-Miquelon
  [-22.9, 163.5, -19.4, 168.2], // Nouvelle-Calédonie
  [-28.0, -155.0, -7.8, -134.0], // Polynésie française
  [-14.5, -178.3, -13.1, -176.0], // Wallis-et-Futuna
];

/** A position in France or its overseas territories (a hint only: the server accepts the whole globe). */
export function inFrance(lat: number, lng: number): boolean {
  return FRANCE.some(([s, w, n, e]) => lat >= s && lat <= n && lng >= w && lng <= e);
}

/** Great-circle distance in metres (haversine). */
export function distanceMetres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** « 350 m », « 2,4 km », « 412 km », « 9 380 km » (non-breaking spaces). */
export function formatDistance(metres: number): string {
  if (metres < 1000) return `${Math.round(metres)}\u00a0m`;
  const km = metres / 1000;
  const text = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: km < 10 ? 1 : 0 }).format(km);
  return `${text}\u00a0km`;
}
