import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@olympe/contract/public-config';
import { api } from './client';

/** GET /config: public settings; silent because the home page must not greet visitors with errors. */
export async function fetchPublicConfig(): Promise<PublicConfig> {
  const { data } = await api.get<PublicConfig>('/config', { skipNotifications: true });
  return data;
}

/**
 * The server writes the same settings into the page (`<meta name="olympe-config">`, server/src/web-app.ts,
 * decision 96): read there, the first screen does not wait for GET /config. Absent (dev server, tests), fetched.
 */
export function configInPage(): PublicConfig | undefined {
  const content = document.querySelector<HTMLMetaElement>('meta[name="olympe-config"]')?.content;
  if (!content) return undefined;
  try {
    return JSON.parse(content) as PublicConfig;
  } catch {
    return undefined;
  }
}

/** Read once per visit: the settings do not change while the app runs. */
export const publicConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: fetchPublicConfig,
  initialData: configInPage,
  staleTime: Infinity,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}
