import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  INSTITUTION_MAP_MAX_MARKERS,
  PROFILE_MAP_MAX_MARKERS,
  SCHOOL_FILTER_DEBOUNCE_MS,
  schoolSearchWords,
  type Bounds,
  type Institution,
  type InViewResponse,
  type MapKind,
  type GeocodeResponse,
  type SchoolSearchResponse,
  type InstitutionCreate,
  type InstitutionUpdate,
} from '@olympe/contract';
import { api } from './client';

/** What a map shows: its bounds and its zoom (SchoolMap's onBoundsChange). */
export type MapView = Bounds & { zoom: number };
type InViewParams = MapView & { map: MapKind };

export const institutionKeys = {
  search: (q: string) => ['institutions', 'search', q] as const,
  inViewAll: ['institutions', 'in-view'] as const,
  inView: (params: InViewParams) => ['institutions', 'in-view', params] as const,
  one: (id: string) => ['institutions', 'one', id] as const,
};

/** GET /institution/search: schools by name, town, postcode or UAI, found by the server (decision 67). */
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

/**
 * The view as the server takes it: inside ±90° / ±180° (Leaflet's bounds go beyond them once the world
 * is narrower than the map) and widened to 5 decimals (~1 m), so the same view is the same cache entry.
 */
function inViewParams(view: MapView, map: MapKind): InViewParams {
  const clamp = (v: number, limit: number) => Math.min(limit, Math.max(-limit, v));
  const down = (v: number) => Math.floor(v * 1e5) / 1e5;
  const up = (v: number) => Math.ceil(v * 1e5) / 1e5;
  return {
    south: clamp(down(view.south), 90),
    west: clamp(down(view.west), 180),
    north: clamp(up(view.north), 90),
    east: clamp(up(view.east), 180),
    zoom: Math.max(0, Math.round(view.zoom)),
    map,
  };
}

/** GET /institution/in-view: the schools of a map's view, or clusters of them (decision 89). */
export async function fetchInstitutionsInView(params: InViewParams): Promise<InViewResponse> {
  const { data } = await api.get<InViewResponse>('/institution/in-view', { params: { ...params } });
  return data;
}

export const institutionsInViewQuery = (view: MapView | null, map: MapKind) => {
  const params = view ? inViewParams(view, map) : null;
  return queryOptions({
    queryKey: params ? institutionKeys.inView(params) : [...institutionKeys.inViewAll, 'none'],
    queryFn: () => fetchInstitutionsInView(params!),
    enabled: params !== null,
    staleTime: 60_000,
    // The markers of the previous view stay on the map while the next view loads.
    placeholderData: keepPreviousData,
  });
};

/** The schools of what a map shows; `view` null until the map has reported it. */
export function useInstitutionsInView(view: MapView | null, map: MapKind) {
  return useQuery(institutionsInViewQuery(view, map));
}

/** GET /institution/{id}: one school the caller may see; silent, a page can do without it. */
export async function fetchInstitution(id: string): Promise<Institution> {
  const { data } = await api.get<Institution>(`/institution/${id}`, { skipNotifications: true });
  return data;
}

export const institutionQuery = (id: string | null) =>
  queryOptions({
    queryKey: institutionKeys.one(id ?? ''),
    queryFn: () => fetchInstitution(id!),
    enabled: id !== null,
    staleTime: 10 * 60 * 1000,
  });

/** One school by id (the profile's current school, « Instruction en famille »); null: none asked. */
export function useInstitution(id: string | null) {
  return useQuery(institutionQuery(id));
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

const inBox = (i: Institution, b: Bounds) =>
  i.latitude !== null &&
  i.longitude !== null &&
  i.latitude >= b.south &&
  i.latitude <= b.north &&
  i.longitude >= b.west &&
  i.longitude <= b.east;

/**
 * Puts a saved school in the cached views at once (its marker moves or changes colour without waiting),
 * before the views are asked again: a view's counts and clusters only the server knows.
 */
function storeInViews(client: QueryClient, saved: Institution | null, id: string) {
  for (const [key, data] of client.getQueriesData<InViewResponse>({ queryKey: institutionKeys.inViewAll })) {
    const params = key[2] as InViewParams | undefined;
    if (!data || !params || typeof params !== 'object') continue;
    const others = data.schools.filter((i) => i._id !== id);
    const max = params.map === 'profile' ? PROFILE_MAP_MAX_MARKERS : INSTITUTION_MAP_MAX_MARKERS;
    const keep = saved && inBox(saved, params) && (others.length < data.schools.length || (!data.tooMany && others.length < max));
    const schools = keep ? [...others, saved] : others;
    client.setQueryData<InViewResponse>(key, { ...data, schools, total: data.total + schools.length - data.schools.length });
  }
}

export type InstitutionSave = { id: null; body: InstitutionCreate } | { id: string; body: InstitutionUpdate };

/** Saves the map's form (a new school when `id` is null) and puts the result in the cached views. */
export function useSaveInstitution(onSaved: (saved: Institution) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: InstitutionSave) => (save.id === null ? createInstitution(save.body) : updateInstitution(save.id, save.body)),
    onSuccess: async (saved) => {
      storeInViews(client, saved, saved._id);
      client.setQueryData(institutionKeys.one(saved._id), saved);
      onSaved(saved);
      await client.invalidateQueries({ queryKey: institutionKeys.inViewAll });
    },
  });
}

/** Deletes a school and takes it out of the cached views. */
export function useDeleteInstitution(callbacks: { onDeleted: () => void; onSettled: () => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteInstitution(id),
    onSuccess: async (_data, id) => {
      storeInViews(client, null, id);
      callbacks.onDeleted();
      await client.invalidateQueries({ queryKey: institutionKeys.inViewAll });
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
