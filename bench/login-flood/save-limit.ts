/**
 * The cost of the per-pupil save limit (server/src/http/save-limit.ts) against a save's CPU in
 * bench/rush (0.114 ms of node per save): TokenBuckets.take for 3,000 pupils saving in turn, and
 * the whole preHandler. node --import tsx bench/login-flood/save-limit.ts
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { limitAnswerSaves, TokenBuckets } from '../../server/src/http/save-limit.js';

const PUPILS = 3000;
const ROUNDS = 2000;
const ids = Array.from({ length: PUPILS }, () => randomUUID());

function time(label: string, calls: number, fn: () => void | Promise<void>) {
  return async () => {
    for (let i = 0; i < 3; i++) await fn(); // warm-up
    const started = process.hrtime.bigint();
    await fn();
    const ns = Number(process.hrtime.bigint() - started) / calls;
    console.log(`${label}: ${ns.toFixed(0)} ns per save`);
    return ns;
  };
}

const buckets = new TokenBuckets({ burst: 1e9, perSecond: 1e9 });
const take = time(`TokenBuckets.take, ${PUPILS} pupils in turn`, PUPILS * ROUNDS, () => {
  for (let r = 0; r < ROUNDS; r++) for (const id of ids) buckets.take(id);
});
// The real limiter (20 at once): 4 runs × 4 rounds of 20,000 pupils stay under the burst, all accepted.
const requests = Array.from({ length: 20_000 }, () => ({ auth: { userId: randomUUID() } }) as unknown as FastifyRequest);
const reply = {} as FastifyReply;
const handler = time(`limitAnswerSaves (async preHandler), ${requests.length} pupils`, requests.length * 4, async () => {
  for (let r = 0; r < 4; r++) for (const request of requests) await limitAnswerSaves(request, reply);
});

const a = await take();
const b = await handler();
console.log(
  `= ${((b / 114_000) * 100).toFixed(3)} % of node's 0.114 ms per save (bench/rush, quiet); take alone ${((a / 114_000) * 100).toFixed(3)} %`,
);
