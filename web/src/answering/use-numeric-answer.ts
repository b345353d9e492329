import { useState } from 'react';
import type { MyAnswer } from '@olympe/contract';
import { numericAnswerError } from '@olympe/contract/numeric';
import type { AnswerQueue, SaveState } from './answer-queue';

/**
 * A numeric answer's field: the value shown, the reason it cannot be saved, and the change that queues it. A value
 * typed on this device and newer than the server's is shown (docs/product.md#design-4, after a reload).
 */
export function useNumericAnswer({
  queue,
  userId,
  exerciseId,
  answer,
  analysis,
}: {
  queue: AnswerQueue;
  userId: string;
  exerciseId: string;
  answer: MyAnswer | undefined;
  analysis: boolean;
}): { value: string; error: string | null; state: SaveState; change: (next: string) => void } {
  const [value, setValue] = useState(() => queue.valueToShow(userId, exerciseId, answer));
  // Every key reaches the field (a filter that drops `,` or `-` saved `05` for `0,5`); a value the
  // automatic correction could not read is said so and never queued (docs/decisions.md).
  const error = analysis ? null : numericAnswerError(value);
  const change = (next: string) => {
    setValue(next);
    if (numericAnswerError(next) === null) queue.enqueue(userId, exerciseId, next);
  };
  return { value, error, state: queue.stateOf(userId, exerciseId), change };
}
