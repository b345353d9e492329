import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isAxiosError } from 'axios';
import { computeRoles } from './roles';
import { loadSession, sessionKey } from './load-session';
import { SessionContext, type Session } from './session-context';
import { clearToken, readToken, writeToken } from './token';

/**
 * Holds the session of SPEC §4: reloaded from the token on start and on every route change;
 * a failed load logs the user out. Must sit inside the router (it watches the location).
 */
/** The server answered and refused the session (4xx): not a network cut nor a server error. */
function refusesToken(error: unknown): boolean {
  const status = isAxiosError(error) ? error.response?.status : undefined;
  return status !== undefined && status >= 400 && status < 500;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readToken);
  const { pathname } = useLocation();

  const query = useQuery({
    queryKey: sessionKey(token),
    queryFn: loadSession,
    enabled: token !== null,
    // No network or a server down is not a reason to forget who is logged in: the session loads
    // again until it answers (a pupil who reloads during a cut keeps her queued answers and her
    // account). Only an answer that refuses the token logs out.
    retry: (_failures, error) => !refusesToken(error),
    retryDelay: (failures) => Math.min(1000 * 2 ** failures, 10_000),
    staleTime: Infinity,
  });

  const logout = useCallback(() => {
    clearToken();
    setToken(null);
    queryClient.removeQueries({ queryKey: ['session'] });
  }, [queryClient]);

  // A token the server refuses (expired, revoked, user deleted) must not linger.
  useEffect(() => {
    if (query.isError) logout();
  }, [query.isError, logout]);

  // Reload on every route change, but not on the first render: the query already runs then.
  // The token is read through a ref so that logging in (a token change) does not count as a move.
  const tokenRef = useRef(token);
  tokenRef.current = token;
  const firstPath = useRef(true);
  useEffect(() => {
    if (firstPath.current) {
      firstPath.current = false;
      return;
    }
    const current = tokenRef.current;
    if (current) void queryClient.invalidateQueries({ queryKey: sessionKey(current) });
  }, [pathname, queryClient]);

  const login = useCallback(
    async (newToken: string) => {
      writeToken(newToken);
      try {
        // Fetch before switching state so the caller navigates with the user already known.
        await queryClient.fetchQuery({ queryKey: sessionKey(newToken), queryFn: loadSession, staleTime: 0 });
        setToken(newToken);
      } catch (error) {
        logout();
        throw error;
      }
    },
    [queryClient, logout],
  );

  const reload = useCallback(async () => {
    if (token) await queryClient.invalidateQueries({ queryKey: sessionKey(token) });
  }, [queryClient, token]);

  const value = useMemo<Session>(() => {
    const data = token ? query.data : undefined;
    const user = data?.user ?? null;
    const groups = data?.groups ?? [];
    return {
      token,
      user,
      groups,
      chapters: data?.chapters ?? [],
      roles: computeRoles(user, groups),
      loading: token !== null && query.isPending,
      login,
      logout,
      reload,
    };
  }, [token, query.data, query.isPending, login, logout, reload]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
