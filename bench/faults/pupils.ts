/**
 * Simulated pupils' pages: each runs the browser's own save queue (web/src/answering/answer-queue.ts,
 * the one the chapter page uses) over real HTTP, with the page's retry rule (classifySaveError in
 * web/src/answering/requests.ts: no response, 5xx, 401, 408, 429 are retried with back-off; any other
 * refusal is final). "Pages recover by themselves" = after a fault every queue empties without
 * anyone reloading, and the server holds each pupil's last typed value.
 */
import type http from 'node:http';
import { AnswerQueue, type QueuedAnswer } from '../../web/src/answering/answer-queue.js';
import { call, checkStored, pool, sleep, type Ack, type CheckDb, type Checks, type Seeded } from './harness.js';

class MemoryStorage {
  private readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

class SaveFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Same rule as web/src/answering/requests.ts classifySaveError (that module pulls in the page's HTTP client). */
function classify(error: unknown) {
  if (!(error instanceof SaveFailure) || error.status === 0) return { retry: true as const };
  const s = error.status;
  if (s >= 500 || s === 401 || s === 408 || s === 429) return { retry: true as const };
  return { retry: false as const, message: error.message };
}

export interface ClassStats {
  acks: Ack[];
  /** Responses by status ("0" = no response), every attempt counted. */
  statuses: Map<string, number>;
  /** Final refusals the page would show ("Non enregistré : …"). */
  refused: string[];
  /** 503 bodies whose message is not the French one. */
  badMessages: string[];
  slowest: number;
}

export class SimPupil {
  readonly queue: AnswerQueue;
  /** Last value typed per exercise (what the pupil sees in the input). */
  readonly typed = new Map<string, { answer: string; seq: number }>();
  private sends = 0;
  private typedCount = 0;

  constructor(
    readonly index: number,
    readonly user: Seeded['pupils'][number],
    readonly exerciseIds: string[],
    readonly stats: ClassStats,
    /** Where the next save goes (alternates between instances in the two-instance scenario). */
    readonly baseFor: (sendNumber: number) => string,
    readonly agent: http.Agent,
  ) {
    this.queue = new AnswerQueue({
      userId: user.id,
      storage: new MemoryStorage() as unknown as Storage,
      send: (entry) => this.send(entry),
      classify,
    });
  }

  private async send(entry: QueuedAnswer) {
    const base = this.baseFor(this.sends++);
    const res = await call(base, 'POST', '/api/answer', {
      token: this.user.token,
      body: { exerciseId: entry.exerciseId, answer: entry.answer, seq: entry.seq },
      agent: this.agent,
      timeoutMs: 15_000,
    });
    const key = String(res.status);
    this.stats.statuses.set(key, (this.stats.statuses.get(key) ?? 0) + 1);
    this.stats.slowest = Math.max(this.stats.slowest, res.ms);
    if (res.status === 503 && res.json?.message !== 'Le service est momentanément indisponible. Réessayez dans un instant.') {
      this.stats.badMessages.push(JSON.stringify(res.json));
    }
    if (res.status === 200) {
      this.stats.acks.push({ userId: this.user.id, exerciseId: entry.exerciseId, seq: entry.seq, answer: entry.answer });
      return;
    }
    if (res.status !== 0 && res.status < 500 && ![401, 408, 429].includes(res.status)) {
      this.stats.refused.push(`${res.status} ${res.json?.message}`);
    }
    throw new SaveFailure(res.status, res.json?.message ?? res.error ?? 'erreur');
  }

  /** The page's start call (timed chapter), retried until it answers 200. */
  async start(chapterId: string, deadline: number) {
    for (let k = 0; ; k++) {
      const res = await call(this.baseFor(k), 'POST', `/api/chapter/start/${chapterId}`, { token: this.user.token, agent: this.agent });
      if (res.status === 200) return;
      if (Date.now() > deadline) throw new Error(`start refused: ${res.status} ${res.error ?? JSON.stringify(res.json)}`);
      await sleep(200);
    }
  }

  /** Types a new value into one exercise (the queue persists it, debounces and sends it). */
  type() {
    const exerciseId = this.exerciseIds[Math.floor(Math.random() * this.exerciseIds.length)];
    const answer = `${this.index}.${this.typedCount++}`;
    const entry = this.queue.enqueue(this.user.id, exerciseId, answer);
    this.typed.set(exerciseId, { answer, seq: entry.seq });
  }

  /** Types every ~intervalMs (uniform 0.5–1.5×) until `until` (Date.now() ms). */
  async typeUntil(until: number, intervalMs: number) {
    await sleep(Math.random() * intervalMs);
    while (Date.now() < until) {
      this.type();
      await sleep(intervalMs * (0.5 + Math.random()));
    }
  }

  pending() {
    return this.queue.pending(this.user.id).length;
  }

  offline() {
    return this.exerciseIds.some((id) => this.queue.stateOf(this.user.id, id).kind === 'offline');
  }
}

export function newStats(): ClassStats {
  return { acks: [], statuses: new Map(), refused: [], badMessages: [], slowest: 0 };
}

/** Expected current answers: the last typed value of every (pupil, exercise). */
export function expectedOf(pupils: SimPupil[]) {
  const expected = new Map<string, { answer: string; seq: number }>();
  for (const p of pupils) for (const [exerciseId, v] of p.typed) expected.set(`${p.user.id}|${exerciseId}`, v);
  return expected;
}

/** Waits until every page has nothing left to send; returns the time it took, or null on timeout. */
export async function waitDrained(pupils: SimPupil[], timeoutMs: number): Promise<number | null> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (pupils.every((p) => p.pending() === 0)) return performance.now() - t0;
    await sleep(100);
  }
  return null;
}

/** The seeded pupils' pages, sharing one stats record, each opening the timed chapter (`concurrency` at a time). */
export async function startClass(seeded: Seeded, base: () => string, agent: http.Agent, concurrency: number) {
  const stats = newStats();
  const pupils = seeded.pupils.map((u, i) => new SimPupil(i, u, seeded.exerciseIds, stats, base, agent));
  await pool(pupils, concurrency, (p) => p.start(seeded.chapterId, Date.now() + 30_000));
  return { pupils, stats };
}

/**
 * Once the typing is over: waits (60 s at most) for every page to send what it holds, closes the pages,
 * and compares the database with every acknowledged save and every last typed value. Records the
 * checks every scenario makes: nothing acknowledged lost, pages drained, last typed value current, no
 * final refusal.
 */
export async function settleClass(c: Checks, db: CheckDb, seeded: Seeded, pupils: SimPupil[], stats: ClassStats) {
  const drainMs = await waitDrained(pupils, 60_000);
  for (const p of pupils) p.queue.dispose();
  const expected = expectedOf(pupils);
  const stored = await checkStored(db, seeded.chapterId, stats.acks, expected);
  c.expect(stored.lost === 0, `${stored.lost} acknowledged saves missing from the database`);
  c.expect(drainMs !== null, 'some pages still had unsent answers 60 s after the typing stopped');
  c.expect(stored.wrongCurrent === 0, `${stored.wrongCurrent} (pupil, exercise) whose current answer is not the last typed value`);
  c.expect(stats.refused.length === 0, `final refusals: ${stats.refused.slice(0, 3).join(' | ')}`);
  return { drainMs, expected, stored };
}

export const statusLine = (stats: ClassStats) =>
  [...stats.statuses]
    .sort()
    .map(([k, v]) => `${k === '0' ? 'no response' : k}×${v}`)
    .join(', ');
