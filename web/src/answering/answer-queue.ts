/**
 * docs/product.md#design-4 "Nothing a student typed is lost": every keystroke's value is written to localStorage
 * at once (it survives a reload or a closed tab), then sent after the debounce; failures are
 * retried with exponential back-off. One pending value per (user, exercise): a newer value
 * replaces the unsent older one, and each carries a strictly increasing `seq` the server uses to
 * never let an older save replace a newer one.
 */

export interface QueuedAnswer {
  userId: string;
  exerciseId: string;
  answer: string;
  seq: number;
}

/** What the page shows per exercise (SPEC labels in `saveStateLabel`). */
export type SaveState =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'offline' } | { kind: 'refused'; message: string };

export type SendFailure = { retry: true } | { retry: false; message: string };

export interface AnswerQueueOptions {
  /**
   * The signed-in user this queue sends for: `pending()` and `flush()` default to their values,
   * so another account's unsent answers (same browser) are never sent with this user's token.
   */
  userId?: string;
  /** Sends one save; resolves once the server acknowledged it. */
  send: (entry: QueuedAnswer) => Promise<unknown>;
  /** Whether a failure is worth retrying (network, 5xx, 401, 429) or final (400, 403...). */
  classify: (error: unknown) => SendFailure;
  storage?: Storage;
  now?: () => number;
  /** docs/product.md#spec-4: numeric answers are saved 500 ms after the last keystroke, per exercise. */
  debounceMs?: number;
  baseRetryMs?: number;
  maxRetryMs?: number;
}

const ENTRIES_KEY = 'olympe.answerQueue';
/** The last value typed per (user, exercise), sent or not: it orders seqs and beats an older server value. */
const LATEST_KEY = 'olympe.answerLatest';

const keyOf = (userId: string, exerciseId: string) => `${userId}:${exerciseId}`;

export class AnswerQueue {
  private readonly storage: Storage;
  private readonly now: () => number;
  private readonly debounceMs: number;
  private readonly baseRetryMs: number;
  private readonly maxRetryMs: number;
  private readonly states = new Map<string, SaveState>();
  private readonly debounces = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Used when localStorage refuses writes (full, disabled): values then live until the tab closes. */
  private readonly memory = new Map<string, object>();
  private failures = 0;
  private disposed = false;

  constructor(private readonly options: AnswerQueueOptions) {
    this.storage = options.storage ?? window.localStorage;
    this.now = options.now ?? Date.now;
    this.debounceMs = options.debounceMs ?? 500;
    this.baseRetryMs = options.baseRetryMs ?? 1000;
    this.maxRetryMs = options.maxRetryMs ?? 30_000;
  }

  /** Records a value now (persisted) and sends it after the debounce. Returns the queued entry. */
  enqueue(userId: string, exerciseId: string, answer: string): QueuedAnswer {
    const key = keyOf(userId, exerciseId);
    const latest = this.read<Record<string, { seq: number; answer: string }>>(LATEST_KEY);
    const seq = Math.max(this.now(), (latest[key]?.seq ?? 0) + 1);
    latest[key] = { seq, answer };
    this.write(LATEST_KEY, latest);
    const entry: QueuedAnswer = { userId, exerciseId, answer, seq };
    const entries = this.read<Record<string, QueuedAnswer>>(ENTRIES_KEY);
    entries[key] = entry;
    this.write(ENTRIES_KEY, entries);
    if (this.stateOf(userId, exerciseId).kind !== 'offline') this.setState(key, { kind: 'saving' });
    const pending = this.debounces.get(key);
    if (pending) clearTimeout(pending);
    this.debounces.set(
      key,
      setTimeout(() => {
        this.debounces.delete(key);
        void this.sendOne(key);
      }, this.debounceMs),
    );
    return entry;
  }

  /** Unsent values, for one user or all (a reload shows them instead of the server's older value). */
  pending(userId = this.options.userId): QueuedAnswer[] {
    return Object.values(this.read<Record<string, QueuedAnswer>>(ENTRIES_KEY)).filter((e) => !userId || e.userId === userId);
  }

  hasPending(userId = this.options.userId): boolean {
    return this.pending(userId).length > 0;
  }

