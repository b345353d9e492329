import { fetchMe } from '../api/auth';
import { fetchChapters } from '../api/chapters';
import { fetchMyGroups } from '../api/groups';
import type { SessionData } from './session-context';

export const sessionKey = (token: string | null) => ['session', token] as const;

/** SPEC §7: after login or reload, PUT /auth/me, GET /group and GET /chapter are called together. */
export async function loadSession(): Promise<SessionData> {
  const [user, groups, chapters] = await Promise.all([fetchMe(), fetchMyGroups(), fetchChapters()]);
  return { user, groups, chapters };
}
