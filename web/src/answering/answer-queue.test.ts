import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerQueue, clearStoredAnswers, pruneStoredAnswers, saveStateLabel, type QueuedAnswer, type SendFailure } from './answer-queue';

class MemoryStorage implements Storage {
  data = new Map<string, string>();
  failWrites = false;
  get length() {
    return this.data.size;
  }
  clear() {
    this.data.clear();
  }
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  key(i: number) {
    return [...this.data.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.failWrites) throw new Error('QuotaExceededError');
    this.data.set(key, value);
  }
}

const NETWORK = new Error('Network Error');
const FINISHED = Object.assign(new Error('403'), { status: 403, message: 'L’épreuve est terminée.' });
const classify = (error: unknown): SendFailure =>
  error === NETWORK ? { retry: true } : { retry: false, message: (error as Error).message };

let storage: MemoryStorage;
let sent: QueuedAnswer[];
let failNext: unknown[];
let clock: number;

function makeQueue(send?: (e: QueuedAnswer) => Promise<unknown>) {
  return new AnswerQueue({
    storage,
    classify,
    now: () => clock,
    send:
      send ??
      (async (entry) => {
        sent.push(entry);
        const failure = failNext.shift();
        if (failure) throw failure;
        return { seq: entry.seq };
      }),
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.5); // no jitter
  storage = new MemoryStorage();
  sent = [];
  failNext = [];
  clock = 1_000_000;
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('AnswerQueue', () => {
  it('persists each value at once and sends only the last one, 500 ms after the last keystroke', async () => {
    const q = makeQueue();
    q.enqueue('u1', 'e1', '1');
    expect(q.pending('u1')).toEqual([{ userId: 'u1', exerciseId: 'e1', answer: '1', seq: 1_000_000 }]);
    expect(JSON.parse(storage.getItem('olympe.answerQueue')!)['u1:e1'].answer).toBe('1');
    expect(saveStateLabel(q.stateOf('u1', 'e1'))).toBe('Enregistrement…');

    await vi.advanceTimersByTimeAsync(400);
    q.enqueue('u1', 'e1', '12');
    await vi.advanceTimersByTimeAsync(499);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map((e) => e.answer)).toEqual(['12']);
    expect(q.pending()).toEqual([]);
    expect(saveStateLabel(q.stateOf('u1', 'e1'))).toBe('Enregistré');
  });

  it('debounces each exercise on its own', async () => {
    const q = makeQueue();
    q.enqueue('u1', 'e1', '1');
    await vi.advanceTimersByTimeAsync(300);
    q.enqueue('u1', 'e2', '2');
    await vi.advanceTimersByTimeAsync(200);
    expect(sent.map((e) => e.exerciseId)).toEqual(['e1']);
    await vi.advanceTimersByTimeAsync(300);
    expect(sent.map((e) => e.exerciseId)).toEqual(['e1', 'e2']);
  });

  it('gives strictly increasing seqs per exercise, even when the clock stands still or goes back', () => {
    const q = makeQueue();
    const a = q.enqueue('u1', 'e1', '1');
    const b = q.enqueue('u1', 'e1', '2');
    clock -= 5000;
    const c = q.enqueue('u1', 'e1', '3');
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(c.seq).toBeGreaterThan(b.seq);
    // Another exercise follows the clock.
    expect(q.enqueue('u1', 'e2', '1').seq).toBe(clock);
  });

  it('survives a reload: a new queue on the same storage sends what the old one could not', async () => {
    const first = makeQueue();
    first.enqueue('u1', 'e1', '42');
    first.dispose(); // the tab closes before the debounce
    expect(sent).toHaveLength(0);

    const second = makeQueue();
    expect(second.pending('u1').map((e) => e.answer)).toEqual(['42']);
    expect(second.pending('someone-else')).toEqual([]);
    await second.flush('u1');
    expect(sent.map((e) => e.answer)).toEqual(['42']);
    expect(second.hasPending()).toBe(false);
    expect(second.stateOf('u1', 'e1').kind).toBe('saved');
  });

  it('retries a network failure with exponential back-off, shows it offline, and loses nothing', async () => {
    const q = makeQueue();
    failNext = [NETWORK, NETWORK, NETWORK];
    q.enqueue('u1', 'e1', '7');
    await vi.advanceTimersByTimeAsync(500);
    expect(sent).toHaveLength(1);
    expect(saveStateLabel(q.stateOf('u1', 'e1'))).toBe('Hors ligne — la réponse sera envoyée dès le retour du réseau');
    expect(q.pending()).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1); // 1 s
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000); // 2 s
    expect(sent).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(3999);
    expect(sent).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1); // 4 s: succeeds
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((e) => e.seq)).size).toBe(1);
    expect(q.pending()).toEqual([]);
    expect(q.stateOf('u1', 'e1').kind).toBe('saved');
  });

  it('keeps showing offline while new keystrokes are typed during an outage, then sends the latest', async () => {
    const q = makeQueue();
    failNext = [NETWORK];
    q.enqueue('u1', 'e1', '1');
    await vi.advanceTimersByTimeAsync(500);
    q.enqueue('u1', 'e1', '15');
    expect(q.stateOf('u1', 'e1').kind).toBe('offline');
    await vi.advanceTimersByTimeAsync(500);
    expect(sent.map((e) => e.answer)).toEqual(['1', '15']);
    expect(q.stateOf('u1', 'e1').kind).toBe('saved');
    expect(q.pending()).toEqual([]);
  });

  it('caps the back-off', () => {
    const q = makeQueue();
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => q.retryDelay(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('drops a value the server refuses for good and says why', async () => {
    const q = makeQueue();
    failNext = [FINISHED];
    q.enqueue('u1', 'e1', '3');
    await vi.advanceTimersByTimeAsync(500);
    expect(q.stateOf('u1', 'e1')).toEqual({ kind: 'refused', message: 'L’épreuve est terminée.' });
    expect(saveStateLabel(q.stateOf('u1', 'e1'))).toBe('Non enregistré : L’épreuve est terminée.');
    expect(q.pending()).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });

  it('sends a value typed while the previous one was in flight, and removes it only once acknowledged', async () => {
    let release: () => void = () => {};
    const q = makeQueue(async (entry) => {
      sent.push(entry);
      if (sent.length === 1) await new Promise<void>((r) => (release = r));
    });
    q.enqueue('u1', 'e1', '1');
    await vi.advanceTimersByTimeAsync(500); // in flight
    q.enqueue('u1', 'e1', '2');
    await vi.advanceTimersByTimeAsync(500); // debounce fires while the first is in flight: waits
    expect(sent.map((e) => e.answer)).toEqual(['1']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((e) => e.answer)).toEqual(['1', '2']);
    expect(q.pending()).toEqual([]);
    expect(q.stateOf('u1', 'e1').kind).toBe('saved');
  });

  it('notifies subscribers on state changes', async () => {
    const q = makeQueue();
    const listener = vi.fn();
    const unsubscribe = q.subscribe(listener);
    q.enqueue('u1', 'e1', '1');
    await vi.advanceTimersByTimeAsync(500);
    expect(listener).toHaveBeenCalledTimes(2); // saving, saved
    unsubscribe();
    q.enqueue('u1', 'e1', '2');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('keeps values in memory when localStorage refuses writes', async () => {
    storage.failWrites = true;
    const q = makeQueue();
    failNext = [NETWORK];
    q.enqueue('u1', 'e1', '9');
    expect(q.pending().map((e) => e.answer)).toEqual(['9']);
    await vi.advanceTimersByTimeAsync(500 + 1000);
    expect(sent.map((e) => e.answer)).toEqual(['9', '9']);
    expect(q.pending()).toEqual([]);
  });
});

describe('AnswerQueue scoped to a user', () => {
  it('never sends another account’s unsent answers', async () => {
    const other = makeQueue();
    other.enqueue('u2', 'e1', '5');
    other.dispose();
    const q = new AnswerQueue({
      storage,
      classify,
      userId: 'u1',
      send: async (entry) => {
        sent.push(entry);
      },
    });
    q.enqueue('u1', 'e1', '1');
    await q.flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent.map((e) => e.userId)).toEqual(['u1']);
    expect(q.pending()).toEqual([]);
    expect(q.pending('u2')).toHaveLength(1);
  });
});

describe('AnswerQueue.valueToShow', () => {
  it('prefers the last value typed here when newer than the server’s, even once sent', async () => {
    const q = makeQueue();
    const typed = q.enqueue('u1', 'e1', '77');
    await vi.advanceTimersByTimeAsync(500);
    expect(q.pending()).toEqual([]);
    expect(q.valueToShow('u1', 'e1', { answer: '3', seq: typed.seq - 10 })).toBe('77');
    expect(q.valueToShow('u1', 'e1', { answer: '77', seq: typed.seq })).toBe('77');
    // Typed later on another device: the server wins.
    expect(q.valueToShow('u1', 'e1', { answer: '8', seq: typed.seq + 10 })).toBe('8');
    expect(q.valueToShow('u1', 'e2', undefined)).toBe('');
    expect(q.valueToShow('u1', 'e2', { answer: '5', seq: 1 })).toBe('5');
  });

  it('forgets a value the server refused', async () => {
    const q = makeQueue();
    failNext = [FINISHED];
    q.enqueue('u1', 'e1', '9');
    await vi.advanceTimersByTimeAsync(500);
    expect(q.valueToShow('u1', 'e1', { answer: '4', seq: 1 })).toBe('4');
  });
});

describe('answers kept on a shared computer', () => {
  /** u1 typed e1 (sent) and e2 (unsent); u2 typed e1 (sent) and e3 (unsent). */
  async function twoUsers() {
    const q = makeQueue();
    q.enqueue('u1', 'e1', 'sent by u1');
    q.enqueue('u2', 'e1', 'sent by u2');
    await vi.advanceTimersByTimeAsync(500);
    failNext.push(NETWORK, NETWORK);
    q.enqueue('u1', 'e2', 'unsent of u1');
    q.enqueue('u2', 'e3', 'unsent of u2');
    await vi.advanceTimersByTimeAsync(500);
    q.dispose();
    expect(
      q
        .pending()
        .map((e) => e.answer)
        .sort(),
    ).toEqual(['unsent of u1', 'unsent of u2']);
  }
  const stored = () => [...storage.data.values()].join(' ');

  it('clearStoredAnswers removes every value of one user, sent or not, and nothing of the others', async () => {
    await twoUsers();
    clearStoredAnswers('u1', { storage });
    expect(stored()).not.toMatch(/u1/);
    const q = makeQueue();
    expect(q.valueToShow('u1', 'e1', undefined)).toBe('');
    expect(q.valueToShow('u1', 'e2', undefined)).toBe('');
    expect(q.valueToShow('u2', 'e1', undefined)).toBe('sent by u2');
    expect(q.pending('u2').map((e) => e.answer)).toEqual(['unsent of u2']);
    clearStoredAnswers('u2', { storage });
    // Nothing of anyone is left, not even empty containers.
    expect(storage.data.size).toBe(0);
  });

  it('keepUnsent keeps only the values not sent yet', async () => {
    await twoUsers();
    clearStoredAnswers('u1', { storage, keepUnsent: true });
    const q = makeQueue();
    expect(q.valueToShow('u1', 'e1', undefined)).toBe('');
    expect(q.pending('u1').map((e) => e.answer)).toEqual(['unsent of u1']);
    expect(q.valueToShow('u1', 'e2', undefined)).toBe('unsent of u1');
  });

  it('pruneStoredAnswers at a login drops the other users’ shown values, keeps their unsent ones', async () => {
    await twoUsers();
    pruneStoredAnswers('u2', storage);
    const q = makeQueue();
    expect(q.valueToShow('u1', 'e1', undefined)).toBe('');
    expect(q.pending('u1').map((e) => e.answer)).toEqual(['unsent of u1']);
    expect(q.valueToShow('u2', 'e1', undefined)).toBe('sent by u2');
    expect(q.valueToShow('u2', 'e3', undefined)).toBe('unsent of u2');
  });
});
