import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, pupil, teacher } from '../../test/callers.js';
import { assertMayOpenChapter, canReadCentreInstructions, canReadEveryChapter, canSeePaperChapter } from './policies.js';

describe('chapter policies', () => {
  it('opens a chapter through an access rule, or a paper chapter to school staff', () => {
    expect(() => assertMayOpenChapter(pupil, { offline: false }, { rule: 'x' })).not.toThrow();
    expect(() => assertMayOpenChapter(teacher, { offline: true }, null)).not.toThrow();
    expectRefusal(() => assertMayOpenChapter(pupil, { offline: true }, null), 403, 'Vous n’avez pas accès à ce chapitre.');
    expectRefusal(() => assertMayOpenChapter(teacher, { offline: false }, null), 403);
  });

  it('reads every chapter in full as an admin or a member only', () => {
    expect(canReadEveryChapter(admin)).toBe(true);
    expect(canReadEveryChapter(member)).toBe(true);
    expect(canReadEveryChapter(teacher)).toBe(false);
    expect(canReadEveryChapter(pupil)).toBe(false);
  });

  it('shows paper chapters and the centres’ instructions to school staff', () => {
    expect(canSeePaperChapter(teacher, { offline: true })).toBe(true);
    expect(canSeePaperChapter(teacher, { offline: false })).toBe(false);
    expect(canSeePaperChapter(pupil, { offline: true })).toBe(false);
    expect(canReadCentreInstructions(teacher)).toBe(true);
    expect(canReadCentreInstructions(pupil)).toBe(false);
  });
});
