import { queryOptions } from '@tanstack/react-query';
import { isApiError } from '../api/client';
import { fetchMe } from '../api/auth';
import { fetchChapters } from '../api/chapters';
import { fetchMyGroups } from '../api/groups';
import type { SessionData } from './session-context';

export const sessionKey = (token: string | null) => ['session', token] as const;

/** docs/product.md#spec-7: after login or reload, PUT /auth/me, GET /group and GET /chapter are called together. */
export async function loadSession(): Promise<SessionData> {
  const [user, groups, chapters] = await Promise.all([fetchMe(), fetchMyGroups(), fetchChapters()]);
  return { user, groups, chapters };
}

/** The server answered and refused the session (4xx): not a network cut nor a server error. */
function refusesToken(error: unknown): boolean {
  const status = isApiError(error) ? error.status : undefined;
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * The session of a token. No network or a server down is not a reason to forget who is logged in: the
 * session loads again until it answers (a pupil who reloads during a cut keeps her queued answers and
 * her account). Only an answer that refuses the token ends it (session-provider.tsx).
 */
export const sessionQuery = (token: string | null) =>
  queryOptions({
    queryKey: sessionKey(token),
    queryFn: loadSession,
    enabled: token !== null,
    retry: (_failures, error) => !refusesToken(error),
    retryDelay: (failures) => Math.min(1000 * 2 ** failures, 10_000),
    staleTime: Infinity,
  });
