import { LRUCache } from 'lru-cache';
import type { AuthContext } from '../auth/context.js';

/**
 * A bounded memo with a time to live per entry (lru-cache, decision 145): the least recently used entry goes
 * first when full, an expired entry is never returned. The memos are re-checked against the database before
 * they decide anything (save.ts), so the TTL only bounds memory and age. `now` is for tests.
 */
export function memoCache<K extends {}, V extends {}>(maxEntries: number, ttlMs: number, now?: () => number): LRUCache<K, V> {
  // lru-cache counts an entry stale once its age is over `ttl`; the memo is gone once its age reaches `ttlMs`
  // (age ≥ ttlMs), as before lru-cache: hence ttlMs - 1 on millisecond clocks. ttlResolution 0: the clock is read
  // at each check, never a cached instant.
  return new LRUCache<K, V>({ max: maxEntries, ttl: ttlMs - 1, ttlResolution: 0, ...(now ? { perf: { now } } : {}) });
}

/** A save decision that held, valid while its context row keeps the same fingerprint. */
export interface SaveMemo {
  fingerprint: string;
  /** The decision depends on the clock only through this window (status `started`). */
  fromMs: number;
  untilMs: number;
}

/**
 * Per instance: (user, token version, impersonator, exercise) → the last allowed decision. Every
 * use is re-checked by the fingerprint inside the insert, so a stale entry only costs the full
 * path; the bound and TTL limit memory (3,000 pupils × 5 exercises fit 5 times).
 */
export const saveMemos = memoCache<string, SaveMemo>(75_000, 15 * 60_000);

export const memoKey = (auth: AuthContext, exerciseId: string) =>
  `${auth.userId}|${auth.tokenVersion}|${auth.actorId ?? ''}|${auth.sessionId ?? ''}|${exerciseId}`;
