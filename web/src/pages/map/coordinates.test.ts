import { describe, expect, it } from 'vitest';
import { distanceMetres, formatCoordinate, formatDistance, inFrance, parseCoordinate } from './coordinates';

describe('parseCoordinate (decision 88)', () => {
  it('reads a decimal comma as a French user types it, and a point too', () => {
    expect(parseCoordinate('48,8566', 'latitude')).toEqual({ ok: true, value: 48.8566 });
    expect(parseCoordinate('48.8566', 'latitude')).toEqual({ ok: true, value: 48.8566 });
    expect(parseCoordinate(' 2,3522 ', 'longitude')).toEqual({ ok: true, value: 2.3522 });
    expect(parseCoordinate('−21,1151', 'latitude')).toEqual({ ok: true, value: -21.1151 });
    expect(parseCoordinate('-61,5', 'longitude')).toEqual({ ok: true, value: -61.5 });
    expect(parseCoordinate('45°', 'latitude')).toEqual({ ok: true, value: 45 });
    expect(parseCoordinate('+166,45', 'longitude')).toEqual({ ok: true, value: 166.45 });
  });

  it('refuses what is not one number within the bounds, in French', () => {
    expect(parseCoordinate('', 'latitude')).toEqual({ ok: false, reason: 'Saisissez la latitude.' });
    expect(parseCoordinate('   ', 'longitude')).toEqual({ ok: false, reason: 'Saisissez la longitude.' });
    const lat = { ok: false, reason: 'La latitude doit être un nombre entre -90 et 90, par exemple 48,8566.' };
    expect(parseCoordinate('91', 'latitude')).toEqual(lat);
    expect(parseCoordinate('48,85,66', 'latitude')).toEqual(lat);
    expect(parseCoordinate('48,8.5', 'latitude')).toEqual(lat);
    expect(parseCoordinate('quarante', 'latitude')).toEqual(lat);
    expect(parseCoordinate('1e1', 'latitude')).toEqual(lat);
    expect(parseCoordinate('-180,5', 'longitude')).toEqual({
      ok: false,
      reason: 'La longitude doit être un nombre entre -180 et 180, par exemple 2,3522.',
    });
    expect(parseCoordinate('180', 'longitude')).toEqual({ ok: true, value: 180 });
  });

  it('writes coordinates back with a decimal comma, six decimals at most', () => {
    expect(formatCoordinate(48.8566)).toBe('48,8566');
    expect(formatCoordinate(2.123456789)).toBe('2,123457');
    expect(formatCoordinate(-21)).toBe('-21');
    expect(parseCoordinate(formatCoordinate(-61.53421), 'longitude')).toEqual({ ok: true, value: -61.53421 });
  });

  it('knows France and its overseas territories (a hint against swapped fields)', () => {
    expect(inFrance(48.8566, 2.3522)).toBe(true);
    expect(inFrance(-21.1151, 55.5364)).toBe(true); // La Réunion
    expect(inFrance(-22.2758, 166.458)).toBe(true); // Nouméa
    expect(inFrance(2.3522, 48.8566)).toBe(false); // swapped
  });

  it('measures and writes a distance in French', () => {
    const paris = { lat: 48.8566, lng: 2.3522 };
    const lyon = { lat: 45.764, lng: 4.8357 };
    expect(Math.round(distanceMetres(paris, lyon) / 1000)).toBe(391);
    expect(formatDistance(distanceMetres(paris, lyon))).toBe('391\u00a0km');
    expect(formatDistance(2440)).toBe('2,4\u00a0km');
    expect(formatDistance(350.4)).toBe('350\u00a0m');
    expect(formatDistance(9_380_000)).toBe('9\u202f380\u00a0km');
  });
});