  /**
   * The value to show in an input: the last one typed on this device when it is newer (higher
   * seq) than the server's, else the server's. Covers a reload racing the flush of unsent values.
   */
  valueToShow(userId: string, exerciseId: string, server: { answer: string; seq: number } | undefined): string {
    const local = this.read<Record<string, { seq: number; answer: string }>>(LATEST_KEY)[keyOf(userId, exerciseId)];
    if (local && (!server || local.seq >= server.seq)) return local.answer;
    return server?.answer ?? '';
  }

  stateOf(userId: string, exerciseId: string): SaveState {
    return this.states.get(keyOf(userId, exerciseId)) ?? { kind: 'idle' };
  }

  /** Sends every stored value now (page load, back online, retry timer), debounces aside. */
  async flush(userId = this.options.userId): Promise<void> {
    const keys = this.pending(userId).map((e) => keyOf(e.userId, e.exerciseId));
    for (const key of keys) {
      const timer = this.debounces.get(key);
      if (timer) {
        clearTimeout(timer);
        this.debounces.delete(key);
      }
      if (this.states.get(key)?.kind !== 'offline') this.setState(key, { kind: 'saving' });
    }
    await Promise.all(keys.map((key) => this.sendOne(key)));
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops timers (values stay in storage for the next page). */
  dispose(): void {
    this.disposed = true;
    for (const timer of this.debounces.values()) clearTimeout(timer);
    this.debounces.clear();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private async sendOne(key: string): Promise<void> {
    if (this.disposed || this.inFlight.has(key)) return;
    const entry = this.read<Record<string, QueuedAnswer>>(ENTRIES_KEY)[key];
    if (!entry || (this.options.userId && entry.userId !== this.options.userId)) return;
    this.inFlight.add(key);
    let outcome: 'sent' | 'retry' | 'refused' = 'sent';
    try {
      await this.options.send(entry);
      this.failures = 0;
      this.rememberLatest(key, entry);
    } catch (error) {
      const failure = this.options.classify(error);
      if (failure.retry) {
        outcome = 'retry';
      } else {
        outcome = 'refused';
        // A final refusal (deadline passed, bad value): keeping it would retry forever.
        const newer = !this.removeIfSame(key, entry.seq);
        if (!newer) this.forgetLatest(key, entry.seq);
        this.setState(key, { kind: 'refused', message: failure.message });
        if (newer && !this.debounces.has(key)) queueMicrotask(() => void this.sendOne(key));
      }
    } finally {
      this.inFlight.delete(key);
    }
    if (this.disposed) return;
    if (outcome === 'sent') {
      const newer = !this.removeIfSame(key, entry.seq);
      // A newer value typed while this one was in flight: send it too (unless its debounce runs).
      if (newer) {
        if (!this.debounces.has(key)) void this.sendOne(key);
      } else {
        this.setState(key, { kind: 'saved' });
      }
      // Network is back: anything left waiting for the retry timer can go now.
      if (this.retryTimer && !newer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = null;
        void this.flush();
      }
    } else if (outcome === 'retry') {
      this.setState(key, { kind: 'offline' });
      this.failures += 1;
      this.scheduleRetry();
    }
  }

  /** Delay before the next attempt: base × 2^(failures-1), capped, with ±20 % jitter so a room does not retry in step. */
  retryDelay(failures = this.failures): number {
    const raw = Math.min(this.maxRetryMs, this.baseRetryMs * 2 ** Math.max(0, failures - 1));
    return Math.round(raw * (0.8 + Math.random() * 0.4));
  }

  private scheduleRetry() {
    if (this.retryTimer || this.disposed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, this.retryDelay());
  }

  /** Removes the stored value if it is still the one sent; false when a newer one replaced it. */
  private removeIfSame(key: string, seq: number): boolean {
    const entries = this.read<Record<string, QueuedAnswer>>(ENTRIES_KEY);
    const current = entries[key];
    if (current && current.seq !== seq) return false;
    delete entries[key];
    this.write(ENTRIES_KEY, entries);
    return true;
  }

  private rememberLatest(key: string, entry: QueuedAnswer) {
    const latest = this.read<Record<string, { seq: number; answer: string }>>(LATEST_KEY);
    if ((latest[key]?.seq ?? -1) >= entry.seq) return;
    latest[key] = { seq: entry.seq, answer: entry.answer };
    this.write(LATEST_KEY, latest);
  }

  /** A refused value never reached the server: it must not be shown as the pupil's answer. */
  private forgetLatest(key: string, seq: number) {
    const latest = this.read<Record<string, { seq: number; answer: string }>>(LATEST_KEY);
    if (latest[key]?.seq !== seq) return;
    delete latest[key];
    this.write(LATEST_KEY, latest);
  }

  private setState(key: string, state: SaveState) {
    const before = this.states.get(key);
    if (before?.kind === state.kind && (state.kind !== 'refused' || (before as typeof state).message === state.message)) return;
    this.states.set(key, state);
    for (const listener of this.listeners) listener();
  }

  private read<T extends object>(name: string): T {
    const kept = this.memory.get(name);
    if (kept) return structuredClone(kept) as T;
    try {
      const raw = this.storage.getItem(name);
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      return (parsed && typeof parsed === 'object' ? parsed : {}) as T;
    } catch {
      return {} as T;
    }
  }

  private write(name: string, value: object) {
    try {
      this.storage.setItem(name, JSON.stringify(value));
      this.memory.delete(name);
    } catch {
      // Storage full or disabled (private mode): keep the values in memory, still sent and retried.
      this.memory.set(name, structuredClone(value));
    }
  }
}

type StoredMap = Record<string, { userId?: string }>;

function readMap(storage: Storage, name: string): StoredMap {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(name) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as StoredMap) : {};
  } catch {
    return {};
  }
}

