import { describe, expect, it } from 'vitest';
import { roomText } from './exam-day.js';

describe('roomText (decision 141)', () => {
  it('prefixes a bare room name with « salle »', () => {
    expect(roomText('B12')).toBe('salle B12');
    expect(roomText(' 104 ')).toBe('salle 104');
    // A word that only starts like « salle » is a name of its own.
    expect(roomText('Sallenave')).toBe('salle Sallenave');
  });
  it('does not prefix a room already named « Salle … » again', () => {
    expect(roomText('Salle des fêtes')).toBe('Salle des fêtes');
    expect(roomText('salle 3')).toBe('salle 3');
    expect(roomText('SALLE B')).toBe('SALLE B');
    expect(roomText('Salle')).toBe('Salle');
  });
});
