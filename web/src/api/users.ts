import { api } from './client';

/** POST /user/logto (admins): a token acting as the user, for "Simuler". */
export async function logto(uid: string): Promise<string> {
  const { data } = await api.post<{ token: string }>('/user/logto', { uid });
  return data.token;
}
