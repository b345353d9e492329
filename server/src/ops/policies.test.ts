import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../test/callers.js';
import { assertMayAnonymise } from './policies.js';

describe('operator policies', () => {
  it('anonymises another account, never the caller’s own nor the impersonating admin’s', () => {
    expect(() => assertMayAnonymise({ userId: 'admin' }, 'pupil')).not.toThrow();
    expectRefusal(() => assertMayAnonymise({ userId: 'admin' }, 'admin'), 403, 'Vous ne pouvez pas anonymiser votre propre compte.');
    expectRefusal(() => assertMayAnonymise({ userId: 'pupil', actorId: 'admin' }, 'admin'), 403);
  });
});
