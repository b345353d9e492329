import { settleDouble } from '@olympe/contract';
import { describe, expect, it } from 'vitest';
import { doubleFinal, doubleStatus, gradingRole, visibleGradings } from './double.js';
import { anonymiseTableUsers } from './presenters.js';
import { tableProgress } from './table-cells.js';

const g = (grader_id: string, grade: string | null, arbitration = false) => ({ grader_id, grade, arbitration });

describe('settleDouble (decision 63)', () => {
  it('takes the mean rounded to the hundredth within tolerance, else arbitration; X only with X', () => {
    expect(settleDouble('6', '7', 1)).toEqual({ status: 'settled', grade: '6.5' });
    expect(settleDouble('1', '2', 0.5)).toEqual({ status: 'arbitration', grade: null });
    expect(settleDouble('2.25', '2.5', 1)).toEqual({ status: 'settled', grade: '2.38' });
    expect(settleDouble('3', '3', 0)).toEqual({ status: 'settled', grade: '3' });
    expect(settleDouble('X', 'X', 0)).toEqual({ status: 'settled', grade: 'X' });
    expect(settleDouble('X', '0', 5)).toEqual({ status: 'arbitration', grade: null });
  });
});

describe('double correction rules', () => {
  it('gives the status, the final grade and the role of each caller', () => {
    expect(doubleStatus([], 1)).toBe('none');
    expect(doubleStatus([g('a', '3')], 1)).toBe('partial');
    expect(doubleStatus([g('a', '3'), g('b', '6')], 1)).toBe('arbitration');
    expect(doubleFinal([g('a', '3'), g('b', '6')], 1)).toBeNull();
    expect(doubleFinal([g('a', '3'), g('b', '6'), g('z', '5', true)], 1)).toBe('5');
    expect(doubleStatus([g('a', '3'), g('b', '6'), g('z', '5', true)], 1)).toBe('arbitrated');
    expect(gradingRole([], 'a', false)).toBe('first');
    expect(gradingRole([g('a', '3')], 'b', false)).toBe('second');
    expect(gradingRole([g('a', '3'), g('b', '4')], 'a', false)).toBe('first');
    expect(gradingRole([g('a', '3'), g('b', '4')], 'c', false)).toBe('done');
    expect(gradingRole([g('a', '3'), g('b', '4')], 'z', true)).toBe('arbiter');
  });

  it('hides the other corrector’s grading until both are in', () => {
    expect(visibleGradings([g('a', '3')], 'b')).toEqual([]);
    expect(visibleGradings([g('a', '3')], 'a')).toEqual([g('a', '3')]);
    expect(visibleGradings([g('a', '3'), g('b', '4')], 'c')).toHaveLength(2);
  });
});

describe('table progress and anonymity', () => {
  const users = {
    u1: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@exemple.fr',
      grade: '2nde',
      gender: 'female',
      birthDate: '2009-12-10',
      data: ['3', '?', ' '],
    },
    u2: {
      firstName: 'Emmy',
      lastName: 'Noether',
      email: 'emmy@exemple.fr',
      grade: '1ere',
      gender: 'female',
      birthDate: '2008-03-23',
      data: ['≠', 'X', '?'],
    },
  };

  it('counts copies with 0, 1, 2 gradings and awaiting arbitration', () => {
    expect(tableProgress(users, ['e1', 'e2', 'e3'], null)).toEqual([
      { exercise: 'e1', answered: 2, graded0: 0, graded1: 2, graded2: 0, arbitration: 1 },
      { exercise: 'e2', answered: 2, graded0: 1, graded1: 1, graded2: 0, arbitration: 0 },
      { exercise: 'e3', answered: 1, graded0: 1, graded1: 0, graded2: 0, arbitration: 0 },
    ]);
    const counts = new Map([
      ['u1:e1', 2],
      ['u2:e1', 2],
      ['u1:e2', 1],
    ]);
    expect(tableProgress(users, ['e1', 'e2', 'e3'], counts)[0]).toMatchObject({ graded2: 2, arbitration: 1 });
    expect(tableProgress(users, ['e1', 'e2', 'e3'], counts)[1]).toMatchObject({ graded1: 1, graded2: 1 });
  });

  it('replaces every identifying field by the pseudonym, keys pupils by their copy id and orders them by pseudonym (decision 128)', () => {
    const out = anonymiseTableUsers(
      users,
      new Map([
        ['u1', { pseudonym: 'Copie 0002', copyId: 'c1' }],
        ['u2', { pseudonym: 'Copie 0001', copyId: 'c2' }],
      ]),
    );
    expect(Object.keys(out)).toEqual(['c2', 'c1']);
    expect(out.c1).toEqual({
      firstName: null,
      lastName: null,
      email: '',
      grade: null,
      gender: null,
      birthDate: null,
      pseudonym: 'Copie 0002',
      data: ['3', '?', ' '],
    });
    expect(JSON.stringify(out)).not.toMatch(/Ada|Lovelace|exemple|female|2009|u1|u2/);
  });
});
