import { describe, expect, it } from 'vitest';
import {
  availabilityText,
  chapterView,
  scoreText,
  totalText,
  formatDuration,
  parisMoment,
  formatRemaining,
  isHiddenInAnalysis,
  isRefusedKey,
  startPlan,
  timeWarning,
  totalScore,
} from './chapter-view';

describe('formatRemaining', () => {
  it('shows mm:ss', () => {
    expect(formatRemaining(0)).toBe('00:00');
    expect(formatRemaining(5)).toBe('00:05');
    expect(formatRemaining(65)).toBe('01:05');
    expect(formatRemaining(3599)).toBe('59:59');
    expect(formatRemaining(7200)).toBe('120:00');
    expect(formatRemaining(-3)).toBe('00:00');
  });
});

describe('availabilityText', () => {
  it('formats the window in Paris time, French style', () => {
    // 08:00 UTC in March (winter) is 09:00 in Paris; in July (summer) 10:00.
    expect(availabilityText('2026-03-10T08:00:00.000Z', '2026-07-01T08:00:00.000Z')).toBe(
      'Contenu disponible à partir du 10 mars 2026 à 9 h 00 jusqu’au 1er juillet 2026 à 10 h 00.',
    );
    expect(availabilityText('2026-03-10T08:00:00.000Z', null)).toBe('Contenu disponible à partir du 10 mars 2026 à 9 h 00.');
    expect(availabilityText(null, '2026-03-10T08:00:00.000Z')).toBe('Contenu disponible jusqu’au 10 mars 2026 à 9 h 00.');
    expect(availabilityText(null, null)).toBeNull();
  });
});

describe('chapterView', () => {
  const base = { offline: false, analysis: false, status: 'started' as const, remainingTime: null };
  it('follows docs/product.md#spec-2 order', () => {
    expect(chapterView(base)).toBe('exercises');
    expect(chapterView({ ...base, remainingTime: 10 })).toBe('exercises');
    expect(chapterView({ ...base, remainingTime: 0 })).toBe('ended');
    expect(chapterView({ ...base, status: 'after', remainingTime: 0 })).toBe('ended');
    expect(chapterView({ ...base, status: 'before' })).toBe('before');
    expect(chapterView({ ...base, status: 'pending' })).toBe('pending');
    expect(chapterView({ ...base, offline: true })).toBe('paper');
    expect(chapterView({ ...base, offline: true, analysis: true, status: 'after', remainingTime: 0 })).toBe('exercises');
    expect(chapterView({ ...base, analysis: true, status: 'after', remainingTime: 0 })).toBe('exercises');
  });
});

describe('totalScore', () => {
  it('sums numeric grades of answerable exercises only', () => {
    const exercises = [
      { _id: 'a', answerFormat: 'numeric' as const },
      { _id: 'b', answerFormat: 'pdf' as const },
      { _id: 'c', answerFormat: 'none' as const },
      { _id: 'd', answerFormat: 'numeric' as const },
      { _id: 'e', answerFormat: 'numeric' as const },
    ];
    const answer = (exercise: string, grade: string | null) => ({
      exercise,
      answer: '1',
      seq: 1,
      timestamp: '',
      grade,
      grade_comment: null,
    });
    expect(totalScore(exercises, [answer('a', '2'), answer('b', '1,5'), answer('c', '10'), answer('d', 'X'), answer('e', null)])).toBe(3.5);
    expect(totalScore(exercises, [])).toBe(0);
  });
});

describe('start confirmation', () => {
  it('says a duration as French reads it', () => {
    expect([60, 45 * 60, 60 * 60, 90 * 60, 125 * 60, 180 * 60, 20].map(formatDuration)).toEqual([
      '1 minute',
      '45 minutes',
      '1 heure',
      '1\u00a0h\u00a030',
      '2\u00a0h\u00a005',
      '3 heures',
      '1 minute',
    ]);
  });

  it('says a Paris clock time, with the date when it is another day', () => {
    expect(parisMoment('2026-11-25T19:35:00Z', '2026-11-25T18:00:00Z')).toBe('à 20 h 35');
    expect(parisMoment('2026-07-14T07:05:00Z', '2026-07-14T06:00:00Z')).toBe('à 9 h 05');
    expect(parisMoment('2026-11-25T23:15:00Z', '2026-11-25T22:00:00Z')).toBe('le 26 novembre 2026 à 0 h 15');
  });

  it('ends at start + duration, or at the window end when it comes first', () => {
    const now = Date.parse('2026-11-25T18:35:00Z');
    expect(startPlan(3600, null, now)).toEqual({ end: new Date('2026-11-25T19:35:00Z'), seconds: 3600, capped: false });
    expect(startPlan(3600, '2026-11-25T22:00:00Z', now).capped).toBe(false);
    expect(startPlan(3600, '2026-11-25T19:00:00Z', now)).toEqual({ end: new Date('2026-11-25T19:00:00Z'), seconds: 1500, capped: true });
  });
});

describe('timeWarning', () => {
  it('warns from 5 minutes left, then from 1 minute, never when unlimited or over', () => {
    expect([null, 0, 3600, 301].map(timeWarning)).toEqual([null, null, null, null]);
    expect(timeWarning(300)).toBe('Il reste moins de 5 minutes.');
    expect(timeWarning(61)).toBe('Il reste moins de 5 minutes.');
    expect(timeWarning(60)).toMatch(/^Il reste moins d’une minute\./);
    expect(timeWarning(1)).toMatch(/^Il reste moins d’une minute\./);
  });
});

describe('numeric input filters', () => {
  it('refuses printable keys other than digits and the dot', () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
      isRefusedKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });
    expect(['0', '9', '.'].map((k) => key(k))).toEqual([false, false, false]);
    expect(['a', '-', ',', 'e', ' '].map((k) => key(k))).toEqual([true, true, true, true, true]);
    expect(['Backspace', 'ArrowLeft', 'Tab', 'Enter'].map((k) => key(k))).toEqual([false, false, false, false]);
    expect(key('v', { ctrlKey: true })).toBe(false);
  });
});

describe('isHiddenInAnalysis', () => {
  it('hides an exercise with an empty statement and no grade comment', () => {
    const answer = (grade_comment: string | null) => ({ exercise: 'a', answer: '', seq: 1, timestamp: '', grade: '1', grade_comment });
    expect(isHiddenInAnalysis('  ', undefined)).toBe(true);
    expect(isHiddenInAnalysis('', answer(null))).toBe(true);
    expect(isHiddenInAnalysis('', answer('Bien'))).toBe(false);
    expect(isHiddenInAnalysis('Énoncé', undefined)).toBe(false);
  });
});

describe('scores against the maximum (decision 61)', () => {
  it('reads « total / maximum » with a decimal comma, and the bare total without a maximum', () => {
    expect(totalText(7.5, 12)).toBe('7,5\u00a0/\u00a012');
    expect(totalText(7, undefined)).toBe('7');
    expect(scoreText('1.5', 2)).toBe('1,5\u00a0/\u00a02');
    expect(scoreText(null, 2)).toBe('0\u00a0/\u00a02');
    expect(scoreText('X', 2)).toBe('X\u00a0/\u00a02');
    expect(scoreText('1', undefined)).toBe('1');
  });
});
