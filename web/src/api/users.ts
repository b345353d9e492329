import type { ImportReport } from '@olympe/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from './client';

/** POST /user/logto (admins): a session acting as the user, for "Simuler" (its tokens, decision 136). */
export async function logto(uid: string): Promise<{ token: string; refreshToken: string }> {
  const { data } = await api.post<{ token: string; refreshToken: string }>('/user/logto', { uid });
  return data;
}

/**
 * POST /users/import (school staff, admins): a CSV or XLSX of pupils. `preview` answers what would
 * happen line by line without writing anything. Refusals are shown on the page, not as toasts.
 */
export async function importPupils(input: { file: File; institution?: string | null; preview: boolean }): Promise<ImportReport> {
  const form = new FormData();
  if (input.institution) form.append('institution', input.institution);
  form.append('preview', String(input.preview));
  form.append('file', input.file);
  const { data } = await api.post<ImportReport>('/users/import', form, { skipNotifications: true, timeout: 120_000 });
  return data;
}

export function useImportPupils() {
  return useMutation({ mutationFn: importPupils });
}
