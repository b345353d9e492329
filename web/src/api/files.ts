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

/**
 * POST /pdfs/photos (decision 140): the photos of a proof, in the order of its pages; the server makes them
 * into one PDF and answers its stored path, as POST /pdfs does.
 */
export async function uploadPhotos(photos: File[], target: { exercise: string }, quiet = false): Promise<string> {
  const form = new FormData();
  form.append('exercise', target.exercise);
  for (const photo of photos) form.append('photos', photo, photo.name);
  const { data } = await api.post<{ path: string }>('/pdfs/photos', form, { skipNotifications: quiet });
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

/** What the answer of a PDF exercise also accepts (decision 140): photos of the copy, made into a PDF by the server. */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/heic,image/heif';

/** A phone's photo: JPEG, PNG or HEIC/HEIF, by its type or, when the browser gives none (HEIC on some), its name. */
export const isPhotoFile = (file: File) => PHOTO_ACCEPT.split(',').includes(file.type) || /\.(jpe?g|png|heic|heif)$/i.test(file.name);

/** A signed link asked at click time (a download cannot send the bearer header), so it never expires on an open page. */
export function usePdfLink() {
  return useMutation({ mutationFn: (path: string) => fetchPdfLink(path) });
}
