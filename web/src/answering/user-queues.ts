import { AnswerQueue, clearStoredAnswers, pruneStoredAnswers } from './answer-queue';
import { classifySaveError, saveAnswer } from './requests';
import { readToken, tokenSubject } from '../session/token';

// One queue per signed-in user for the life of the tab: leaving the chapter page does not stop
// sending or retrying what the pupil typed. The session ends a user's queue when they log out or
// another user logs in on this browser (decisions.md §30).
const queues = new Map<string, AnswerQueue>();

/** Thrown instead of sending: kept and retried, it leaves only with its own user's token. */
export const OTHER_USER_TOKEN = 'Ces réponses appartiennent à un autre compte que celui connecté.';

export function answerQueueFor(userId: string): AnswerQueue {
  let queue = queues.get(userId);
  if (!queue) {
    queue = new AnswerQueue({
      userId,
      send: (entry) => {
        // The client sends whatever token is stored now: never one issued for someone else.
        const subject = tokenSubject(readToken());
        if (subject !== undefined && subject !== entry.userId) return Promise.reject(new Error(OTHER_USER_TOKEN));
        return saveAnswer(entry);
      },
      classify: classifySaveError,
    });
    queues.set(userId, queue);
  }
  return queue;
}

/** Whether this browser still holds answers of this user that the server has not acknowledged. */
export function hasUnsentAnswers(userId: string): boolean {
  return (queues.get(userId) ?? answerQueueFor(userId)).hasPending();
}

/** Sends the user's unsent answers now; resolves whether none is left, after `timeoutMs` at most. */
export async function flushAnswers(userId: string, timeoutMs: number): Promise<boolean> {
  const queue = answerQueueFor(userId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([queue.flush(), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  return !queue.hasPending();
}

/**
 * Logout: stops the user's queue and removes what this browser keeps of their answers. With
 * `keepUnsent` (the server refused the token: nobody chose to leave), unsent values stay for
 * their next login, shown to and sent for nobody else.
 */
export function forgetAnswers(userId: string, { keepUnsent = false } = {}): void {
  queues.get(userId)?.dispose();
  queues.delete(userId);
  clearStoredAnswers(userId, { keepUnsent });
}

/** Login: stops every other user's queue and drops their values shown in inputs. */
export function keepOnlyAnswersOf(userId: string): void {
  for (const [other, queue] of queues) {
    if (other === userId) continue;
    queue.dispose();
    queues.delete(other);
  }
  pruneStoredAnswers(userId);
}

/** Calls `onSent` once the user's queue holds nothing unsent any more (its own retries got through). */
export function whenAnswersSent(userId: string, onSent: () => void): () => void {
  const queue = answerQueueFor(userId);
  return queue.subscribe(() => {
    if (!queue.hasPending()) onSent();
  });
}
