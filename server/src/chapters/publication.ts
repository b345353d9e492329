/** What decides whether a chapter's results are published: its flag, and the instant it was scheduled for. */
export interface PublicationState {
  analysis: boolean;
  /** A Date (drizzle rows) or epoch milliseconds (raw SQL rows, as instants travel there). */
  publishAt: Date | number | null;
}

/**
 * The one rule of "published" (decision 69): the flag is set, or the
 * scheduled instant has passed. The server applies a schedule by itself, with no job to run: every
 * place that shows grades, locks answers or reports `analysis` asks this function.
 */
export function isChapterPublished(chapter: PublicationState, now: Date = new Date()): boolean {
  if (chapter.analysis) return true;
  if (chapter.publishAt === null) return false;
  const at = typeof chapter.publishAt === 'number' ? chapter.publishAt : chapter.publishAt.getTime();
  return at <= now.getTime();
}
