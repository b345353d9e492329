import { describe, expect, it } from 'vitest';
import { admin, member, pupil, teacher } from '../../test/callers.js';
import { canReadStatementsAsStaff } from './policies.js';

describe('exercise policies', () => {
  it('reads the statements as staff when admin, member or school staff', () => {
    for (const caller of [admin, member, teacher]) expect(canReadStatementsAsStaff(caller)).toBe(true);
    expect(canReadStatementsAsStaff(pupil)).toBe(false);
  });
});
