import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, pupil } from '../../test/callers.js';
import { assertMayAnswerWithFile } from './policies.js';

describe('answer policies', () => {
  it('takes a PDF answer from the file’s uploader only', () => {
    expect(() => assertMayAnswerWithFile(pupil, { ownerId: pupil.userId })).not.toThrow();
    expectRefusal(() => assertMayAnswerWithFile(admin, { ownerId: pupil.userId }), 403, 'Ce fichier ne vous appartient pas.');
    expectRefusal(() => assertMayAnswerWithFile(pupil, { ownerId: null }), 403);
  });
});
