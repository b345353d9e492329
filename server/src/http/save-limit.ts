import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/**
 * A token bucket per key, in this process's memory: `burst` tokens, refilled at `perSecond`. Kept
 * out of PostgreSQL and Redis on purpose: it guards the save path (bench/rush), where one more
 * round trip per save would cost more than what it protects against (decision 39).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private sweptAt = 0;

  /** `rate` is read at each take: a test may raise it (replays of a whole offline queue at test speed). */
  constructor(
    private readonly rate: { burst: number; perSecond: number },
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  private get burst() {
    return this.rate.burst;
  }

  private get perSecond() {
    return this.rate.perSecond;
  }

  /** Takes one token for `key`; false when its bucket is empty. */
  take(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key);
    if (!bucket) {
      this.buckets.set(key, { tokens: this.burst - 1, at: now });
      this.sweep(now);
      return true;
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  get size() {
    return this.buckets.size;
  }

  /** A full bucket is the same as none: dropped once a minute, so the map holds active savers only. */
  private sweep(now: number) {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    const full = (this.burst / this.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= full) this.buckets.delete(key);
  }
}

/** Autosave sends about one save per exercise typed in every second or two: 10 a second is far above. Mutable for the tests only. */
export const ANSWER_SAVES = { burst: 20, perSecond: 10 };
const answerSaves = new TokenBuckets(ANSWER_SAVES);

export const TOO_MANY_SAVES = 'Trop d’enregistrements en peu de temps. Patientez une seconde avant de réessayer.';

/** preHandler of POST /api/answer, after requireAuth: per user (the token's subject, signature checked). */
export async function limitAnswerSaves(request: FastifyRequest, _reply: FastifyReply) {
  if (request.auth && !answerSaves.take(request.auth.userId)) throw new AppError(429, TOO_MANY_SAVES);
}
