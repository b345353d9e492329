import { describe, expect, it } from 'vitest';
import type { CenterMember } from '@olympe/contract';
import { attendanceBody, attendanceText, initialTicks, placesText, registeredCsvRows } from './center-day';

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

describe('attendanceText (decision 141)', () => {
  const sitting = '2026-03-12T08:30:00.000Z'; // 9 h 30 in Paris, 12 March
  it('says nothing of absences before the exam day, nor for a sitting not dated yet', () => {
    expect(attendanceText(5, 0, sitting, new Date('2026-03-11T22:59:00.000Z'))).toBeNull(); // 23 h 59 the day before, Paris
    expect(attendanceText(5, 0, null, new Date('2026-03-12T10:00:00.000Z'))).toBeNull();
  });
  it('counts present and absent pupils from the exam day on, in Paris time', () => {
    expect(attendanceText(5, 3, sitting, new Date('2026-03-11T23:00:00.000Z'))).toBe('Présents\u00a0: 3\u00a0; absents\u00a0: 2.');
    expect(attendanceText(5, 5, sitting, new Date('2026-03-20T10:00:00.000Z'))).toBe('Présents\u00a0: 5\u00a0; absents\u00a0: 0.');
  });
});
