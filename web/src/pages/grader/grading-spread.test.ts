import { describe, expect, it } from 'vitest';
import { correctorSpread, nameOf } from './grading-spread';
import { buildRows, countByExercise, gradingCellKind, resultsCsvRows } from './grading-table';

const person = (id: string, firstName: string) => ({ _id: id, firstName, lastName: 'X' });

describe('corrector progress', () => {
  it('puts each corrector’s mean against the mean of the means, most copies first', () => {
    const spread = correctorSpread([
      { corrector: person('a', 'Ada'), copies: 3, meanGrade: 1 },
      { corrector: person('b', 'Bob'), copies: 10, meanGrade: 2 },
      { corrector: person('c', 'Cy'), copies: 0, meanGrade: null },
    ]);
    expect(spread.map((s) => [s.corrector._id, s.gap])).toEqual([
      ['b', 0.5],
      ['a', -0.5],
      ['c', null],
    ]);
    expect(nameOf({ firstName: null, lastName: null, pseudonym: 'Copie 0007' })).toBe('Copie 0007');
  });
});

describe('the grading table in double and anonymous correction', () => {
  const table = {
    chapter: { _id: 'c', title: 'T', offline: false, analysis: false, doubleGrading: true },
    exercises: [{ _id: 'e1', title: 'Somme', answerFormat: 'numeric', maxPoints: 2 }],
    users: {
      u1: { firstName: null, lastName: null, email: '', grade: null, gender: null, birthDate: null, pseudonym: 'Copie 0042', data: ['≠'] },
      u2: { firstName: 'Zoé', lastName: 'Martin', email: 'z@x.fr', grade: null, gender: null, birthDate: null, data: ['1.5'] },
    },
  };

  it('names a pupil by pseudonym, counts « ≠ » as answered but not graded, and exports it empty', () => {
    const rows = buildRows(table);
    expect(rows[0].lastName).toBe('Copie 0042');
    expect(rows[0].search).toBe('copie 0042');
    expect(gradingCellKind('≠')).toBe('arbitration');
    expect(countByExercise(rows, 1)).toEqual([{ graded: 1, answered: 2 }]);
    expect(resultsCsvRows(rows, table.exercises)[1].at(-1)).toBe('');
  });
});
