import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  flushAnswers,
  forgetAnswers,
  hasUnsentAnswers,
  keepOnlyAnswersOf,
  UnsentAnswersModal,
  whenAnswersSent,
  type LogoutStep,
} from '../answering/session';
import { computeRoles } from './roles';
import { loadSession, sessionKey, sessionQuery } from './load-session';
import { SessionContext, type Session } from './session-context';
import { endServerSession } from '../api/auth';
import { clearToken, readAdminRefreshToken, readToken, writeToken } from './token';

/** How long a logout waits for unsent answers before asking the pupil. */
export const LOGOUT_FLUSH_MS = 5000;

/**
 * Holds the session of docs/product.md#spec-4: reloaded from the token on start and on every route change;
 * a failed load logs the user out. Must sit inside the router (it watches the location).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readToken);

  // Loaded again until the server answers; only an answer that refuses the token logs out (load-session.ts).
  const query = useQuery(sessionQuery(token));

  const userId = token ? query.data?.user._id : undefined;
  const userIdRef = useRef(userId);
  userIdRef.current = userId;
  const endSession = useCallback(() => {
    clearToken();
    setToken(null);
    // Shared computers: nothing cached for this user (answers, their pending schools...) may show to the next.
    queryClient.removeQueries();
  }, [queryClient]);

  const { logout, logoutStep, decide } = useLogout(userIdRef, endSession);

  // A token the server refuses (expired, revoked, user deleted) must not linger. Nobody chose to
  // leave: unsent answers stay for the next login of their author, shown to nobody else.
  useEffect(() => {
    if (!query.isError) return;
    if (userIdRef.current) forgetAnswers(userIdRef.current, { keepUnsent: true });
    endSession();
  }, [query.isError, endSession]);

  useReloadOnRouteChange(token);

  const login = useCallback(
    async (newToken: string, refreshToken: string | null) => {
      writeToken(newToken, refreshToken);
      try {
        // Fetch before switching state so the caller navigates with the user already known.
        const data = await queryClient.fetchQuery({ queryKey: sessionKey(newToken), queryFn: loadSession, staleTime: 0 });
        // Another user on this browser: their queue stops, their typed values are not shown.
        keepOnlyAnswersOf(data.user._id);
        setToken(newToken);
      } catch (error) {
        endSession();
        throw error;
      }
    },
    [queryClient, endSession],
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

  return (
    <SessionContext.Provider value={value}>
      {children}
      <UnsentAnswersModal step={logoutStep} onStay={() => decide.current?.(false)} onLeave={() => decide.current?.(true)} />
    </SessionContext.Provider>
  );
}

/**
 * The logout of a pupil who may have unsent answers (decisions.md §30): sent first, then, when they cannot be, the
 * pupil chooses to wait or to lose them. `decide` holds the pending choice while the dialog asks.
 */
function useLogout(userIdRef: RefObject<string | undefined>, endSession: () => void) {
  const [logoutStep, setLogoutStep] = useState<LogoutStep | null>(null);
  const decide = useRef<((leave: boolean) => void) | null>(null);

  // Synchronous when nothing is left to send: the state is cleared within the click.
  const logout = useCallback(async (): Promise<boolean> => {
    const leaving = userIdRef.current;
    if (leaving && hasUnsentAnswers(leaving)) {
      setLogoutStep('sending');
      if (!(await flushAnswers(leaving, LOGOUT_FLUSH_MS))) {
        setLogoutStep('unsent');
        const leave = await new Promise<boolean>((resolve) => {
          // The queue keeps retrying: once everything is sent, the logout goes on by itself.
          const stop = whenAnswersSent(leaving, () => decide.current?.(true));
          decide.current = (choice) => {
            stop();
            resolve(choice);
          };
        });
        decide.current = null;
        if (!leave) {
          setLogoutStep(null);
          return false;
        }
      }
      setLogoutStep(null);
    }
    if (leaving) forgetAnswers(leaving);
    // Sent with the token of the moment before it is cleared (api/client.ts): the logout does not wait for it.
    const kept = readAdminRefreshToken();
    void endServerSession(kept ? [kept] : []).catch(() => undefined);
    endSession();
    return true;
  }, [endSession]);

  return { logout, logoutStep, decide };
}

function useReloadOnRouteChange(token: string | null) {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
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
}
