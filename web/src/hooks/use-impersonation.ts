import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { endServerSession } from '../api/auth';
import { logto } from '../api/users';
import { paths } from '../config/paths';
import { useSession } from '../session/session-context';
import { clearAdminToken, readAdminRefreshToken, readAdminToken, readRefreshToken, readToken, writeAdminToken } from '../session/token';

/**
 * "Simuler" (docs/product.md#spec-6) and "Revenir à mon compte". The server writes every impersonation to its
 * audit log; here the admin's own token is kept under `jwt_admin` while the app runs on the other
 * user's token, and data cached under the previous identity is dropped at each switch.
 */
export function useImpersonation() {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const forgetPageData = useCallback(() => queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' }), [queryClient]);

  const start = useCallback(
    async (uid: string) => {
      const own = readToken();
      const ownRefresh = readRefreshToken();
      const { token, refreshToken } = await logto(uid);
      // Keep the first admin session only: it is the one to come back to.
      if (own && !readAdminToken()) writeAdminToken(own, ownRefresh);
      forgetPageData();
      try {
        await session.login(token, refreshToken);
      } catch (error) {
        // The session logged out (both tokens gone): come back as the admin.
        if (own) await session.login(own, ownRefresh);
        throw error;
      }
      await navigate(paths.profile);
    },
    [session, navigate, forgetPageData],
  );

  const stop = useCallback(async () => {
    const admin = readAdminToken();
    if (!admin) return;
    const adminRefresh = readAdminRefreshToken();
    forgetPageData();
    // The impersonation's session ends on the server (decision 136), sent with its token before the switch.
    void endServerSession().catch(() => undefined);
    try {
      await session.login(admin, adminRefresh);
    } catch {
      // The admin's own token expired meanwhile: log in again.
      await navigate(paths.login);
      return;
    }
    clearAdminToken();
    await navigate(paths.groups);
  }, [session, navigate, forgetPageData]);

  // « Revenir à mon compte » shows its progress from the mutation's own state.
  const stopping = useMutation({ mutationFn: stop });

  return { impersonating: session.token !== null && readAdminToken() !== null, start, stop: stopping.mutate, stopping: stopping.isPending };
}
