import type { GroupSummary } from '@olympe/contract';
import { api } from './client';

/** GET /group: the caller's groups (names such as 'teachers', 'members'). */
export async function fetchMyGroups(): Promise<GroupSummary[]> {
  const { data } = await api.get<GroupSummary[]>('/group');
  return data;
}
