import { describe, expect, it } from 'vitest';
import type { OverviewRow } from '@olympe/contract';
import { toCsv } from '../../lib/csv';
import { arbitrationText, buildLines, filterLines, gradedAt, gradeText, gradingText, overviewCsvRows, truncateComment } from './overview';

const row = (over: Partial<OverviewRow>): OverviewRow => ({
  _id: 'a1',
  student: { _id: 'u1', firstName: 'Léa', lastName: 'Gérard' },
  grader: { _id: 'g1', firstName: 'Rémi', lastName: 'Dupré' },
  exercise: { _id: 'e1', title: 'Équation', maxPoints: 7 },
  grade: '3',
  grade_comment: 'Bien',
  grade_timestamp: '2026-03-01T10:00:00.000Z',
  ...over,
});

describe('overview', () => {
  it('cuts comments at 40 characters', () => {
    expect(truncateComment('a'.repeat(40))).toBe('a'.repeat(40));
    expect(truncateComment('é'.repeat(41))).toBe(`${'é'.repeat(40)}…`);
    expect(truncateComment(null)).toBe('');
    expect(truncateComment('ligne\nsuivante')).toBe('ligne suivante');
  });

  it('filters by student, grader and exercise, accent-insensitively, all together', () => {
    const lines = buildLines([
      row({}),
      row({
        _id: 'a2',
        student: { _id: 'u2', firstName: 'Hugo', lastName: 'Martin' },
        exercise: { _id: 'e2', title: 'Géométrie', maxPoints: 7 },
      }),
      row({ _id: 'a3', grader: null }),
    ]);
    const ids = (f: Partial<{ student: string; grader: string; exercise: string }>) =>
      filterLines(lines, { student: '', grader: '', exercise: '', ...f }).map((l) => l._id);
    expect(ids({})).toEqual(['a1', 'a2', 'a3']);
    expect(ids({ student: 'GERARD' })).toEqual(['a1', 'a3']);
    expect(ids({ grader: 'remi' })).toEqual(['a1', 'a2']);
    expect(ids({ grader: 'automatique' })).toEqual(['a3']);
    expect(ids({ exercise: 'geometrie', student: 'hugo' })).toEqual(['a2']);
    expect(ids({ exercise: 'geometrie', student: 'lea' })).toEqual([]);
  });

  it('shows both gradings and the arbitration of a double-corrected copy, grades with the decimal comma and their maximum', () => {
    const grading = (grade: string | null, lastName: string, arbitration = false) => ({
      grader: { _id: lastName, firstName: 'Prof', lastName },
      grade,
      grade_comment: '',
      items: [],
      timestamp: '2026-03-01T10:00:00.000Z',
      arbitration,
    });
    const [arbitrated, waiting, single] = buildLines([
      row({ grade: '5', status: 'arbitrated', gradings: [grading('2', 'Un'), grading('9.5', 'Deux'), grading('5', 'Arbitre', true)] }),
      row({
        _id: 'a2',
        grade: null,
        grade_comment: null,
        grade_timestamp: null,
        status: 'arbitration',
        gradings: [grading('1', 'Un'), grading('6.5', 'Deux')],
      }),
      row({ _id: 'a3', grade: '6.75', grader: null }),
    ]);
    expect(gradeText(single)).toBe('6,75\u00a0/\u00a07');
    expect(gradeText(waiting)).toBe('En attente');
    expect([gradingText(arbitrated.first), gradingText(arbitrated.second), arbitrationText(arbitrated)]).toEqual([
      '2 — Prof Un',
      '9,5 — Prof Deux',
      '5 — Prof Arbitre',
    ]);
    expect(arbitrationText(waiting)).toBe('À arbitrer');
    // The grader filter finds a copy by any of its correctors.
    expect(filterLines([arbitrated, waiting, single], { student: '', grader: 'arbitre', exercise: '' }).map((l) => l._id)).toEqual(['a1']);

    const csv = overviewCsvRows([arbitrated, waiting, single], true);
    expect(csv[0]).toEqual([
      'Élève',
      'Exercice',
      'Note',
      'Sur',
      'Correcteur',
      'Commentaire',
      'Date',
      '1re correction',
      '1er correcteur',
      '2e correction',
      '2e correcteur',
      'Arbitrage',
      'Arbitre',
    ]);
    expect(csv[1].slice(0, 5)).toEqual(['Léa Gérard', 'Équation', '5', 7, 'Rémi Dupré']);
    expect(csv[1].slice(7)).toEqual(['2', 'Prof Un', '9.5', 'Prof Deux', '5', 'Prof Arbitre']);
    expect(csv[2].slice(7)).toEqual(['1', 'Prof Un', '6.5', 'Prof Deux', 'À arbitrer', '']);
    expect(csv[3].slice(7)).toEqual([undefined, '', undefined, '', '', '']);
    expect(overviewCsvRows([single], false)[0]).toHaveLength(7);
    // One writer: quoted, formula-safe.
    const hostile = buildLines([row({ grade_comment: '=HYPERLINK("x")' })]);
    expect(toCsv(overviewCsvRows(hostile, false))).toContain('"\'=HYPERLINK(""x"")"');
  });

  it('names a pupil by their pseudonym under anonymous correction', () => {
    const [line] = buildLines([row({ student: { _id: 'u1', firstName: null, lastName: null, pseudonym: 'Copie 0042' } })]);
    expect(line.studentName).toBe('Copie 0042');
  });
});

describe('a double-corrected copy not settled yet (« Revue »)', () => {
  const grading = (grade: string | null, timestamp: string) => ({
    grader: null,
    grade,
    grade_comment: '',
    items: [],
    timestamp,
    arbitration: false,
  });
  const line = {
    grade: null,
    grade_timestamp: null,
    exercise: { _id: 'e', title: 'Arithmétique', maxPoints: 7 },
    gradings: [grading('6', '2026-12-07T10:00:00.000Z'), grading('2', '2026-12-07T11:30:00.000Z')],
  };

  it('reads « En attente » in the Note column and dates the copy by its latest grading', () => {
    expect(gradeText(line)).toBe('En attente');
    expect(gradedAt(line)).toBe('2026-12-07T11:30:00.000Z');
  });

  it('keeps the settled grade and its instant once there is one, and nothing for a copy never graded', () => {
    expect(gradeText({ ...line, grade: '6.5' })).toBe('6,5\u00a0/\u00a07');
    expect(gradedAt({ ...line, grade_timestamp: '2026-12-07T12:00:00.000Z' })).toBe('2026-12-07T12:00:00.000Z');
    expect(gradeText({ ...line, gradings: [] })).toBe('');
    expect(gradedAt({ ...line, gradings: [] })).toBeNull();
  });
});
