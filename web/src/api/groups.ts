import type { CreateGroup, GroupDetail, GroupSummary, UpdateGroupResult } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** GET /group: the caller's groups (names such as 'teachers', 'members'); admins get every group. */
export async function fetchMyGroups(): Promise<GroupSummary[]> {
  const { data } = await api.get<GroupSummary[]>('/group');
  return data;
}

export const groupKeys = {
  all: ['groups'] as const,
  detail: (id: string) => ['groups', id] as const,
};

/** GET /group/{id}: name and members (admins). */
export async function fetchGroup(id: string): Promise<GroupDetail> {
  const { data } = await api.get<GroupDetail>(`/group/${id}`);
  return data;
}

/**
 * The /groups page saves several rows in one go: each call is made without its own notification
 * (`quiet`) so that the page shows a single outcome.
 */
export async function createGroup(body: CreateGroup, quiet = false): Promise<GroupSummary> {
  const { data } = await api.post<GroupSummary>('/group', body, { skipNotifications: quiet });
  return data;
}

export async function renameGroup(id: string, name: string, quiet = false): Promise<void> {
  await api.patch(`/group/${id}`, { name }, { skipNotifications: quiet });
}

export async function deleteGroup(id: string, quiet = false): Promise<void> {
  await api.delete(`/group/${id}`, { skipNotifications: quiet });
}

/** PATCH /group/{id} with the full member list; a 400 names the unknown e-mails (`unknown`). */
export async function saveGroupMembers(id: string, members: string[]): Promise<UpdateGroupResult> {
  const { data } = await api.patch<UpdateGroupResult>(`/group/${id}`, { members });
  return data;
}

export const myGroupsQuery = queryOptions({ queryKey: groupKeys.all, queryFn: fetchMyGroups });

/** The caller's groups (every group for admins). */
export function useMyGroups() {
  return useQuery(myGroupsQuery);
}

export const groupQuery = (id: string) => queryOptions({ queryKey: groupKeys.detail(id), queryFn: () => fetchGroup(id), enabled: !!id });

/** One group with its members (admins). */
export function useGroup(id: string) {
  return useQuery(groupQuery(id));
}

/** Saves a group's whole member list, then reloads the group; a 400 names the unknown e-mails. */
export function useSaveGroupMembers(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (members: string[]) => saveGroupMembers(id, members),
    onSuccess: () => client.invalidateQueries({ queryKey: groupKeys.detail(id) }),
  });
}
