import { GEOCODE_RESULTS_LIMIT, type GeocodeResult } from '@olympe/contract';
import { AppError, notFound } from '../errors.js';

/**
 * The address search of /map (decision 87): the server asks the geocoder configured by GEOCODER_URL,
 * so the browser talks to Olympe only (CSP `connect-src 'self'`, no pupil IP sent to a third party).
 * Two answer shapes are read: Nominatim's JSON (an array of `{lat, lon, display_name}`) and GeoJSON
 * (api-adresse.data.gouv.fr, or Nominatim with `format=geojson`).
 */

/** How long the geocoder may take. Mutable for the tests only. */
export const GEOCODER_TIMEOUT = { ms: 5000 };
/** A bigger answer is not a list of five addresses. */
const MAX_ANSWER_BYTES = 512 * 1024;

export const GEOCODER_OFF =
  'La recherche d’adresse n’est pas activée sur ce serveur : placez l’établissement sur la carte ou saisissez sa latitude et sa longitude.';
export const GEOCODER_TIMED_OUT =
  'Le service de recherche d’adresse n’a pas répondu à temps. Réessayez, ou saisissez la latitude et la longitude.';
export const GEOCODER_FAILED =
  'Le service de recherche d’adresse est indisponible. Réessayez plus tard, ou saisissez la latitude et la longitude.';

export async function geocode(geocoderUrl: string | undefined, publicUrl: string, query: string): Promise<GeocodeResult[]> {
  if (!geocoderUrl) throw notFound(GEOCODER_OFF);
  // The operator's URL keeps its own parameters (format=jsonv2, countrycodes=fr…); q and limit are ours.
  const url = new URL(geocoderUrl);
  url.searchParams.set('q', query);
  url.searchParams.set('limit', String(GEOCODE_RESULTS_LIMIT));
  let text: string;
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(GEOCODER_TIMEOUT.ms),
      redirect: 'error',
      // Nominatim's usage policy asks for an identifying User-Agent.
      headers: { accept: 'application/json', 'accept-language': 'fr', 'user-agent': `Olympe (${publicUrl})` },
    });
    if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
    text = await readCapped(res, MAX_ANSWER_BYTES);
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new AppError(503, timedOut ? GEOCODER_TIMED_OUT : GEOCODER_FAILED);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError(503, GEOCODER_FAILED);
  }
  return readGeocoderAnswer(body).slice(0, GEOCODE_RESULTS_LIMIT);
}

/**
 * The answer's text, stopped as soon as it passes `cap` bytes: a declared length is checked first, and an answer
 * sent in chunks without one is never buffered past the cap.
 */
async function readCapped(res: Response, cap: number): Promise<string> {
  if (Number(res.headers.get('content-length') ?? 0) > cap) throw new Error('geocoder answer too big');
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    // Leaving the loop by a throw cancels the stream (the iterator's return).
    if (size > cap) throw new Error('geocoder answer too big');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null;
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** Nominatim's array or a GeoJSON FeatureCollection; anything else, or a point outside the globe, is dropped. */
export function readGeocoderAnswer(body: unknown): GeocodeResult[] {
  const out: GeocodeResult[] = [];
  const push = (label: unknown, lat: number | null, lng: number | null) => {
    if (typeof label !== 'string' || !label.trim() || lat === null || lng === null) return;
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return;
    out.push({ label: label.trim().slice(0, 300), latitude: lat, longitude: lng });
  };
  if (Array.isArray(body)) {
    for (const place of body) if (isObject(place)) push(place.display_name ?? place.name, num(place.lat), num(place.lon));
  } else if (isObject(body) && Array.isArray(body.features)) {
    for (const feature of body.features) {
      if (!isObject(feature) || !isObject(feature.geometry) || !Array.isArray(feature.geometry.coordinates)) continue;
      const props = isObject(feature.properties) ? feature.properties : {};
      const [lng, lat] = feature.geometry.coordinates as unknown[];
      push(props.label ?? props.display_name ?? props.name, num(lat), num(lng));
    }
  } else {
    throw new AppError(503, GEOCODER_FAILED);
  }
  return out;
}
