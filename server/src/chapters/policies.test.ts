import { describe, expect, it } from 'vitest';
import { expectRefusal, pupil, teacher } from '../../test/callers.js';
import { assertMayOpenChapter } from './policies.js';

describe('chapter policies', () => {
  it('opens a chapter through an access rule, or a paper chapter to school staff', () => {
    expect(() => assertMayOpenChapter(pupil, { offline: false }, { rule: 'x' })).not.toThrow();
    expect(() => assertMayOpenChapter(teacher, { offline: true }, null)).not.toThrow();
    expectRefusal(() => assertMayOpenChapter(pupil, { offline: true }, null), 403, 'Vous n’avez pas accès à ce chapitre.');
    expectRefusal(() => assertMayOpenChapter(teacher, { offline: false }, null), 403);
  });
});
