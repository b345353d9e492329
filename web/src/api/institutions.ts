import { useMemo } from 'react';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  buildSchoolIndex,
  type Institution,
  type InstitutionCreate,
  type InstitutionUpdate,
  type SchoolIndex,
} from '@olympe/contract';
import { api } from './client';

export const institutionKeys = { all: ['institutions'] as const };

/** GET /institution: every institution (up to ~70,000 with the national directory). */
export async function fetchInstitutions(): Promise<Institution[]> {
  const { data } = await api.get<Institution[]>('/institution');
  return data;
}

export const institutionsQuery = queryOptions({
  queryKey: institutionKeys.all,
  queryFn: fetchInstitutions,
  // The list is heavy: fetched once per visit, then kept up to date from mutation results.
  staleTime: 10 * 60 * 1000,
});

export function useInstitutions() {
  return useQuery(institutionsQuery);
}

/** The list with its normalised search strings, computed once per list (a keystroke must stay < 50 ms). */
export function useSchoolIndex(list: Institution[] | undefined): SchoolIndex<Institution> | undefined {
  return useMemo(() => (list ? buildSchoolIndex(list) : undefined), [list]);
}

/** The public settings (tile URL), shared with the home page's query (api/config.ts). */
export { usePublicConfig } from './config';

interface Saved {
  message: string;
  institution: Institution;
}

/** POST /institution: created unconfirmed (admins may confirm at once). */
export async function createInstitution(body: InstitutionCreate): Promise<Institution> {
  const { data } = await api.post<Saved>('/institution', body);
  return data.institution;
}

/** PATCH /institution/{id}: admins, or the creator while unconfirmed. */
export async function updateInstitution(id: string, body: InstitutionUpdate): Promise<Institution> {
  const { data } = await api.patch<Saved>(`/institution/${id}`, body);
  return data.institution;
}

/** DELETE /institution/{id}: admins; refused while users or centres reference it. */
export async function deleteInstitution(id: string): Promise<void> {
  await api.delete(`/institution/${id}`);
}

/** Puts a saved institution in the cached list instead of refetching 70,000 rows. */
export function storeInstitution(client: QueryClient, saved: Institution) {
  client.setQueryData<Institution[]>(institutionKeys.all, (list) => {
    if (!list) return list;
    const at = list.findIndex((i) => i._id === saved._id);
    if (at < 0) return [...list, saved];
    const next = list.slice();
    next[at] = saved;
    return next;
  });
}

export function forgetInstitution(client: QueryClient, id: string) {
  client.setQueryData<Institution[]>(institutionKeys.all, (list) => list?.filter((i) => i._id !== id));
}
