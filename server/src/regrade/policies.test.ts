import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, pupil } from '../../test/callers.js';
import { assertMayRequestRegrade, canSeeNamesUnderAnonymity } from './policies.js';

const OWN_ONLY = 'Vous ne pouvez demander le réexamen que de vos propres réponses.';

describe('regrade policies', () => {
  it('takes a request on the pupil’s own answer only, and answers an unknown one alike', () => {
    expect(() => assertMayRequestRegrade(pupil, { user_id: pupil.userId })).not.toThrow();
    expectRefusal(() => assertMayRequestRegrade(admin, { user_id: pupil.userId }), 403, OWN_ONLY);
    expectRefusal(() => assertMayRequestRegrade(pupil, undefined), 403, OWN_ONLY);
  });

  it('shows the pupils’ names under anonymous correction to admins only (decision 62)', () => {
    expect(canSeeNamesUnderAnonymity(admin)).toBe(true);
    expect(canSeeNamesUnderAnonymity(member)).toBe(false);
  });
});
