import { describe, expect, it } from 'vitest';
import { isTypedGrade, personName, tickItem } from './desk';

const scheme = [
  { id: 'i1', text: 'Initialisation', points: 1 },
  { id: 'i2', text: 'Hérédité', points: 1.5 },
  { id: 'i3', text: 'Conclusion', points: 0.5 },
];

describe('the marking scheme on the desk', () => {
  it('makes the grade the sum of the ticked items, in the scheme’s order', () => {
    let form = { grade: '', items: [] as string[] };
    form = tickItem(form, scheme, 'i2', true, false);
    expect(form).toEqual({ grade: '1.5', items: ['i2'] });
    form = tickItem(form, scheme, 'i1', true, false);
    expect(form).toEqual({ grade: '2.5', items: ['i1', 'i2'] });
    form = tickItem(form, scheme, 'i2', false, false);
    expect(form).toEqual({ grade: '1', items: ['i1'] });
    form = tickItem(form, scheme, 'i1', false, false);
    expect(form).toEqual({ grade: '', items: [] });
  });

  it('leaves a grade typed by hand as typed', () => {
    expect(tickItem({ grade: '2', items: ['i1'] }, scheme, 'i3', true, true)).toEqual({ grade: '2', items: ['i1', 'i3'] });
    expect(isTypedGrade('2', scheme, ['i1'])).toBe(true);
    expect(isTypedGrade('2.5', scheme, ['i1', 'i2'])).toBe(false);
    expect(isTypedGrade('X', scheme, [])).toBe(true);
    expect(isTypedGrade(null, scheme, [])).toBe(false);
  });

  it('names a pupil by pseudonym under anonymous correction', () => {
    expect(personName({ firstName: null, lastName: null, pseudonym: 'Copie 0042' })).toBe('Copie 0042');
    expect(personName({ firstName: 'Emmy', lastName: 'Noether' })).toBe('Emmy Noether');
    expect(personName(null)).toBe('');
  });
});
