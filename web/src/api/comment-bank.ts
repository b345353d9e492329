import type { BankComment, SchemeChangePreview } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { ExerciseFields } from './exercises';

/** The comment bank of an exercise (docs/product.md#returned-copies, decision 160) and the scheme change's preview (decision 161). */
export const bankKeys = {
  all: ['comment-bank'] as const,
  exercise: (exerciseId: string) => ['comment-bank', exerciseId] as const,
};

/** GET /exos/{id}/comments: the remarks in their order. */
export async function fetchBank(exerciseId: string): Promise<BankComment[]> {
  const { data } = await api.get<BankComment[]>(`/exos/${exerciseId}/comments`);
  return data;
}

export const bankQuery = (exerciseId: string, enabled = true) =>
  queryOptions({ queryKey: bankKeys.exercise(exerciseId), queryFn: () => fetchBank(exerciseId), enabled: enabled && exerciseId !== '' });

export function useBank(exerciseId: string, enabled = true) {
  return useQuery(bankQuery(exerciseId, enabled));
}

/** POST /exos/{id}/comments: a new remark at the end of the bank. */
export async function addBankComment(exerciseId: string, text: string): Promise<BankComment> {
  const { data } = await api.post<BankComment>(`/exos/${exerciseId}/comments`, { text });
  return data;
}

/** PATCH /exos/{id}/comments/{commentId} (admins): reword, or move to a place (0 = first). */
export async function updateBankComment(exerciseId: string, commentId: string, patch: { text?: string; position?: number }) {
  const { data } = await api.patch<BankComment>(`/exos/${exerciseId}/comments/${commentId}`, patch);
  return data;
}

/** DELETE /exos/{id}/comments/{commentId} (admins): retired, kept for the copies that applied it. */
export async function retireBankComment(exerciseId: string, commentId: string): Promise<void> {
  await api.delete(`/exos/${exerciseId}/comments/${commentId}`);
}

function useBankMutation<T>(exerciseId: string, run: (vars: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: bankKeys.exercise(exerciseId) }),
  });
}

export const useAddBankComment = (exerciseId: string) => useBankMutation(exerciseId, (text: string) => addBankComment(exerciseId, text));

export const useUpdateBankComment = (exerciseId: string) =>
  useBankMutation(exerciseId, ({ id, ...patch }: { id: string; text?: string; position?: number }) =>
    updateBankComment(exerciseId, id, patch),
  );

export const useRetireBankComment = (exerciseId: string) => useBankMutation(exerciseId, (id: string) => retireBankComment(exerciseId, id));

/** POST /exos/{id}/scheme/preview: what new scheme points would do to the grades already given. */
export async function previewSchemeChange(
  exerciseId: string,
  schemeItems: NonNullable<ExerciseFields['schemeItems']>,
): Promise<SchemeChangePreview> {
  const { data } = await api.post<SchemeChangePreview>(`/exos/${exerciseId}/scheme/preview`, { schemeItems }, { skipNotifications: true });
  return data;
}
