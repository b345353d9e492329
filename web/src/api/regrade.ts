import type { MyRegrades, RegradeAccept, RegradeCreate, RegradeQueue } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export const regradeKeys = {
  mine: (chapterId: string) => ['regrade', 'mine', chapterId] as const,
  queue: (chapterId: string) => ['regrade', 'queue', chapterId] as const,
};

/** GET /regrade/mine/{chapterId}: the pupil's own requests, answers they may ask about, and whether they may ask now. */
export async function fetchMyRegrades(chapterId: string): Promise<MyRegrades> {
  const { data } = await api.get<MyRegrades>(`/regrade/mine/${chapterId}`);
  return data;
}

/** GET /regrade?chapter= (correctors and admins). */
export async function fetchRegradeQueue(chapterId: string): Promise<RegradeQueue> {
  const { data } = await api.get<RegradeQueue>('/regrade', { params: { chapter: chapterId } });
  return data;
}

export async function askRegrade(body: RegradeCreate): Promise<void> {
  await api.post('/regrade', body);
}

export async function acceptRegrade(id: string, body: RegradeAccept): Promise<void> {
  await api.post(`/regrade/${id}/accept`, body);
}

export async function declineRegrade(id: string, reply: string): Promise<void> {
  await api.post(`/regrade/${id}/decline`, { reply });
}

/** PUT /regrade/window/{chapterId} (admins): an ISO instant, or null to close. */
export async function saveRegradeWindow(chapterId: string, regradeUntil: string | null): Promise<void> {
  await api.put(`/regrade/window/${chapterId}`, { regradeUntil });
}

export const myRegradesQuery = (chapterId: string) =>
  queryOptions({ queryKey: regradeKeys.mine(chapterId), queryFn: () => fetchMyRegrades(chapterId), enabled: !!chapterId });

export function useMyRegrades(chapterId: string) {
  return useQuery(myRegradesQuery(chapterId));
}

export const regradeQueueQuery = (chapterId: string) =>
  queryOptions({ queryKey: regradeKeys.queue(chapterId), queryFn: () => fetchRegradeQueue(chapterId), enabled: !!chapterId });

export function useRegradeQueue(chapterId: string) {
  return useQuery(regradeQueueQuery(chapterId));
}

export function useAskRegrade(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: askRegrade,
    onSuccess: () => client.invalidateQueries({ queryKey: regradeKeys.mine(chapterId) }),
  });
}

/** Accepts (with a grade) or declines a request, then reloads the chapter's queue. */
export function useAnswerRegrade(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; accept: boolean; grade: string; reply: string }) =>
      v.accept ? acceptRegrade(v.id, { grade: v.grade, reply: v.reply }) : declineRegrade(v.id, v.reply),
    onSuccess: () => client.invalidateQueries({ queryKey: regradeKeys.queue(chapterId) }),
  });
}

export function useSaveRegradeWindow(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (regradeUntil: string | null) => saveRegradeWindow(chapterId, regradeUntil),
    onSuccess: () => client.invalidateQueries({ queryKey: regradeKeys.queue(chapterId) }),
  });
}
