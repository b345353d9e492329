import { api } from './client';

export interface PublicConfig {
  contactEmail: string;
  tileUrl: string;
}

/** GET /config: public settings; silent because the home page must not greet visitors with errors. */
export async function fetchPublicConfig(): Promise<PublicConfig> {
  const { data } = await api.get<PublicConfig>('/config', { skipNotifications: true });
  return data;
}
