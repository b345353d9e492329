import { useEffect, useReducer } from 'react';
import { answerQueueFor } from './user-queues';
import type { AnswerQueue } from './answer-queue';

/**
 * The user's answer queue, re-rendering on every state change; sends what a previous page load
 * left unsent, sends again when the network returns, and warns before leaving with unsent answers.
 */
export function useAnswerQueue(userId: string | undefined): AnswerQueue | null {
  const queue = userId ? answerQueueFor(userId) : null;
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    if (!queue) return;
    const unsubscribe = queue.subscribe(rerender);
    void queue.flush();
    const online = () => void queue.flush();
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!queue.hasPending()) return;
      event.preventDefault();
      // Older browsers need a returnValue to show their (fixed) warning.
      event.returnValue = '';
    };
    window.addEventListener('online', online);
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      unsubscribe();
      window.removeEventListener('online', online);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [queue]);

  return queue;
}
