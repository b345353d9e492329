import type { ConfirmResult, LinkCheck, ProfileUpdate, SessionTokens, User } from '@olympe/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';

export interface Credentials {
  email: string;
  password: string;
}

/**
 * POST /auth/login → the session's tokens to store (decision 136). A refusal is said on the login page, which
 * clears it on success (decision 141).
 */
export async function login(credentials: Credentials): Promise<SessionTokens> {
  const { data } = await api.post<SessionTokens>('/auth/login', credentials, { skipNotifications: true });
  return data;
}

/**
 * POST /auth/logout (decision 136): ends the session of the token stored at the call on the server, and the
 * sessions of `refreshTokens` (the admin's own, kept during an impersonation). Quiet: leaving never waits
 * for it, and a cut leaves only a session that dies with its refresh token's week.
 */
export async function endServerSession(refreshTokens: string[] = []): Promise<void> {
  await api.post('/auth/logout', refreshTokens.length > 0 ? { refreshTokens } : {}, { skipNotifications: true });
}

/**
 * POST /auth/register: sends the confirmation (or reset) link. No notification: the sign-up page says the outcome
 * once, in the page (decision 141). `retour`: the page to come back to, carried in the link.
 */
export async function register(email: string, retour?: string | null): Promise<void> {
  await api.post('/auth/register', retour ? { email, retour } : { email }, { skipNotifications: true });
}

/** POST /auth/confirm: sets the password chosen from the e-mailed link; answers a session token. */
export async function confirm(input: { token: string; password: string }): Promise<ConfirmResult> {
  const { data } = await api.post<ConfirmResult>('/auth/confirm', input);
  return data;
}

/** GET /auth/link/{token}: is the link still good (without using it)? Its refusal is shown on the page, not as a toast. */
export async function checkLink(token: string): Promise<LinkCheck> {
  const { data } = await api.get<LinkCheck>(`/auth/link/${encodeURIComponent(token)}`, { skipNotifications: true });
  return data;
}

export const linkCheckQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'link', token],
    queryFn: () => checkLink(token),
    retry: false,
    staleTime: Infinity,
    enabled: token !== '',
  });

export function useLinkCheck(token: string) {
  return useQuery(linkCheckQuery(token));
}

export type { ProfileUpdate } from '@olympe/contract';

/** PUT /auth/me: `{}` reloads the user, profile fields update it (docs/product.md#spec-7). */
export async function fetchMe(update: ProfileUpdate = {}): Promise<User> {
  const { data } = await api.put<User>('/auth/me', update);
  return data;
}

/** PUT /auth/me from the profile form: a refusal is shown next to its field by the page, not as a toast. */
export async function saveProfile(update: ProfileUpdate): Promise<User> {
  const { data } = await api.put<User>('/auth/me', update, { skipNotifications: true });
  return data;
}

/** The profile form's save: the page says what was saved, or puts each refusal next to its field. */
export function useSaveProfile(callbacks: { onSuccess: (saved: User) => Promise<void>; onError: (error: unknown) => void }) {
  return useMutation({ mutationFn: saveProfile, ...callbacks });
}
