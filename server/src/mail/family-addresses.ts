import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.js';
import { one, rows } from '../db/query.js';
import type { Deps } from '../deps.js';
import { badRequest } from '../errors.js';
import type { JobHandler } from '../jobs/worker.js';
import { addressConfirmationMail } from './mailer.js';

/**
 * Decision 134: the family addresses of a pupil's profile (student, parent, other parent) are typed by
 * the pupil and never verified, so each one first gets a single short mail with a confirmation link
 * (double opt-in) and nothing else until it is confirmed. A row of family_addresses per address
 * and pupil; only the sha256 of the link's token is stored.
 */

/** Mails the confirmation link of one family address (payload: userId, address). */
export const ADDRESS_CONFIRM_JOB = 'mail.confirm-address';

/** A pupil may add this many family addresses per hour: each one mails someone they named. */
export const FAMILY_ADDRESS_LIMIT = { limit: 6, windowSeconds: 3600 };
/** And one address receives at most this many confirmation requests per hour, whoever types it. */
export const ADDRESS_CONFIRM_PER_ADDRESS_LIMIT = { limit: 3, windowSeconds: 3600 };
export const FAMILY_ADDRESS_LIMIT_MESSAGE = 'Vous avez ajouté trop d’adresses e-mail en peu de temps. Réessayez dans une heure.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The addresses of a profile that need a confirmation, lower-cased and trimmed, each once: the
 * student's and parents' addresses, except the account's own (confirmed by signing in).
 */
export function familyAddressesOf(u: {
  email: string;
  emailStudent?: string | null;
  emailParent?: string | null;
  emailOtherParent?: string | null;
}): string[] {
  const own = u.email.trim().toLowerCase();
  const list = [u.emailStudent, u.emailParent, u.emailOtherParent]
    .map((a) => (a ?? '').trim().toLowerCase())
    .filter((a) => a.includes('@') && a !== own);
  return [...new Set(list)];
}

/**
 * Makes family_addresses follow the profile as it is now: the rows of addresses no longer on it go
 * (an address typed again later starts unconfirmed: changing an address resets its confirmation),
 * each new address gets an unconfirmed row and one confirmation job (none with `mail: false`, past the
 * limits: its link then leaves with the next convocation). Returns the new addresses.
 */
export async function syncFamilyAddresses(tx: Tx, userIds: string[], opts: { mail?: boolean } = {}): Promise<string[]> {
  const mail = opts.mail ?? true;
  if (userIds.length === 0) return [];
  const ids = sql.join(
    userIds.map((u) => sql`${u}::uuid`),
    sql`, `,
  );
  const added = await rows(
    tx,
    z.object({ address: z.string() }),
    sql`
    WITH wanted AS (
      SELECT DISTINCT u.id AS user_id, lower(trim(a.addr)) AS address
      FROM users u
      CROSS JOIN LATERAL (VALUES (u.email_student), (u.email_parent), (u.email_other_parent)) AS a(addr)
      WHERE u.id IN (${ids}) AND a.addr IS NOT NULL AND trim(a.addr) LIKE '%_@_%' AND lower(trim(a.addr)) <> lower(trim(u.email))),
    gone AS (
      DELETE FROM family_addresses f WHERE f.user_id IN (${ids})
        AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.user_id = f.user_id AND w.address = f.address)),
    added AS (
      INSERT INTO family_addresses (user_id, address) SELECT user_id, address FROM wanted
      ON CONFLICT (user_id, address) DO NOTHING
      RETURNING user_id, address),
    jobs_added AS (
      INSERT INTO jobs (kind, payload)
      SELECT ${ADDRESS_CONFIRM_JOB}, jsonb_build_object('userId', user_id::text, 'address', address) FROM added WHERE ${mail}::boolean RETURNING 1)
    SELECT address FROM added`,
  );
  return added.map((r) => r.address);
}

/**
 * The confirmation job: a fresh token for a row still waiting (its hash replaces any earlier one), then
 * the one short mail. Nothing of the pupil's own text is in it: a name typed by a pupil would make
 * Olympe carry their message to anyone. A row gone or confirmed meanwhile sends nothing.
 */
export function addressConfirmHandler(deps: Deps): JobHandler {
  return async (job) => {
    const userId = String(job.payload.userId);
    const address = String(job.payload.address);
    const token = randomBytes(32).toString('base64url');
    const row = await one(
      deps.db,
      z.object({ address: z.string() }),
      sql`
      UPDATE family_addresses SET token_hash = ${hashToken(token)}
      WHERE user_id = ${userId} AND address = ${address} AND confirmed_at IS NULL
      RETURNING address`,
    );
    if (!row) return { skipped: 'adresse retirée ou déjà confirmée' };
    await deps.mailer.send(addressConfirmationMail(address, confirmAddressUrl(deps.config.publicUrl, token)));
    return { sent: true };
  };
}

function confirmAddressUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/mail/confirm-address?t=${encodeURIComponent(token)}`;
}

export const ADDRESS_CONFIRMED = 'Adresse confirmée.';
const INVALID_CONFIRM_LINK =
  'Ce lien de confirmation n’est pas valable : l’adresse a été retirée du profil, ou un lien plus récent l’a remplacé.';

/**
 * The link's POST: confirms the one address whose token hash matches. Clicking it again says the same
 * (the hash stays until the address leaves the profile, which deletes the row).
 */
export async function confirmFamilyAddress(db: Db, token: string): Promise<void> {
  const row = await one(
    db,
    z.object({ address: z.string() }),
    sql`
    UPDATE family_addresses SET confirmed_at = coalesce(confirmed_at, now())
    WHERE token_hash = ${hashToken(token)}
    RETURNING address`,
  );
  if (!row) throw badRequest(INVALID_CONFIRM_LINK);
}

/**
 * The family addresses of a profile not confirmed yet (the profile page marks them): those waiting
 * for their link, and those typed before decision 134 or imported, whose link leaves with the next convocation.
 */
export async function pendingFamilyAddresses(db: Db, user: Parameters<typeof familyAddressesOf>[0] & { id: string }): Promise<string[]> {
  const addresses = familyAddressesOf(user);
  if (addresses.length === 0) return [];
  const confirmed = await rows(
    db,
    z.object({ address: z.string() }),
    sql`
    SELECT address FROM family_addresses WHERE user_id = ${user.id} AND confirmed_at IS NOT NULL`,
  );
  const done = new Set(confirmed.map((r) => r.address));
  return addresses.filter((a) => !done.has(a));
}
