import type { z } from 'zod';
import { queryRows, type Db } from '../db/client.js';
import { BATCH_INSERT_SQL, batchResultShape, guardedInsertOne, type InsertResult } from './queries.js';

interface PendingSave {
  userId: string;
  exerciseId: string;
  actorId: string | null;
  sessionId: string | null;
  answer: string;
  seq: number;
  ip: string;
  fingerprint: string;
  done: (result: InsertResult | Error) => void;
}

/**
 * Memoised saves go through this per-database queue (bench/rush/README.md "Batching"): at most
 * `SAVE_BATCH.maxInFlight` save statements at a time; a save arriving while they run waits for the next free
 * slot and leaves with the saves queued behind it as one statement. Under low load every save is
 * sent alone at once (no added delay); under load, fewer statements, socket writes and commits.
 * Each save is answered only after the statement that holds it has committed. If a batch fails,
 * its saves are retried one by one, so one save's error is never another's.
 */
export const SAVE_BATCH = { maxInFlight: 3, maxSize: 64 };
export const saveBatchStats = { statements: 0, batches: 0, batchedSaves: 0, batchMatched: 0, fallbacks: 0 };

class SaveQueue {
  private queue: PendingSave[] = [];
  private inFlight = 0;
  constructor(private db: Db) {}

  submit(save: Omit<PendingSave, 'done'>): Promise<InsertResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...save, done: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      this.pump();
    });
  }

  get queued() {
    return this.queue.length;
  }

  pump() {
    while (this.inFlight < SAVE_BATCH.maxInFlight && this.queue.length > 0) {
      const batch: PendingSave[] = [];
      const keys = new Set<string>();
      const rest: PendingSave[] = [];
      for (const save of this.queue) {
        const key = `${save.userId}|${save.exerciseId}`;
        if (batch.length < SAVE_BATCH.maxSize && !keys.has(key)) {
          keys.add(key);
          batch.push(save);
        } else rest.push(save);
      }
      this.queue = rest;
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(batch: PendingSave[]) {
    saveBatchStats.statements++;
    if (batch.length === 1) return this.runOne(batch[0]);
    saveBatchStats.batches++;
    saveBatchStats.batchedSaves += batch.length;
    let rows: Array<z.output<typeof batchResultShape>>;
    try {
      const input = batch.map((b, n) => ({
        n,
        user_id: b.userId,
        exercise_id: b.exerciseId,
        actor_id: b.actorId,
        session_id: b.sessionId,
        answer: b.answer,
        seq: b.seq,
        ip: b.ip,
        fingerprint: b.fingerprint,
      }));
      rows = await queryRows(this.db, batchResultShape, 'answer_insert_batch', BATCH_INSERT_SQL, [JSON.stringify(input)]);
    } catch {
      saveBatchStats.fallbacks++;
      await Promise.all(batch.map((b) => this.runOne(b)));
      return;
    }
    const answered = new Set<number>();
    for (const row of rows) {
      answered.add(row.n);
      if (row.matched) saveBatchStats.batchMatched++;
      batch[row.n].done({ matched: row.matched, inserted: row.inserted, newer: row.newer });
    }
    // Never leave a save unanswered: one without its row (cannot happen) is treated as changed.
    batch.forEach((b, n) => answered.has(n) || b.done({ matched: false, inserted: false, newer: false }));
  }

  private async runOne(save: PendingSave) {
    try {
      save.done(
        await guardedInsertOne(this.db, {
          userId: save.userId,
          actorId: save.actorId,
          sessionId: save.sessionId,
          exerciseId: save.exerciseId,
          answer: save.answer,
          fileId: null,
          seq: save.seq,
          ip: save.ip,
          fingerprint: save.fingerprint,
        }),
      );
    } catch (err) {
      save.done(err instanceof Error ? err : new Error(String(err)));
    }
  }
}

const saveQueues = new WeakMap<Db, SaveQueue>();
/** The save queue of a database (tests hold it with SAVE_BATCH.maxInFlight = 0, then `pump()`). */
export const saveQueueOf = (db: Db) => {
  let queue = saveQueues.get(db);
  if (!queue) saveQueues.set(db, (queue = new SaveQueue(db)));
  return queue;
};
