import type { AuthContext } from '../auth/context.js';

/** Per-record rules on groups (docs/architecture.md « Where things go »). */

/** GET /group: admins see every group; anyone else the groups they belong to (docs/decisions/groups.md). */
export const canSeeEveryGroup = (auth: AuthContext): boolean => auth.isAdmin;
