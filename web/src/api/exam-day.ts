import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AttendanceBody, MailStats } from '@olympe/contract';
import { api } from './client';
import { centerKeys } from './centers';

/** The exam day (decision 59): files of a centre (convocations, attendance sheet, workbook), attendance, mail counts. */

export const examDayKeys = { mailStats: ['mail', 'stats'] as const };

/** The downloadable files of a centre, by kind. */
export const centerFileUrl = {
  convocation: (chapterId: string) => `/center/convocation/${chapterId}.pdf`,
  attendanceSheet: (chapterId: string) => `/center/attendance-sheet/${chapterId}.pdf`,
  registeredXlsx: (chapterId: string) => `/center/registered/${chapterId}.xlsx`,
};

/** GET /center/overview/{chapterId}/centres.xlsx (admins): the exam-day table per centre. */
export const centerDayXlsxUrl = (chapterId: string) => `/center/overview/${chapterId}/centres.xlsx`;

/** The server's French message inside a Blob error body (downloads ask for a Blob). */
async function blobMessage(error: unknown): Promise<string | null> {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (!(data instanceof Blob)) return null;
  try {
    const parsed = JSON.parse(await data.text()) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : null;
  } catch {
    return null;
  }
}

/**
 * Fetches a file with the bearer token and hands it to the browser as a download. Rejects with
 * the server's French message.
 */
export async function downloadCenterFile(url: string, filename: string, institution?: string): Promise<void> {
  let blob: Blob;
  try {
    const { data } = await api.get<Blob>(url, {
      responseType: 'blob',
      params: institution ? { institution } : undefined,
      skipNotifications: true,
    });
    blob = data;
  } catch (error) {
    throw new Error((await blobMessage(error)) ?? 'Le fichier n’a pas pu être téléchargé.');
  }
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** PUT /center/attendance/{chapterId}: presence ticks or scans. */
export async function saveAttendance(chapterId: string, body: AttendanceBody, institution?: string): Promise<void> {
  await api.put(`/center/attendance/${chapterId}`, body, { params: institution ? { institution } : undefined });
}

export function useSaveAttendance(chapterId: string, institution?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AttendanceBody) => saveAttendance(chapterId, body, institution),
    onSuccess: () => client.invalidateQueries({ queryKey: centerKeys.all }),
  });
}

/** GET /mail/stats (admins): notification mails by kind and status. */
export async function fetchMailStats(): Promise<MailStats> {
  const { data } = await api.get<MailStats>('/mail/stats');
  return data;
}

export function useMailStats() {
  return useQuery({ queryKey: examDayKeys.mailStats, queryFn: fetchMailStats, refetchInterval: 30_000 });
}
