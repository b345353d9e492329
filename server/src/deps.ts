import type { FastifyBaseLogger } from 'fastify';
import type { TokenSigner } from './auth/tokens.js';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { Mailer } from './mail/mailer.js';

/** What services need, built once in buildApp and passed down (docs/product.md#style (§7): no globals). */
export interface Deps {
  db: Db;
  config: Config;
  mailer: Mailer;
  signer: TokenSigner;
  log: FastifyBaseLogger;
  /** Shared counters: PostgreSQL, or Redis when REDIS_URL is set. */
  limiter: RateLimiter;
}
