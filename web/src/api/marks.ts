import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ArbitrationRow, Assignments, AssignmentsSave, GradingOptions, GradingTable } from '@olympe/contract';
import { api } from './client';
import { chapterKeys } from './chapters';
import { gradingHeaderQuery, gradingKeys } from './grading';

/** Decisions 62–64: arbitration, assignments of exercises to correctors, grading options of a chapter. */
export const marksKeys = {
  arbitration: (chapterId: string) => ['marks', 'arbitration', chapterId] as const,
  assignments: (chapterId: string) => ['marks', 'assignments', chapterId] as const,
};

/** GET /answer/arbitration/{chapterId} (admins): copies whose two grades are too far apart. */
export async function fetchArbitration(chapterId: string): Promise<ArbitrationRow[]> {
  const { data } = await api.get<ArbitrationRow[]>(`/answer/arbitration/${chapterId}`);
  return data;
}

export const arbitrationQuery = (chapterId: string, enabled = true) =>
  queryOptions({ queryKey: marksKeys.arbitration(chapterId), queryFn: () => fetchArbitration(chapterId), enabled: enabled && !!chapterId });

export function useArbitration(chapterId: string, enabled: boolean) {
  return useQuery(arbitrationQuery(chapterId, enabled));
}

/** GET /chapter/{id}/assignments: who grades which exercise (an empty list: anyone). */
export async function fetchAssignments(chapterId: string): Promise<Assignments> {
  const { data } = await api.get<Assignments>(`/chapter/${chapterId}/assignments`);
  return data;
}

export const assignmentsQuery = (chapterId: string, enabled = true) =>
  queryOptions({ queryKey: marksKeys.assignments(chapterId), queryFn: () => fetchAssignments(chapterId), enabled: enabled && !!chapterId });

export function useAssignments(chapterId: string, enabled: boolean) {
  return useQuery(assignmentsQuery(chapterId, enabled));
}

/** One chapter's data for the « À corriger » list (decision 141): its grading table header and its assignments. */
export interface ChapterWork {
  chapterId: string;
  header: GradingTable | undefined;
  assignments: Assignments | undefined;
  pending: boolean;
  failed: boolean;
}

/** Whether a grading table header counts copies answered and not graded yet. */
const hasWaiting = (header: GradingTable | undefined) => !!header?.page?.counts?.some((c) => c.answered > c.graded);

/**
 * The « À corriger » list's data, from the routes the grading table already reads (no route of its own), in the same
 * cache entries as the grading table's header. The assignments only tell which exercises are another corrector's:
 * they are asked for a member's chapters with copies waiting, never for an admin, who takes any copy.
 */
export function useChaptersWork(chapterIds: readonly string[], isAdmin: boolean): ChapterWork[] {
  const headers = useQueries({ queries: chapterIds.map((id) => gradingHeaderQuery(id, '')) });
  const needed = chapterIds.map((_, i) => !isAdmin && hasWaiting(headers[i]?.data));
  const assignments = useQueries({ queries: chapterIds.map((id, i) => assignmentsQuery(id, needed[i])) });
  return chapterIds.map((chapterId, i) => ({
    chapterId,
    header: headers[i]?.data,
    assignments: assignments[i]?.data,
    pending: !!headers[i]?.isPending || (needed[i] && !!assignments[i]?.isPending),
    failed: !!headers[i]?.isError || !!assignments[i]?.isError,
  }));
}

/** PUT /chapter/{id}/assignments (admins): replaces the chapter's assignments. */
export async function saveAssignments(chapterId: string, body: AssignmentsSave): Promise<void> {
  await api.put(`/chapter/${chapterId}/assignments`, body);
}

export function useSaveAssignments(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AssignmentsSave) => saveAssignments(chapterId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: marksKeys.assignments(chapterId) }),
    onError: (error) => console.error(error),
  });
}

/** PATCH /chapter/{id} with the grading options (admins): anonymous, double correction and its tolerance. */
export async function saveGradingOptions(chapterId: string, body: Partial<GradingOptions>, quiet = false): Promise<void> {
  await api.patch(`/chapter/${chapterId}`, body, { skipNotifications: quiet });
}

export function useSaveGradingOptions(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<GradingOptions>) => saveGradingOptions(chapterId, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: chapterKeys.detail(chapterId) });
      void client.invalidateQueries({ queryKey: gradingKeys.table(chapterId) });
    },
    onError: (error) => console.error(error),
  });
}
