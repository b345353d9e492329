import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { column, one } from '../db/query.js';
import { AppError } from '../errors.js';
import { hitRateLimit, type RateLimiter } from '../http/rate-limit.js';
import { canUseStaffUploadLimits } from './policies.js';

/**
 * The limits of what one account uploads (decisions 111 and 133), counted in the database so that every
 * instance agrees and two requests at the same instant cannot both pass: a creation reserves its bytes
 * (`upload_slots`) under a per-user advisory lock, after counting, in one transaction. A refused request
 * leaves nothing; a reservation that did not become a file is released, or expires.
 */

/**
 * What one user may hold unfinished at once (decision 111): this many resumable uploads, and declared sizes
 * that add up, the new one included, to this many times the limit of what the new one is for.
 */
export const UNFINISHED_UPLOADS = { count: 10, timesLimit: 3 };
export const TOO_MANY_UPLOADS_MESSAGE =
  'Vous avez déjà trop d’envois en cours\u00a0: terminez-les ou annulez-les, ou attendez qu’ils expirent (24 heures), avant d’en commencer un autre.';
export const UPLOAD_RATE_MESSAGE = 'Trop d’envois de fichiers en une minute\u00a0: attendez un instant avant d’en envoyer un autre.';

export const quotaMessage = (bytes: number) =>
  `Votre compte a atteint sa limite de fichiers enregistrés (${String(Math.round((bytes / (1024 * 1024)) * 10) / 10).replace('.', ',')} Mo)\u00a0: ` +
  'les fichiers qui ne servent à aucune réponse sont effacés au bout d’un jour. Si vous avez besoin de plus de place, écrivez à l’équipe d’Olympe.';

/** A resumable upload's reservation lasts as long as the upload may (tus expiry, decision 91). */
export const RESUMABLE_SLOT_SECONDS = 24 * 3600;
/** A POST /pdfs holds its reservation while its bytes are checked; one left behind by a crash stops counting after this. */
export const DIRECT_SLOT_SECONDS = 3600;

/** The stored bytes and the uploads per minute this caller may use (decision 133). */
export function uploadLimitsOf(config: Config, auth: AuthContext): { quotaBytes: number; perMinute: number } {
  return canUseStaffUploadLimits(auth)
    ? { quotaBytes: config.staffFilesQuotaBytes, perMinute: config.staffUploadsPerMinute }
    : { quotaBytes: config.filesQuotaBytes, perMinute: config.uploadsPerMinute };
}

/**
 * Counts one upload started by the caller in the current minute (POST /pdfs, a tus creation), in the shared
 * limiter (PostgreSQL or Redis): the count is one atomic increment, so parallel requests cannot all read the
 * same count. Past the limit: 429, before any byte is read or kept.
 */
export async function hitUploadRate(deps: { config: Config; limiter: RateLimiter }, auth: AuthContext): Promise<void> {
  const { perMinute } = uploadLimitsOf(deps.config, auth);
  await hitRateLimit(deps.limiter, { key: `uploads:${auth.userId}`, limit: perMinute, windowSeconds: 60, message: UPLOAD_RATE_MESSAGE });
}

export interface SlotRequest {
  /** The upload's id, which becomes the file's. */
  id: string;
  size: number;
  /**
   * A tus upload: also held to decision 111's caps on unfinished uploads, with the size limit of what it is
   * for; absent for a POST /pdfs, whose bytes are already in hand.
   */
  resumable?: { limit: number };
}

/** What the caller holds; the byte sums are `bigint` (a string through node-postgres). */
const held = z.object({ unfinished: column.number, unfinished_bytes: column.number, stored_bytes: column.number });

/**
 * Reserves `size` bytes for the caller's new upload, or throws without keeping anything: 429 past decision
 * 111's caps on unfinished uploads, 413 past the account's stored-bytes quota. The count and the insert run
 * in one transaction under an advisory lock on the user, so concurrent creations are counted one after
 * the other, on any number of instances. What counts: the bytes of every file the user owns, and each live
 * reservation that has not become a file yet (a reservation's id is its file's id). Called again with the id of a
 * reservation, it becomes `size`, counted again: the bytes kept outgrew those reserved (a rewritten PDF, photos
 * made into one).
 */
export async function reserveUpload(deps: { db: Db; config: Config }, auth: AuthContext, slot: SlotRequest): Promise<void> {
  const { quotaBytes } = uploadLimitsOf(deps.config, auth);
  const owner = auth.userId;
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`uploads:${owner}`}))`);
    const holds = (await one(
      tx,
      held,
      sql`
      WITH live AS (
        SELECT s.size, s.resumable FROM upload_slots s
        WHERE s.owner_id = ${owner}::uuid AND s.expires_at > now() AND s.id <> ${slot.id}::uuid
          AND NOT EXISTS (SELECT 1 FROM files f WHERE f.id = s.id))
      SELECT (SELECT count(*) FROM live WHERE resumable)::int AS unfinished,
             (SELECT coalesce(sum(size), 0) FROM live WHERE resumable)::bigint AS unfinished_bytes,
             ((SELECT coalesce(sum(size), 0) FROM live)
               + (SELECT coalesce(sum(size), 0) FROM files WHERE owner_id = ${owner}::uuid))::bigint AS stored_bytes`,
    ))!;
    if (slot.resumable) {
      const over =
        holds.unfinished >= UNFINISHED_UPLOADS.count ||
        holds.unfinished_bytes + slot.size > UNFINISHED_UPLOADS.timesLimit * slot.resumable.limit;
      if (over) throw new AppError(429, TOO_MANY_UPLOADS_MESSAGE, 'rate_limited');
    }
    if (holds.stored_bytes + slot.size > quotaBytes) throw new AppError(413, quotaMessage(quotaBytes), 'too_large');
    const seconds = slot.resumable ? RESUMABLE_SLOT_SECONDS : DIRECT_SLOT_SECONDS;
    await tx.execute(sql`
      INSERT INTO upload_slots (id, owner_id, size, resumable, expires_at)
      VALUES (${slot.id}::uuid, ${owner}::uuid, ${slot.size}::bigint, ${!!slot.resumable}, now() + make_interval(secs => ${seconds}))
      ON CONFLICT (id) DO UPDATE SET size = excluded.size`);
  });
}

/** Gives back a reservation: the upload was refused, cancelled or recorded (its file now counts instead). */
export async function releaseUpload(db: Db, id: string): Promise<void> {
  await db.execute(sql`DELETE FROM upload_slots WHERE id = ${id}::uuid`);
}

/** Deletes the reservations past their time (a tus upload expired, a POST /pdfs cut by a crash); returns how many. */
export async function purgeExpiredSlots(db: Db): Promise<number> {
  const result = await db.execute(sql`DELETE FROM upload_slots WHERE expires_at <= now() RETURNING 1`);
  return result.rows.length;
}
