import { describe, expect, it } from 'vitest';
import { analysisScore, type IndividualAnalysis } from '@olympe/contract';
import { sortRows } from '../../components/VirtualTable';
import { buildIndividualRows, formatDuration, formatMinutes, groupNames, scoreBreakdown, type IndividualRow } from './analysis';

function entry(id: string, lastName: string, figures: Partial<IndividualAnalysis> = {}): IndividualAnalysis {
  const base = {
    user: { _id: id, firstName: 'Élève', lastName },
    ip: '1.1.1.1',
    ips: ['1.1.1.1'],
    totalBlurEvents: 0,
    totalBlurDuration: 0,
    suspiciousCorrectAnswers: 0,
    suspiciousExerciseIds: [],
    timeFor70Pct: null,
    answered: 0,
    historyExerciseId: null,
    ...figures,
  };
  return { ...base, score: analysisScore(base) };
}

describe('analysis score and rows', () => {
  it('scores round(blur seconds / 60) + blur events + suspicious answers, each term kept', () => {
    const [row] = buildIndividualRows({
      individualAnalysis: [entry('a', 'Abel', { totalBlurDuration: 750, totalBlurEvents: 4, suspiciousCorrectAnswers: 2 })],
    });
    expect(row.terms).toEqual({ blurMinutes: 13, blurEvents: 4, suspicious: 2 });
    expect(row.score).toBe(19);
    expect(scoreBreakdown(row)).toBe('19 = 13 + 4 + 2');
    expect(analysisScore({ totalBlurDuration: 89, totalBlurEvents: 0, suspiciousCorrectAnswers: 0 })).toBe(1);
    expect(analysisScore({ totalBlurDuration: 29, totalBlurEvents: 0, suspiciousCorrectAnswers: 0 })).toBe(0);
  });

  it('sorts by score, highest first by default, and by any figure; missing times go last', () => {
    const rows = buildIndividualRows({
      individualAnalysis: [
        entry('a', 'Abel', { totalBlurEvents: 1 }),
        entry('b', 'Bézout', { totalBlurDuration: 600, totalBlurEvents: 2, timeFor70Pct: 300 }),
        entry('c', 'Cauchy', { suspiciousCorrectAnswers: 3, timeFor70Pct: 120 }),
      ],
    });
    const ids = (list: IndividualRow[]) => list.map((r) => r.user._id);
    expect(ids(sortRows(rows, (r) => r.score, 'desc'))).toEqual(['b', 'c', 'a']);
    expect(ids(sortRows(rows, (r) => r.score, 'asc'))).toEqual(['a', 'c', 'b']);
    expect(ids(sortRows(rows, (r) => r.timeFor70Pct, 'asc'))).toEqual(['c', 'b', 'a']);
    expect(ids(sortRows(rows, (r) => r.sortName, 'desc'))).toEqual(['c', 'b', 'a']);
  });

  it('formats minutes and durations in French', () => {
    expect(formatMinutes(750)).toBe('12,5');
    expect(formatMinutes(0)).toBe('0,0');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(760)).toBe('12 min 40 s');
    expect(formatDuration(3665)).toBe('1 h 01 min 05 s');
  });

  it('names at most a dozen pupils of a group', () => {
    const names = new Map(Array.from({ length: 15 }, (_, i) => [`u${i}`, `Élève ${i}`]));
    const { shown, more } = groupNames([...names.keys()], names);
    expect(shown).toHaveLength(12);
    expect(more).toBe(3);
  });
});
