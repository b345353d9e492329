import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, pupil } from '../../test/callers.js';
import { AppError } from '../errors.js';
import type { ChapterContext } from '../sessions/service.js';
import type { SessionState } from '../sessions/state.js';
import { assertMayAnswerWithFile, assertMaySaveAnswer, PAPER_CHAPTER_MESSAGE, PUBLISHED_MESSAGE } from './policies.js';

const codeOf = (rule: () => void) => {
  try {
    rule();
  } catch (error) {
    return error instanceof AppError ? error.code : undefined;
  }
  return undefined;
};

const started: SessionState = { status: 'started', remainingTime: null, timed: false, deadline: null };
const contextOf = (over: { staff?: boolean; offline?: boolean; analysis?: boolean; state?: SessionState }) =>
  ({
    staff: over.staff ?? false,
    chapter: { id: 'c', title: 'C', offline: over.offline ?? false, analysis: over.analysis ?? false },
    state: over.state ?? started,
    session: null,
  }) as unknown as ChapterContext;

describe('answer policies', () => {
  it('takes a PDF answer from the file’s uploader only', () => {
    expect(() => assertMayAnswerWithFile(pupil, { ownerId: pupil.userId })).not.toThrow();
    expectRefusal(() => assertMayAnswerWithFile(admin, { ownerId: pupil.userId }), 403, 'Ce fichier ne vous appartient pas.');
    expectRefusal(() => assertMayAnswerWithFile(pupil, { ownerId: null }), 403);
  });
  it('takes a save from staff always, from a pupil in an open online chapter only, with the code the app reads', () => {
    const now = new Date();
    expect(() => assertMaySaveAnswer(contextOf({}), now)).not.toThrow();
    expect(() => assertMaySaveAnswer(contextOf({ staff: true, offline: true, analysis: true }), now)).not.toThrow();
    expectRefusal(() => assertMaySaveAnswer(contextOf({ offline: true }), now), 403, PAPER_CHAPTER_MESSAGE);
    expectRefusal(() => assertMaySaveAnswer(contextOf({ analysis: true }), now), 403, PUBLISHED_MESSAGE);
    const over = () =>
      assertMaySaveAnswer(contextOf({ state: { status: 'after', remainingTime: null, timed: false, deadline: null } }), now);
    expectRefusal(over, 403);
    expect(codeOf(over)).toBe('test_finished');
  });
});
