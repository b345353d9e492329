import { describe, expect, it } from 'vitest';
import { isExtraOption } from './policies.js';
import { computeCenterStatus, isCenterValidated, registrationVerdict } from './status.js';

const open = (nbPlaces: number) => ({ opened: true, nbPlaces, isPole: false });

describe('computeCenterStatus', () => {
  it('is unknown before the school answered (no row, or opened null)', () => {
    expect(computeCenterStatus(null, 0)).toBe('unknown');
    expect(computeCenterStatus({ opened: null, nbPlaces: 5, isPole: false }, 0)).toBe('unknown');
  });
  it('is no when the school said no', () => {
    expect(computeCenterStatus({ opened: false, nbPlaces: 5, isPole: false }, 0)).toBe('no');
  });
  it('is yes while outside places remain, full once they are taken', () => {
    expect(computeCenterStatus(open(3), 0)).toBe('yes');
    expect(computeCenterStatus(open(3), 2)).toBe('yes');
    expect(computeCenterStatus(open(3), 3)).toBe('full');
    expect(computeCenterStatus(open(3), 4)).toBe('full');
    expect(computeCenterStatus(open(0), 0)).toBe('full');
  });
  it('is center for a pole centre, whatever the answer and the places', () => {
    expect(computeCenterStatus({ opened: null, nbPlaces: 0, isPole: true }, 10)).toBe('center');
    expect(computeCenterStatus({ opened: false, nbPlaces: 0, isPole: true }, 0)).toBe('center');
  });
  it('validates (VALIDÉ) opened and pole centres only', () => {
    expect(isCenterValidated(null)).toBe(false);
    expect(isCenterValidated({ opened: null, nbPlaces: 0, isPole: false })).toBe(false);
    expect(isCenterValidated({ opened: false, nbPlaces: 0, isPole: false })).toBe(false);
    expect(isCenterValidated(open(0))).toBe(true);
    expect(isCenterValidated({ opened: null, nbPlaces: 0, isPole: true })).toBe(true);
  });
});

describe('isExtraOption (local / global rule)', () => {
  const own = 'school-own';
  const local = { isAdmin: false, defaultChoice: 'local', institutionId: own };
  const global = { isAdmin: false, defaultChoice: 'global', institutionId: own };
  const admin = { isAdmin: true, defaultChoice: null, institutionId: null };
  const other = (status: 'unknown' | 'yes' | 'center' | 'no' | 'full') => ({ institutionId: 'school-other', status });

  it('shows pole centres to everyone', () => {
    for (const viewer of [local, global, admin]) expect(isExtraOption(viewer, other('center'))).toBe(false);
  });
  it('a local pupil sees their school (whatever its status), unknown, open and full centres; refusing schools wait behind the button', () => {
    for (const status of ['unknown', 'yes', 'no', 'full'] as const) {
      expect(isExtraOption(local, { institutionId: own, status })).toBe(false);
    }
    expect(isExtraOption(local, other('unknown'))).toBe(false);
    expect(isExtraOption(local, other('yes'))).toBe(false);
    expect(isExtraOption(local, other('full'))).toBe(false);
    expect(isExtraOption(local, other('no'))).toBe(true);
  });
  it('a global pupil (or one without a choice) sees only pole centres directly', () => {
    for (const viewer of [global, { ...global, defaultChoice: null }]) {
      expect(isExtraOption(viewer, { institutionId: own, status: 'yes' })).toBe(true);
      for (const status of ['unknown', 'yes', 'no', 'full'] as const) expect(isExtraOption(viewer, other(status))).toBe(true);
    }
  });
  it('admins see every centre directly', () => {
    for (const status of ['unknown', 'yes', 'no', 'full'] as const) expect(isExtraOption(admin, other(status))).toBe(false);
  });
});

describe('registrationVerdict', () => {
  it('never at a school that does not organise the test, even one’s own', () => {
    expect(registrationVerdict('no', true).ok).toBe(false);
    expect(registrationVerdict('no', false).ok).toBe(false);
  });
  it('own pupils always fit, without a place check', () => {
    for (const status of ['unknown', 'yes', 'full', 'center'] as const) {
      expect(registrationVerdict(status, true)).toEqual({ ok: true, checkPlaces: false });
    }
  });
  it('outside pupils: pole centres open to all, open centres with a place check, unknown refused', () => {
    expect(registrationVerdict('center', false)).toEqual({ ok: true, checkPlaces: false });
    expect(registrationVerdict('yes', false)).toEqual({ ok: true, checkPlaces: true });
    expect(registrationVerdict('full', false)).toEqual({ ok: true, checkPlaces: true });
    expect(registrationVerdict('unknown', false).ok).toBe(false);
  });
});
