import { describe, expect, it } from 'vitest';
import type { CenterMember } from '@olympe/contract';
import { attendanceBody, initialTicks, placesText, registeredCsvRows } from './center-day';

const member = (id: string, present: boolean | null): CenterMember => ({
  _id: id,
  firstName: 'Ada',
  lastName: id,
  grade: '3eme',
  institution: { _id: 's', name: 'Collège Pascal' },
  present,
});

describe('centre day', () => {
  it('sends every registered pupil: unticked ones are recorded absent', () => {
    const members = [member('a', null), member('b', true), member('c', false)];
    const ticks = initialTicks(members);
    expect(ticks).toEqual({ a: false, b: true, c: false });
    expect(attendanceBody(members, { ...ticks, a: true, b: false })).toEqual([
      { user: 'a', present: true },
      { user: 'b', present: false },
      { user: 'c', present: false },
    ]);
  });

  it('exports presence in words and counts against places in French', () => {
    expect(registeredCsvRows([member('Noether', true)])[1]).toEqual(['Noether', 'Ada', '3ème', 'Collège Pascal', 'présent']);
    expect(placesText(12, 1, 5)).toBe('12 inscrits, dont 1 extérieur pour 5 places ouvertes aux autres établissements');
  });
});
