import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  SCHOOL_FILTER_DEBOUNCE_MS,
  schoolSearchWords,
  type Institution,
  type GeocodeResponse,
  type SchoolSearchResponse,
  type InstitutionCreate,
  type InstitutionUpdate,
} from '@olympe/contract';
import { api } from './client';

export const institutionKeys = {
  all: ['institutions'] as const,
  search: (q: string) => ['institutions', 'search', q] as const,
};

/** GET /institution/search: schools by name, town, postcode or UAI, found by the server (issue 24). */
export async function searchInstitutions(q: string): Promise<SchoolSearchResponse> {
  const { data } = await api.get<SchoolSearchResponse>('/institution/search', { params: { q } });
  return data;
}

export const schoolSearchQuery = (q: string) =>
  queryOptions({
    queryKey: institutionKeys.search(schoolSearchWords(q).join(' ')),
    queryFn: () => searchInstitutions(q),
    enabled: schoolSearchWords(q).length > 0,
    staleTime: 60_000,
    // The previous results stay on screen while the next ones load: no flicker at each letter.
    placeholderData: keepPreviousData,
  });

/** The state of a school search box: what is typed, and the server's answer to it (debounced 300 ms). */
export function useSchoolSearch() {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SCHOOL_FILTER_DEBOUNCE_MS);
  const search = useQuery(schoolSearchQuery(debounced));
  return {
    query,
    setQuery,
    /** Null while nothing searchable is typed. */
    data: schoolSearchWords(debounced).length > 0 ? (search.data ?? null) : null,
    loading: search.isFetching,
  };
}

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
function storeInstitution(client: QueryClient, saved: Institution) {
  client.setQueryData<Institution[]>(institutionKeys.all, (list) => {
    if (!list) return list;
    const at = list.findIndex((i) => i._id === saved._id);
    if (at < 0) return [...list, saved];
    const next = list.slice();
    next[at] = saved;
    return next;
  });
}

function forgetInstitution(client: QueryClient, id: string) {
  client.setQueryData<Institution[]>(institutionKeys.all, (list) => list?.filter((i) => i._id !== id));
}

export type InstitutionSave = { id: null; body: InstitutionCreate } | { id: string; body: InstitutionUpdate };

/** Saves the map's form (a new school when `id` is null) and puts the result in the cached list. */
export function useSaveInstitution(onSaved: (saved: Institution) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: InstitutionSave) => (save.id === null ? createInstitution(save.body) : updateInstitution(save.id, save.body)),
    onSuccess: (saved) => {
      storeInstitution(client, saved);
      onSaved(saved);
    },
  });
}

/** Deletes a school and takes it out of the cached list. */
export function useDeleteInstitution(callbacks: { onDeleted: () => void; onSettled: () => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteInstitution(id),
    onSuccess: (_data, id) => {
      forgetInstitution(client, id);
      callbacks.onDeleted();
    },
    onSettled: callbacks.onSettled,
  });
}

/** GET /institution/geocode: the places the server's geocoder finds for an address (decision 87). */
export async function geocodeAddress(q: string): Promise<GeocodeResponse> {
  const { data } = await api.get<GeocodeResponse>('/institution/geocode', { params: { q } });
  return data;
}

/** The address search of /map: run on demand (a button), not at each letter typed. */
export function useGeocode() {
  return useMutation({ mutationFn: geocodeAddress });
}
