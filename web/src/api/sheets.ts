import type { SheetLinkQuery } from '@olympe/contract';
import { api } from './client';

/**
 * GET /sheets/{chapterId}/link: a short-lived URL of the answer sheets PDF (a centre's pupils, or
 * the blank sheet), so the browser downloads it itself: a download cannot send the bearer header.
 */
export async function fetchSheetsLink(chapterId: string, query: SheetLinkQuery): Promise<string> {
  const { data } = await api.get<{ url: string }>(`/sheets/${chapterId}/link`, { params: query });
  return data.url;
}

/** Starts the browser's download of a same-origin URL. */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}
