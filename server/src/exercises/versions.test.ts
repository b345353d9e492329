import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pickVersionIndex } from './versions.js';

describe('pickVersionIndex', () => {
  const user = '6f1c2d3e-0000-4000-8000-000000000001';
  const exercise = '6f1c2d3e-0000-4000-8000-0000000000aa';

  it('is stable for the same user, exercise and count', () => {
    const first = pickVersionIndex(user, exercise, 3);
    for (let i = 0; i < 5; i++) expect(pickVersionIndex(user, exercise, 3)).toBe(first);
    // Pinned values: changing the hash would move every pupil to another version mid-test.
    expect(pickVersionIndex(user, exercise, 1000)).toBe(603);
    expect(first).toBe(1);
  });

  it('stays in range and gives 0 for a single or no version', () => {
    for (let i = 0; i < 200; i++) {
      const v = pickVersionIndex(randomUUID(), exercise, 4);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(4);
    }
    expect(pickVersionIndex(user, exercise, 1)).toBe(0);
    expect(pickVersionIndex(user, exercise, 0)).toBe(0);
  });

  it('spreads pupils over the versions', () => {
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[pickVersionIndex(randomUUID(), exercise, 3)]++;
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });

  it('differs between exercises for the same pupil', () => {
    const picks = new Set(Array.from({ length: 50 }, () => pickVersionIndex(user, randomUUID(), 2)));
    expect(picks.size).toBe(2);
  });

  it('depends on the order of user and exercise', () => {
    const swapped = Array.from({ length: 50 }, () => {
      const a = randomUUID();
      const b = randomUUID();
      return pickVersionIndex(a, b, 1000) !== pickVersionIndex(b, a, 1000);
    });
    expect(swapped.filter(Boolean).length).toBeGreaterThan(40);
  });
});
