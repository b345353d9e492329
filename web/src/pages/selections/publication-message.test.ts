import { describe, expect, it } from 'vitest';
import { publicationMessage } from './publication-dialog';

describe('publicationMessage', () => {
  it('says when pupils will read the list, and does not fail while the instant is still being typed', () => {
    expect(publicationMessage('scheduled', null, 0)).toBe(
      'Aucune version n’est gelée\u00a0: les élèves verront dès maintenant la première version gelée.',
    );
    expect(publicationMessage('scheduled', '2027-03-13T09:00:00.000Z', 2)).toMatch(
      /le 13 mars 2027 à 10\s*h\s*00 \(heure de Paris\) la version 2/,
    );
  });
});
