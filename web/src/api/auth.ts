import type { ProfileUpdate, User } from '@olympe/contract';
import { api } from './client';

export interface Credentials {
  email: string;
  password: string;
}

/** POST /auth/login → the jwt to store. */
export async function login(credentials: Credentials): Promise<string> {
  const { data } = await api.post<{ token: string }>('/auth/login', credentials);
  return data.token;
}

/** POST /auth/register: sends the confirmation (or reset) link; the message is shown by the client. */
export async function register(email: string): Promise<void> {
  await api.post('/auth/register', { email });
}

/** POST /auth/confirm: sets the password chosen from the e-mailed link. */
export async function confirm(input: { token: string; password: string }): Promise<void> {
  await api.post('/auth/confirm', input);
}

export type { ProfileUpdate } from '@olympe/contract';

/** PUT /auth/me: `{}` reloads the user, profile fields update it (SPEC §7). */
export async function fetchMe(update: ProfileUpdate = {}): Promise<User> {
  const { data } = await api.put<User>('/auth/me', update);
  return data;
}
