import { stillAnsweringText } from '@olympe/contract';
import type { Tx } from '../db/client.js';
import { conflict } from '../errors.js';
import { countStillAnswering } from '../results/still-answering.js';
import { isChapterPublished, type PublicationState } from './publication.js';

/** The 409 `still_answering` of decision 139, in the words of PUT /results/{chapterId}/publication. */
export const stillAnsweringMessage = (n: number) =>
  `${stillAnsweringText(n)} à ce chapitre : confirmez la publication pour leur montrer les résultats.`;

/**
 * Decisions 139 and 152, on every way to show scores: PATCH /chapter/{id} with `analysis: true` publishes as « publish now »
 * does, so an unpublished online chapter is refused with 409 `still_answering` while pupils may still answer,
 * unless `confirm` is their current number. Paper chapters and a chapter already published are never refused.
 */
export async function assertMayPublishNow(
  tx: Tx,
  chapterId: string,
  chapter: PublicationState & { offline: boolean },
  confirm: number | undefined,
  now = new Date(),
): Promise<void> {
  if (chapter.offline || isChapterPublished(chapter, now)) return;
  const stillAnswering = await countStillAnswering(tx, chapterId, now);
  if (stillAnswering > 0 && confirm !== stillAnswering) throw conflict(stillAnsweringMessage(stillAnswering), 'still_answering');
}
