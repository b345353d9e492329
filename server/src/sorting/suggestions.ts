import type { PageLabel, PageReading } from '@olympe/contract';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The QR decoder's per-page labels as the sorting page may use them: pages within the PDF, once
 * each, ids that look like ids, rotations on the 90° steps. Anything else is left out (the sorter
 * chooses by hand); null when nothing usable remains.
 */
export function cleanSuggestions(raw: unknown, pageCount: number): PageLabel[] | null {
  if (!Array.isArray(raw)) return null;
  const byPage = new Map<number, PageLabel>();
  for (const item of raw as Array<Record<string, unknown>>) {
    if (!item || typeof item !== 'object') continue;
    const pageNum = item.pageNum;
    if (typeof pageNum !== 'number' || !Number.isInteger(pageNum) || pageNum < 1 || pageNum > pageCount) continue;
    if (byPage.has(pageNum)) continue;
    const user = typeof item.user === 'string' && UUID.test(item.user) ? item.user.toLowerCase() : null;
    const exercises = Array.isArray(item.exercises)
      ? [...new Set(item.exercises.filter((e): e is string => typeof e === 'string' && UUID.test(e)).map((e) => e.toLowerCase()))]
      : [];
    const turn = typeof item.rotation === 'number' && Number.isFinite(item.rotation) ? Math.round(item.rotation / 90) * 90 : 0;
    const rotation = (((turn % 360) + 360) % 360) as PageLabel['rotation'];
    byPage.set(pageNum, { pageNum, user, exercises, rotation });
  }
  if (byPage.size === 0) return null;
  return [...byPage.values()].sort((a, b) => a.pageNum - b.pageNum);
}

const PAGE_READINGS = new Set(['read', 'unread', 'blank']);

/** What the reader found on each page, as stored (decode-job.ts); null unless it is one word a page. */
export function cleanPageReadings(raw: unknown, pageCount: number): PageReading[] | null {
  if (!Array.isArray(raw) || raw.length !== pageCount) return null;
  return raw.every((r) => typeof r === 'string' && PAGE_READINGS.has(r)) ? (raw as PageReading[]) : null;
}
