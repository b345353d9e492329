import { describe, expect, it } from 'vitest';
import { buildTableUsers, type TableRow } from './table.js';

const row = (over: Partial<TableRow>): TableRow => ({
  id: 'u1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@exemple.fr',
  grade: '2nde',
  gender: 'female',
  birth_date: '2009-12-10',
  idx: [],
  answered: [],
  grades: [],
  ...over,
});

describe('buildTableUsers', () => {
  it('places each current answer at its exercise index and blanks the others', () => {
    const users = buildTableUsers(
      [row({ idx: [2, 0, 3], answered: [true, true, false], grades: [null, '4.5', 'X'] })],
      5,
    );
    expect(users.u1.data).toEqual(['4.5', ' ', '?', 'X', ' ']);
    expect(users.u1).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@exemple.fr', birthDate: '2009-12-10' });
  });

  it('keeps the query order (by last name) and ignores out-of-range indexes', () => {
    const users = buildTableUsers(
      [row({ id: 'b', last_name: 'Babbage', idx: [7], answered: [true], grades: [null] }), row({ id: 'a', idx: [0], answered: [false], grades: [null] })],
      1,
    );
    expect(Object.keys(users)).toEqual(['b', 'a']);
    expect(users.b.data).toEqual([' ']);
    expect(users.a.data).toEqual([' ']);
  });
});
