import { describe, expect, it } from 'vitest';
import {
  institutionCreateSchema,
  institutionUpdateSchema,
  SAME_LOCATION_OFFSET,
  selectInstitutionMarkers,
  spreadSameLocation,
  withinBounds,
} from './institution.js';

const school = (
  name: string,
  address = '',
  extra: Partial<{ latitude: number | null; longitude: number | null; confirmed: boolean }> = {},
) => ({
  name,
  address,
  latitude: 46,
  longitude: 2,
  confirmed: true,
  ...extra,
});

describe('spreading markers at the same location (docs/product.md#spec-5)', () => {
  it('shifts the n-th extra marker by n × 0.0002° of longitude, latitude unchanged', () => {
    const placed = spreadSameLocation([
      school('A', '', { latitude: 45.1, longitude: 3.2 }),
      school('B', '', { latitude: 45.1, longitude: 3.2 }),
      school('C', '', { latitude: 45.1, longitude: 3.2 }),
    ]);
    expect(placed.map((p) => p.lat)).toEqual([45.1, 45.1, 45.1]);
    expect(placed[0].lng).toBe(3.2);
    expect(placed[1].lng).toBeCloseTo(3.2 + SAME_LOCATION_OFFSET, 10);
    expect(placed[2].lng).toBeCloseTo(3.2 + 2 * SAME_LOCATION_OFFSET, 10);
    expect(placed.map((p) => p.item.name)).toEqual(['A', 'B', 'C']);
  });

  it('compares coordinates at 5 decimals', () => {
    const placed = spreadSameLocation([
      school('A', '', { latitude: 45.123451, longitude: 3.000001 }),
      school('B', '', { latitude: 45.123454, longitude: 3.000004 }), // same at 5 decimals
      school('C', '', { latitude: 45.12346, longitude: 3.0 }), // differs at the 5th decimal
    ]);
    expect(placed[1].lng).toBeCloseTo(3.000004 + SAME_LOCATION_OFFSET, 10);
    expect(placed[2].lng).toBe(3.0);
  });

  it('leaves distinct locations alone and skips schools without coordinates', () => {
    const placed = spreadSameLocation([
      school('A', '', { latitude: 45, longitude: 3 }),
      school('B', '', { latitude: 44, longitude: 3 }),
      school('C', '', { latitude: null, longitude: null }),
    ]);
    expect(placed.map((p) => [p.item.name, p.lng])).toEqual([
      ['A', 3],
      ['B', 3],
    ]);
  });
});

describe('marker limits', () => {
  const many = (n: number, confirmed: (i: number) => boolean) => Array.from({ length: n }, (_, i) => ({ id: i, confirmed: confirmed(i) }));

  it('institutions map: up to 500 markers for everyone', () => {
    const list = many(500, (i) => i % 2 === 0);
    expect(selectInstitutionMarkers(list, false)).toEqual({ markers: list, tooMany: false });
    expect(selectInstitutionMarkers(list, true)).toEqual({ markers: list, tooMany: false });
  });

  it('institutions map above 500: non-admins see none', () => {
    expect(
      selectInstitutionMarkers(
        many(501, () => false),
        false,
      ),
    ).toEqual({ markers: [], tooMany: true });
  });

  it('institutions map above 500: admins see the first 500 unconfirmed ones, in order', () => {
    const list = many(2000, (i) => i % 3 !== 0); // every third one unconfirmed: 667 of them
    const { markers, tooMany } = selectInstitutionMarkers(list, true);
    expect(tooMany).toBe(true);
    expect(markers).toHaveLength(500);
    expect(markers.every((m) => !m.confirmed)).toBe(true);
    expect(markers[0].id).toBe(0);
    expect(markers[499].id).toBe(1497);
  });

  it('institutions map above 500: admins see fewer when fewer are unconfirmed', () => {
    const list = many(600, (i) => i >= 10);
    expect(selectInstitutionMarkers(list, true).markers.map((m) => m.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('withinBounds', () => {
  it('keeps schools inside the bounds, edges included, and drops those without coordinates', () => {
    const list = [
      school('in', '', { latitude: 46, longitude: 2 }),
      school('edge', '', { latitude: 47, longitude: 3 }),
      school('out', '', { latitude: 48, longitude: 2 }),
      school('none', '', { latitude: null, longitude: null }),
    ];
    expect(withinBounds(list, { south: 45, west: 1, north: 47, east: 3 }).map((s) => s.name)).toEqual(['in', 'edge']);
  });
});

describe('institution schemas', () => {
  it('requires a name and coordinates on creation, trims and lower-cases the e-mail', () => {
    const ok = institutionCreateSchema.parse({ name: ' Lycée X ', email: ' Ce.0750001A@AC-Paris.fr ', latitude: 48.8, longitude: 2.3 });
    expect(ok).toEqual({ name: 'Lycée X', email: 'ce.0750001a@ac-paris.fr', latitude: 48.8, longitude: 2.3 });
    expect(institutionCreateSchema.safeParse({ name: '', latitude: 1, longitude: 1 }).success).toBe(false);
    expect(institutionCreateSchema.safeParse({ name: 'X' }).success).toBe(false);
    expect(institutionCreateSchema.safeParse({ name: 'X', latitude: 91, longitude: 1 }).success).toBe(false);
    expect(institutionCreateSchema.safeParse({ name: 'X', latitude: 1, longitude: 181 }).success).toBe(false);
    expect(institutionCreateSchema.safeParse({ name: 'X', latitude: 1, longitude: 1, email: 'pas-un-mail' }).success).toBe(false);
  });

  it('turns an empty e-mail into null and keeps absent fields absent on update', () => {
    expect(institutionCreateSchema.parse({ name: 'X', latitude: 1, longitude: 1, email: '' }).email).toBeNull();
    expect(institutionUpdateSchema.parse({ confirmed: true })).toEqual({ confirmed: true });
    expect(institutionUpdateSchema.parse({})).toEqual({});
  });
});
