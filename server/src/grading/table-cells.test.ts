import { cellValue } from '@olympe/contract';
import { describe, expect, it } from 'vitest';
import { buildTableUsers } from './presenters.js';
import type { TableRow } from './queries.js';
import { CELL_SEPARATOR } from './table-cells.js';

/** Packs cells as the table query does: `idx:value`, the value by the rule of cellValue. */
const pack = (idx: number[], answered: boolean[], grades: Array<string | null>) =>
  idx.map((i, k) => `${i}:${cellValue({ answered: answered[k], grade: grades[k] })}`).join(CELL_SEPARATOR);

const row = (over: Partial<TableRow>): TableRow => ({
  id: 'u1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@exemple.fr',
  grade: '2nde',
  gender: 'female',
  birth_date: '2009-12-10',
  cells: null,
  ...over,
});

describe('buildTableUsers', () => {
  it('places each current answer at its exercise index and blanks the others', () => {
    const users = buildTableUsers([row({ cells: pack([2, 0, 3], [true, true, false], [null, '4.5', 'X']) })], 5);
    expect(users.u1.data).toEqual(['4.5', ' ', '?', 'X', ' ']);
    expect(users.u1).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@exemple.fr', birthDate: '2009-12-10' });
  });

  it('keeps the query order (by last name) and ignores out-of-range indexes', () => {
    const users = buildTableUsers(
      [row({ id: 'b', last_name: 'Babbage', cells: pack([7], [true], [null]) }), row({ id: 'a', cells: pack([0], [false], [null]) })],
      1,
    );
    expect(Object.keys(users)).toEqual(['b', 'a']);
    expect(users.b.data).toEqual([' ']);
    expect(users.a.data).toEqual([' ']);
  });

  it('reads two-digit indexes and grades with a colon or a comma', () => {
    const users = buildTableUsers([row({ cells: pack([11, 10], [true, true], ['1:2', '3,5']) })], 12);
    expect(users.u1.data[11]).toBe('1:2');
    expect(users.u1.data[10]).toBe('3,5');
  });
});
