import type { BinEntry } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { chapterKeys } from './chapters';

export const binKeys = {
  all: ['bin'] as const,
};

/** GET /bin (admins): deleted chapters and exercises, restorable for 30 days. */
export async function fetchBin(): Promise<BinEntry[]> {
  const { data } = await api.get<BinEntry[]>('/bin');
  return data;
}

/** POST /chapter/{id}/restore or /exos/{id}/restore (admins). */
export async function restoreBinEntry(entry: Pick<BinEntry, 'kind' | '_id'>): Promise<void> {
  await api.post(entry.kind === 'chapter' ? `/chapter/${entry._id}/restore` : `/exos/${entry._id}/restore`);
}

export const binQuery = queryOptions({ queryKey: binKeys.all, queryFn: fetchBin });

export function useBin() {
  return useQuery(binQuery);
}

/** Restores one entry, then reloads the bin and the chapter lists (a restored chapter is back in the sidebar). */
export function useRestoreBinEntry() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: restoreBinEntry,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: binKeys.all }), client.invalidateQueries({ queryKey: chapterKeys.all })]),
  });
}
