import { describe, expect, it } from 'vitest';
import type { InstitutionResults } from '@olympe/contract';
import { toCsv } from '../../lib/csv';
import { institutionCsvRows } from './institution-results';

const RESULTS: InstitutionResults = {
  chapter: { _id: 'c', title: 'Tour 1' },
  institution: { _id: 'i', name: 'Collège Galois' },
  exercises: [
    { _id: 'e1', title: 'Somme', maxPoints: 4 },
    { _id: 'e2', title: 'Preuve', maxPoints: 10.5 },
  ],
  maxTotal: 14.5,
  qualificationText: 'Qualifié(e) pour le tour suivant',
  pupils: [
    {
      _id: 'p',
      firstName: '=HYPERLINK("x")',
      lastName: 'Germain',
      grade: '3eme',
      gender: 'female',
      grades: [
        { grade: 6.5, excused: false, comment: '' },
        { grade: null, excused: true, comment: '' },
      ],
      total: 6.5,
      rank: 2,
      participants: 10,
      percentile: 75,
      qualified: true,
    },
  ],
};

describe('institutionCsvRows', () => {
  it('writes French labels, decimal commas and neutralised formulas', () => {
    const rows = institutionCsvRows(RESULTS);
    expect(rows[0]).toEqual([
      'Nom',
      'Prénom',
      'Classe',
      'Genre',
      'Somme (sur 4)',
      'Preuve (sur 10,5)',
      'Total (sur 14,5)',
      'Rang',
      'Participants',
      'Centile',
      'Qualifié(e)',
    ]);
    expect(rows[1]).toEqual(['Germain', '=HYPERLINK("x")', '3ème', 'Féminin', '6,5', 'X', '6,5', 2, 10, 75, 'Oui']);
    expect(toCsv(rows)).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
