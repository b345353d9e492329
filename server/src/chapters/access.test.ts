import { parisWallClockToIso } from '@olympe/contract';
import { describe, expect, it } from 'vitest';
import { matchAccessRule, resolveAccess, windowStatus, type AccessRule, type Candidate } from './access.js';

const rule = (fields: Partial<AccessRule> & { name?: string } = {}) => ({
  name: 'all',
  authorizedGenders: [],
  authorizedGrades: [],
  birthDateMin: null,
  birthDateMax: null,
  timeDuration: null,
  accessStart: null,
  accessEnd: null,
  ...fields,
});
const pupil = (fields: Partial<Candidate> = {}): Candidate => ({ gender: 'female', grade: '3eme', birthDate: '2011-05-10', ...fields });
const paris = (wall: string) => new Date(parisWallClockToIso(wall));

describe('matchAccessRule', () => {
  it('admits anyone with empty lists and no bounds', () => {
    expect(matchAccessRule(pupil(), [rule()])?.name).toBe('all');
    expect(matchAccessRule({ gender: null, grade: null, birthDate: null }, [rule()])?.name).toBe('all');
  });

  it('filters on genders', () => {
    const rules = [rule({ name: 'garçons', authorizedGenders: ['male'] })];
    expect(matchAccessRule(pupil({ gender: 'male' }), rules)?.name).toBe('garçons');
    expect(matchAccessRule(pupil({ gender: 'female' }), rules)).toBeNull();
    expect(matchAccessRule(pupil({ gender: null }), rules)).toBeNull();
  });

  it('admits only the pupils qualified in a required selection (decision 157)', () => {
    const rules = [rule({ name: 'qualifiés', requiredSelectionId: 's1' }), rule({ name: 'autres', authorizedGenders: ['male'] })];
    expect(matchAccessRule(pupil({ qualifiedIn: new Set(['s1']) }), rules)?.name).toBe('qualifiés');
    expect(matchAccessRule(pupil({ qualifiedIn: new Set(['s2']) }), rules)).toBeNull();
    expect(matchAccessRule(pupil(), rules)).toBeNull();
    expect(matchAccessRule(pupil({ gender: 'male' }), rules)?.name).toBe('autres');
  });

  it('filters on grades', () => {
    const rules = [rule({ name: 'lycée', authorizedGrades: ['2nde', '1ere', 'Tale'] })];
    expect(matchAccessRule(pupil({ grade: 'Tale' }), rules)?.name).toBe('lycée');
    expect(matchAccessRule(pupil({ grade: '3eme' }), rules)).toBeNull();
    expect(matchAccessRule(pupil({ grade: null }), rules)).toBeNull();
  });

  it('treats birth-date bounds as inclusive dates', () => {
    const rules = [rule({ name: 'nés en 2011', birthDateMin: '2011-01-01', birthDateMax: '2011-12-31' })];
    expect(matchAccessRule(pupil({ birthDate: '2011-01-01' }), rules)).not.toBeNull();
    expect(matchAccessRule(pupil({ birthDate: '2011-12-31' }), rules)).not.toBeNull();
    expect(matchAccessRule(pupil({ birthDate: '2010-12-31' }), rules)).toBeNull();
    expect(matchAccessRule(pupil({ birthDate: '2012-01-01' }), rules)).toBeNull();
    expect(matchAccessRule(pupil({ birthDate: null }), rules)).toBeNull();
    // One bound only: the other side is open.
    expect(matchAccessRule(pupil({ birthDate: '1990-01-01' }), [rule({ birthDateMax: '2011-12-31' })])).not.toBeNull();
    expect(matchAccessRule(pupil({ birthDate: '2015-01-01' }), [rule({ birthDateMin: '2011-01-01' })])).not.toBeNull();
  });

  it('lets the first matching group in table order decide', () => {
    const rules = [
      rule({ name: 'filles 3e', authorizedGenders: ['female'], authorizedGrades: ['3eme'], timeDuration: 90 }),
      rule({ name: 'tous', timeDuration: 60 }),
    ];
    expect(matchAccessRule(pupil(), rules)?.timeDuration).toBe(90);
    expect(matchAccessRule(pupil({ gender: 'male' }), rules)?.timeDuration).toBe(60);
    expect(matchAccessRule(pupil(), [...rules].reverse())?.timeDuration).toBe(60);
  });

  it('returns null when no group matches or the list is empty', () => {
    expect(matchAccessRule(pupil(), [])).toBeNull();
    expect(matchAccessRule(pupil({ gender: 'other' }), [rule({ authorizedGenders: ['male', 'female'] })])).toBeNull();
    expect(resolveAccess(pupil(), [rule({ authorizedGrades: ['Tale'] })], new Date())).toBeNull();
  });
});

describe('windowStatus across the Europe/Paris daylight-saving changes', () => {
  it('opens at a start just after the spring change (2026-03-29 03:00 Paris = 01:00Z)', () => {
    const r = rule({ accessStart: paris('2026-03-29T03:00'), accessEnd: paris('2026-03-29T05:00') });
    expect(r.accessStart!.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(windowStatus(r, new Date('2026-03-29T00:59:59Z'))).toBe('before');
    expect(windowStatus(r, new Date('2026-03-29T01:00:00Z'))).toBe('open');
    // 05:00 summer time is 03:00Z: the window lasts two real hours.
    expect(windowStatus(r, new Date('2026-03-29T02:59:59Z'))).toBe('open');
    expect(windowStatus(r, new Date('2026-03-29T03:00:00Z'))).toBe('after');
  });

  it('spans the night of the spring change with one hour less', () => {
    const r = rule({ accessStart: paris('2026-03-29T00:00'), accessEnd: paris('2026-03-29T04:00') });
    expect((r.accessEnd!.getTime() - r.accessStart!.getTime()) / 3600_000).toBe(3);
  });

  it('spans the night of the autumn change with one hour more', () => {
    const r = rule({ accessStart: paris('2026-10-25T00:00'), accessEnd: paris('2026-10-25T04:00') });
    expect((r.accessEnd!.getTime() - r.accessStart!.getTime()) / 3600_000).toBe(5);
    expect(windowStatus(r, new Date('2026-10-24T21:59:59Z'))).toBe('before');
    expect(windowStatus(r, new Date('2026-10-24T22:00:00Z'))).toBe('open');
    expect(windowStatus(r, new Date('2026-10-25T02:59:59Z'))).toBe('open');
    expect(windowStatus(r, new Date('2026-10-25T03:00:00Z'))).toBe('after');
  });

  it('closes at an end given in winter time after the autumn change', () => {
    const r = rule({ accessEnd: paris('2026-10-25T12:00') });
    expect(r.accessEnd!.toISOString()).toBe('2026-10-25T11:00:00.000Z');
    expect(windowStatus(r, new Date('2026-10-25T10:59:59Z'))).toBe('open');
    expect(windowStatus(r, new Date('2026-10-25T11:00:00Z'))).toBe('after');
  });

  it('is open-ended without bounds and reports the deciding rule', () => {
    expect(windowStatus(rule(), new Date('2030-01-01T00:00:00Z'))).toBe('open');
    const rules = [rule({ name: 'plus tard', accessStart: paris('2026-10-25T03:00') })];
    expect(resolveAccess(pupil(), rules, new Date('2026-10-25T01:59:00Z'))).toEqual({ rule: rules[0], status: 'before' });
    expect(resolveAccess(pupil(), rules, new Date('2026-10-25T02:00:00Z'))?.status).toBe('open');
  });
});
