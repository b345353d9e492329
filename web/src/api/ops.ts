import type { AnonymiseResult, Extension, LiveChapter } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export const opsKeys = {
  live: (chapterId: string) => ['ops', 'live', chapterId] as const,
};

/** GET /chapter/{id}/live (admins): figures of a running chapter; polled, so quiet on success. */
export async function fetchLiveChapter(chapterId: string): Promise<LiveChapter> {
  const { data } = await api.get<LiveChapter>(`/chapter/${chapterId}/live`);
  return data;
}

/** GET /user/{uid}/export (admins): everything about one person, as a JSON object. */
export async function fetchUserExport(uid: string): Promise<Record<string, unknown>> {
  const { data } = await api.get<Record<string, unknown>>(`/user/${uid}/export`);
  return data;
}

/** POST /user/{uid}/anonymise (admins): the server's message shows as a green notification. */
export async function anonymiseUser(uid: string): Promise<AnonymiseResult> {
  const { data } = await api.post<AnonymiseResult>(`/user/${uid}/anonymise`);
  return data;
}

/** PUT /user/{uid}/extra-time (admins): extra time in percent of each timed chapter's duration. */
export async function saveExtraTime(uid: string, percent: number): Promise<void> {
  await api.put(`/user/${uid}/extra-time`, { percent });
}

/** POST /chapter/{id}/extension (admins): minutes added to one pupil's end after an incident. */
export async function addExtension(chapterId: string, body: Extension): Promise<void> {
  await api.post(`/chapter/${chapterId}/extension`, body);
}

/** The live figures, asked again every `refreshMs` even in a background tab (the admin watches another window). */
export const liveChapterQuery = (chapterId: string, refreshMs: number) =>
  queryOptions({
    queryKey: opsKeys.live(chapterId),
    queryFn: () => fetchLiveChapter(chapterId),
    enabled: chapterId !== '',
    refetchInterval: refreshMs,
    refetchIntervalInBackground: true,
  });

export function useLiveChapter(chapterId: string, refreshMs: number) {
  return useQuery(liveChapterQuery(chapterId, refreshMs));
}

/** Adds minutes to one pupil's end, then reloads the live figures (which list the extensions). */
export function useAddExtension(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Extension) => addExtension(chapterId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: opsKeys.live(chapterId) }),
  });
}

export function useSaveExtraTime(uid: string) {
  return useMutation({ mutationFn: (percent: number) => saveExtraTime(uid, percent) });
}

/** Everything about one person, fetched on demand (a click), not cached: a download, not a screen's data. */
export function useUserExport(uid: string) {
  return useMutation({ mutationFn: () => fetchUserExport(uid) });
}

export function useAnonymiseUser(uid: string) {
  return useMutation({ mutationFn: () => anonymiseUser(uid) });
}
