import type { User } from '@olympe/contract';
import { api } from './client';

/** GET /user/{uid}: the user (self, members, admins). */
export async function fetchUser(uid: string): Promise<User> {
  const { data } = await api.get<User>(`/user/${uid}`);
  return data;
}

/** POST /user/logto (admins): a token acting as the user, for "Simuler". */
export async function logto(uid: string): Promise<string> {
  const { data } = await api.post<{ token: string }>('/user/logto', { uid });
  return data.token;
}
