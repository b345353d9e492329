import { useMutation } from '@tanstack/react-query';
import { api } from './client';

/** POST /pdfs: multipart with `user`, then `exercise` or `chapter`, then the file; answers the stored path. */
/** `quiet`: no notification on failure (automatic retries of the chapter page). */
export async function uploadPdf(file: File, target: { user: string; exercise?: string; chapter?: string }, quiet = false): Promise<string> {
  const form = new FormData();
  form.append('user', target.user);
  if (target.exercise) form.append('exercise', target.exercise);
  if (target.chapter) form.append('chapter', target.chapter);
  form.append('file', file, file.name);
  const { data } = await api.post<{ path: string }>('/pdfs', form, { skipNotifications: quiet });
  return data.path;
}

/** GET /pdfs/<id>.pdf with the bearer header (the viewer renders the bytes). */
export async function fetchPdf(path: string): Promise<ArrayBuffer> {
  const { data } = await api.get<ArrayBuffer>(`/${path.replace(/^\/+/, '')}`, { responseType: 'arraybuffer' });
  return data;
}

/** A short-lived URL that works without the Authorization header (download links). */
export async function fetchPdfLink(path: string): Promise<string> {
  const { data } = await api.get<{ url: string }>(`/${path.replace(/^\/+/, '')}/link`);
  return data.url;
}

/** docs/product.md#spec-5: uploads accept PDF only; other files dropped or chosen are ignored. */
export const isPdfFile = (file: File) => file.type === 'application/pdf' || /\.pdf$/i.test(file.name);

/** A signed link asked at click time (a download cannot send the bearer header), so it never expires on an open page. */
export function usePdfLink() {
  return useMutation({ mutationFn: (path: string) => fetchPdfLink(path) });
}
