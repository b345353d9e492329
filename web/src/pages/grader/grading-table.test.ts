import { describe, expect, it } from 'vitest';
import type { GradingTable } from '@olympe/contract';
import { toCsv } from '../../lib/csv';
import { buildRows, countByExercise, filterRows, resultsCsvRows, resultsFileName, totalCounts } from './grading-table';

const exercises = [
  { _id: 'e1', title: 'Somme', answerFormat: 'numeric' },
  { _id: 'e2', title: 'Preuve "longue"', answerFormat: 'pdf' },
  { _id: 'e3', title: 'Produit', answerFormat: 'numeric' },
];
const table: GradingTable = {
  chapter: { _id: 'c', title: 'Tour 1', offline: true, analysis: false },
  exercises,
  users: {
    u1: {
      firstName: 'Élodie',
      lastName: 'Lefèvre',
      email: 'elodie@exemple.fr',
      grade: '2nde',
      gender: 'female',
      birthDate: '2009-03-04',
      data: ['3', 'X', '?'],
    },
    u2: {
      firstName: 'Hugo',
      lastName: 'Martin',
      email: '=cmd@exemple.fr',
      grade: '1ere',
      gender: 'male',
      birthDate: null,
      data: [' ', '2.5', '1'],
    },
  },
};

describe('grading table rows', () => {
  const rows = buildRows(table);

  it('computes the total from numbers only', () => {
    expect(rows.map((r) => r.total)).toEqual([3, 3.5]);
  });

  it('searches last or first name, accent- and case-insensitively', () => {
    expect(filterRows(rows, 'LEFEVRE').map((r) => r.id)).toEqual(['u1']);
    expect(filterRows(rows, 'elo').map((r) => r.id)).toEqual(['u1']);
    expect(filterRows(rows, 'hugo martin').map((r) => r.id)).toEqual(['u2']);
    expect(filterRows(rows, '  ')).toHaveLength(2);
    expect(filterRows(rows, 'exemple')).toHaveLength(0);
  });

  it('counts graded / answered per exercise and in total', () => {
    const counts = countByExercise(rows, 3);
    expect(counts).toEqual([
      { graded: 1, answered: 1 },
      { graded: 2, answered: 2 },
      { graded: 1, answered: 2 },
    ]);
    expect(totalCounts(counts)).toEqual({ graded: 4, answered: 5 });
  });

  it('exports the docs/product.md#spec-9 columns, empty for blank and X, quoted and neutralised', () => {
    const csvRows = resultsCsvRows(rows, exercises);
    expect(csvRows[0]).toEqual([
      'E-mail',
      'Prénom',
      'Nom',
      'Classe',
      'Genre',
      'Date de naissance',
      'Total',
      'Somme',
      'Preuve "longue"',
      'Produit',
    ]);
    // Words and decimal commas, as a French spreadsheet reads them (decision 71).
    expect(csvRows[1]).toEqual(['elodie@exemple.fr', 'Élodie', 'Lefèvre', '2nde', 'Féminin', '2009-03-04', '3', '3', '', '?']);
    expect(csvRows[2]).toEqual(['=cmd@exemple.fr', 'Hugo', 'Martin', '1ère', 'Masculin', '', '3,5', '', '2,5', '1']);
    const text = toCsv(csvRows);
    expect(text).toContain('"Preuve ""longue"""');
    expect(text).toContain(`"'=cmd@exemple.fr";"Hugo"`);
    expect(text.split('\r\n')[1]).toBe('"elodie@exemple.fr";"Élodie";"Lefèvre";"2nde";"Féminin";"2009-03-04";"3";"3";"";"?"');
    expect(resultsFileName('Tour 1')).toBe('Tour 1_results.csv');
  });

  it('says the maximum in the total’s and each exercise’s header once the table has points', () => {
    const withPoints = exercises.map((e, i) => ({ ...e, maxPoints: [7, 2.5, 1][i] }));
    expect(resultsCsvRows(rows, withPoints, 10.5)[0].slice(6)).toEqual([
      'Total (/ 10,5)',
      'Somme (/ 7)',
      'Preuve "longue" (/ 2,5)',
      'Produit (/ 1)',
    ]);
  });

  it('filters 10,000 pupils per keystroke quickly', () => {
    const many: GradingTable = { ...table, users: {} };
    for (let i = 0; i < 10_000; i++) {
      many.users[`u${i}`] = {
        firstName: `Prénom${i}`,
        lastName: `Nom${i % 500} Dupré`,
        email: `e${i}@x.fr`,
        grade: null,
        gender: null,
        birthDate: null,
        data: Array(12).fill('?'),
      };
    }
    const t0 = performance.now();
    const big = buildRows(many);
    const built = performance.now() - t0;
    const times: number[] = [];
    for (const q of ['d', 'du', 'dup', 'dupre', 'dupre nom4', 'dupre nom42']) {
      const t1 = performance.now();
      filterRows(big, q);
      times.push(performance.now() - t1);
    }
    console.log(`grading rows: build ${built.toFixed(1)} ms; filter per keystroke ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
    expect(filterRows(big, 'nom42 ').length).toBeGreaterThan(0);
  });
});
