import {
  CENTER_MAP_MAX_MARKERS,
  spreadSameLocation,
  type CenterMember,
  type CenterOption,
  type CenterStatus,
  type PlacedMarker,
} from '@olympe/contract';

/** The options offered now: the direct ones, plus the extra ones once revealed (admins see all at once). */
export function visibleOptions(options: readonly CenterOption[], showExtra: boolean): CenterOption[] {
  return showExtra || extraAtOnce(options) ? [...options] : options.filter((o) => !o.extra);
}

/**
 * Decision 141: with no direct option a pupil may choose (a `global` pupil far from any pole centre, an own school
 * that said no), the list and the map would stay empty until « Afficher d’autres possibilités »: the extra ones are
 * then offered at once, and the button is not shown.
 */
export function extraAtOnce(options: readonly CenterOption[]): boolean {
  return !options.some((o) => !o.extra && o.status !== 'no');
}

// Own school first, then the centres a pupil is most likely to pick.
const PRIORITY: Record<CenterStatus, number> = { center: 1, yes: 2, full: 3, unknown: 4, no: 5 };

/**
 * docs/product.md#spec-2/§9: the centre map draws at most 500 centres. Beyond that the own school, pole and open
 * centres come first. Centres at the same place are spread sideways (docs/product.md#spec-5).
 */
export function selectCenterMarkers(
  options: readonly CenterOption[],
  selectedId: string | null,
  max = CENTER_MAP_MAX_MARKERS,
): { markers: PlacedMarker<CenterOption>[]; tooMany: boolean } {
  const located = options.filter((o) => o.latitude !== null && o.longitude !== null);
  const rank = (o: CenterOption) => (o.own || o._id === selectedId ? 0 : PRIORITY[o.status]);
  const ordered = located.length > max ? [...located].sort((a, b) => rank(a) - rank(b)).slice(0, max) : located;
  return { markers: spreadSameLocation(ordered), tooMany: located.length > max };
}

/** docs/product.md#spec-2: centres with status no are not clickable. */
export const isSelectable = (option: Pick<CenterOption, 'status'>) => option.status !== 'no';

/** The management panel's two lists: pupils of the school, and pupils from elsewhere. */
export function splitMembers(members: readonly CenterMember[], institutionId: string) {
  const own: CenterMember[] = [];
  const outside: CenterMember[] = [];
  for (const m of members) (m.institution?._id === institutionId ? own : outside).push(m);
  return { own, outside };
}

/** docs/product.md#spec-5: uploads accept PDF only; other files are ignored (and the user is told which). */
export function partitionPdfs<F extends { name: string; type: string }>(files: readonly F[]) {
  const pdfs: F[] = [];
  const ignored: F[] = [];
  for (const f of files) (f.type === 'application/pdf' || /\.pdf$/i.test(f.name) ? pdfs : ignored).push(f);
  return { pdfs, ignored };
}

/** The places field (number, minimum 0): the value to send, or a French error. Empty means 0 (docs/product.md#spec-9 default). */
export function parsePlaces(text: string): { value: number } | { error: string } {
  const t = text.trim();
  if (t === '') return { value: 0 };
  if (!/^\d+(\.0*)?$/.test(t)) return { error: 'Indiquez un nombre entier de places (0 ou plus).' };
  const value = Number.parseInt(t, 10);
  if (value > 100_000) return { error: 'Nombre de places trop grand.' };
  return { value };
}

/**
 * Decision 59: centres at the same place (several schools of one campus) are fanned out on a circle of
 * `radiusPx` screen pixels at the current zoom, so each marker stays visible and clickable at any zoom
 * (the fixed 0.0002° offset of spreadSameLocation is a few metres: one pixel at country zoom).
 */
export function fanOutAtZoom<T extends { latitude: number | null; longitude: number | null }>(
  markers: readonly PlacedMarker<T>[],
  zoom: number,
  radiusPx = 16,
): PlacedMarker<T>[] {
  const groups = new Map<string, number[]>();
  markers.forEach((m, i) => {
    const key = `${m.item.latitude?.toFixed(5)},${m.item.longitude?.toFixed(5)}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out = [...markers];
  // Web Mercator: one pixel is 360 / (256 × 2^zoom) degrees of longitude.
  const degPerPx = 360 / (256 * 2 ** zoom);
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    members.forEach((index, k) => {
      const m = markers[index];
      const lat0 = m.item.latitude ?? m.lat;
      const lng0 = m.item.longitude ?? m.lng;
      const angle = (2 * Math.PI * k) / members.length;
      const dLng = radiusPx * degPerPx * Math.cos(angle);
      const dLat = radiusPx * degPerPx * Math.sin(angle) * Math.cos((lat0 * Math.PI) / 180);
      out[index] = { ...m, lat: lat0 + dLat, lng: lng0 + dLng };
    });
  }
  return out;
}
