import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

export interface PublicConfig {
  contactEmail: string;
  tileUrl: string;
  /** An address search on /map (GEOCODER_URL set, decision 87); absent on older servers. */
  geocoder?: boolean;
  /** The size limit of a scan in Mo (MAX_SCAN_MB, decision 91); absent on older servers. */
  maxScanMb?: number;
}

/** GET /config: public settings; silent because the home page must not greet visitors with errors. */
export async function fetchPublicConfig(): Promise<PublicConfig> {
  const { data } = await api.get<PublicConfig>('/config', { skipNotifications: true });
  return data;
}

/** Read once per visit: the settings do not change while the app runs. */
export const publicConfigQuery = queryOptions({ queryKey: ['config'], queryFn: fetchPublicConfig, staleTime: Infinity });

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}