/** Keeps the kept rows, or removes the item when none is left (nothing of anyone lingers). */
function writeMap(storage: Storage, name: string, map: StoredMap, keep: (key: string) => boolean) {
  const kept = Object.fromEntries(Object.entries(map).filter(([key]) => keep(key)));
  try {
    if (Object.keys(kept).length === 0) storage.removeItem(name);
    else storage.setItem(name, JSON.stringify(kept));
  } catch {
    // Storage disabled: nothing was kept there in the first place.
  }
}

/** The user a stored key (`${userId}:${exerciseId}`) belongs to. */
const userOfKey = (key: string) => key.slice(0, key.indexOf(':'));

/**
 * Shared school computers (decisions.md §30): removes what this browser keeps of one user's
 * answers, the values shown in the inputs and, unless `keepUnsent`, the values not sent yet.
 * The caller decides when unsent values may go (after a flush, or once the pupil was warned).
 */
export function clearStoredAnswers(userId: string, { storage = window.localStorage, keepUnsent = false } = {}): void {
  const entries = readMap(storage, ENTRIES_KEY);
  const unsent = new Set(keepUnsent ? Object.keys(entries).filter((key) => userOfKey(key) === userId) : []);
  writeMap(storage, ENTRIES_KEY, entries, (key) => userOfKey(key) !== userId || unsent.has(key));
  writeMap(storage, LATEST_KEY, readMap(storage, LATEST_KEY), (key) => userOfKey(key) !== userId || unsent.has(key));
}

/**
 * At a login: another user's values shown in inputs are dropped; only their unsent values stay, to
 * be sent when they log in again (they are never shown to nor sent for anyone else).
 */
export function pruneStoredAnswers(keepUserId: string, storage: Storage = window.localStorage): void {
  const entries = readMap(storage, ENTRIES_KEY);
  writeMap(storage, LATEST_KEY, readMap(storage, LATEST_KEY), (key) => userOfKey(key) === keepUserId || key in entries);
}

/** The per-exercise status text (docs/product.md#design-4), as the page shows it. */
export function saveStateLabel(state: SaveState): string | null {
  switch (state.kind) {
    case 'saved':
      return 'Enregistré';
    case 'saving':
      return 'Enregistrement…';
    case 'offline':
      return 'Hors ligne — la réponse sera envoyée dès le retour du réseau';
    case 'refused':
      return `Non enregistré : ${state.message}`;
    default:
      return null;
  }
}
