import { describe, expect, it } from 'vitest';
import { cleanSuggestions } from './suggestions.js';

const U = '11111111-1111-4111-8111-111111111111';
const E = 'EEEEEEEE-EEEE-4EEE-8EEE-EEEEEEEEEEE1';

describe('cleanSuggestions', () => {
  it('keeps usable pages once, in order, with ids lower-cased and rotations on 90° steps', () => {
    expect(
      cleanSuggestions(
        [
          { pageNum: 2, user: U, exercises: [E, E, 'x'], rotation: -90 },
          { pageNum: 1, user: 'not-an-id', exercises: [], rotation: 100 },
          { pageNum: 2, user: null, exercises: [], rotation: 0 },
          { pageNum: 7, user: U, exercises: [E], rotation: 0 },
          { pageNum: 1.5, user: U, exercises: [E], rotation: 0 },
          null,
        ],
        3,
      ),
    ).toEqual([
      { pageNum: 1, user: null, exercises: [], rotation: 90 },
      { pageNum: 2, user: U, exercises: [E.toLowerCase()], rotation: 270 },
    ]);
  });

  it('null when nothing usable', () => {
    expect(cleanSuggestions(null, 3)).toBeNull();
    expect(cleanSuggestions([], 3)).toBeNull();
    expect(cleanSuggestions([{ pageNum: 9 }], 3)).toBeNull();
  });
});
