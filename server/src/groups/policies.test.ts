import { describe, expect, it } from 'vitest';
import { admin, member, pupil, teacher } from '../../test/callers.js';
import { canSeeEveryGroup } from './policies.js';

describe('group policies', () => {
  it('lists every group to admins only', () => {
    expect(canSeeEveryGroup(admin)).toBe(true);
    for (const caller of [pupil, teacher, member]) expect(canSeeEveryGroup(caller)).toBe(false);
  });
});
