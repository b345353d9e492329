import { randomUUID } from 'node:crypto';
import { ANONYMOUS_EMAIL_DOMAIN } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { conflict, notFound } from '../errors.js';
import type { FileStore } from '../files/store.js';
import { assertMayAnonymise } from './policies.js';

type Row = Record<string, unknown>;

/** JSON values of the rows a query returns as column `j` (to_jsonb keeps types as PostgreSQL prints them). */
async function jsonRows(db: Tx, query: SQL): Promise<Row[]> {
  return (await rows(db, z.object({ j: z.unknown() }), query)).map((r) => (typeof r.j === 'string' ? JSON.parse(r.j) : r.j) as Row);
}

/**
 * GET /user/{uid}/export: everything stored about one person (RGPD right of access), as stored,
 * minus secrets (password hash, token hashes). Answers of a chapter or exercise in the bin are still held,
 * so they are given too, with `in_bin_since` (decision 73).
 */
export async function exportUser(db: Db, uid: string): Promise<Row> {
  const [user] = await jsonRows(
    db,
    sql`SELECT to_jsonb(u) - 'password_hash' - 'token_version' AS j FROM users u WHERE u.id = ${uid}::uuid`,
  );
  if (!user) throw notFound('Utilisateur introuvable.');
  const emails = [user.email, user.email_student, user.email_parent, user.email_other_parent].filter(
    (e): e is string => typeof e === 'string' && e !== '',
  );
  return {
    exportedAt: new Date().toISOString(),
    user,
    ...(await exportAccount(db, uid)),
    ...(await exportWork(db, uid)),
    ...(await exportCentresAndMail(db, uid)),
    ...(await exportFilesAndTrail(db, uid, emails)),
  };
}

/** The export's groups and school. */
async function exportAccount(db: Db, uid: string) {
  return {
    groups: await jsonRows(
      db,
      sql`
      SELECT jsonb_build_object('id', g.id, 'name', g.name) AS j
      FROM group_members m JOIN groups g ON g.id = m.group_id WHERE m.user_id = ${uid}::uuid ORDER BY g.name`,
    ),
    institution:
      (
        await jsonRows(
          db,
          sql`SELECT to_jsonb(i) AS j FROM institutions i JOIN users u ON u.institution_id = i.id WHERE u.id = ${uid}::uuid`,
        )
      )[0] ?? null,
  };
}

/** The export's sessions, answers, grades, review requests and extensions. */
async function exportWork(db: Db, uid: string) {
  const answerIds = sql`SELECT id FROM answers WHERE user_id = ${uid}::uuid`;
  return {
    chapterSessions: await jsonRows(
      db,
      sql`
      SELECT to_jsonb(s) || jsonb_build_object('chapter_title', c.title) AS j
      FROM chapter_sessions s JOIN chapters c ON c.id = s.chapter_id WHERE s.user_id = ${uid}::uuid ORDER BY s.started_at`,
    ),
    answers: await jsonRows(
      db,
      sql`
      SELECT to_jsonb(a) || jsonb_build_object('exercise_title', e.title, 'chapter_id', e.chapter_id,
               'in_bin_since', coalesce(e.deleted_at, c.deleted_at)) AS j
      FROM answers a JOIN exercises e ON e.id = a.exercise_id JOIN chapters c ON c.id = e.chapter_id
      WHERE a.user_id = ${uid}::uuid ORDER BY a.created_at, a.id`,
    ),
    gradeHistory: await jsonRows(db, sql`SELECT to_jsonb(g) AS j FROM grade_audit g WHERE g.answer_id IN (${answerIds}) ORDER BY g.id`),
    gradings: await jsonRows(
      db,
      sql`SELECT to_jsonb(g) AS j FROM gradings g WHERE g.answer_id IN (${answerIds}) ORDER BY g.created_at, g.id`,
    ),
    regradeRequests: await jsonRows(
      db,
      sql`SELECT to_jsonb(r) AS j FROM regrade_requests r WHERE r.user_id = ${uid}::uuid ORDER BY r.created_at`,
    ),
    sessionExtensions: await jsonRows(
      db,
      sql`SELECT to_jsonb(x) AS j FROM session_extensions x WHERE x.user_id = ${uid}::uuid ORDER BY x.created_at`,
    ),
  };
}

/** The export's centre refusals, mails, focus events, centre registrations and moves, family addresses. */
async function exportCentresAndMail(db: Db, uid: string) {
  return {
    centerRefusals: await jsonRows(
      db,
      sql`SELECT to_jsonb(r) AS j FROM center_refusals r WHERE r.user_id = ${uid}::uuid ORDER BY r.created_at`,
    ),
    mailDeliveries: await jsonRows(
      db,
      sql`SELECT to_jsonb(d) AS j FROM mail_deliveries d WHERE d.user_id = ${uid}::uuid ORDER BY d.created_at`,
    ),
    focusEvents: await jsonRows(db, sql`SELECT to_jsonb(f) AS j FROM focus_events f WHERE f.user_id = ${uid}::uuid ORDER BY f.id`),
    centerRegistrations: await jsonRows(db, sql`SELECT to_jsonb(r) AS j FROM center_registrations r WHERE r.user_id = ${uid}::uuid`),
    centerMoves: await jsonRows(db, sql`SELECT to_jsonb(m) AS j FROM center_moves m WHERE m.user_id = ${uid}::uuid ORDER BY m.id`),
    // Decision 134: the family addresses and whether each was confirmed; the link's token hash is a secret.
    familyAddresses: await jsonRows(
      db,
      sql`
      SELECT to_jsonb(f) - 'token_hash' AS j FROM family_addresses f WHERE f.user_id = ${uid}::uuid ORDER BY f.address`,
    ),
  };
}

/** The export's files, e-mail tokens (without their hashes), mails sent to its addresses and audit log. */
async function exportFilesAndTrail(db: Db, uid: string, emails: string[]) {
  return {
    files: await jsonRows(
      db,
      sql`
      SELECT to_jsonb(f) AS j FROM files f
      WHERE f.owner_id = ${uid}::uuid OR f.id IN (SELECT file_id FROM answers WHERE user_id = ${uid}::uuid) ORDER BY f.created_at`,
    ),
    emailTokens: await jsonRows(
      db,
      sql`
      SELECT jsonb_build_object('purpose', t.purpose, 'created_at', t.created_at, 'expires_at', t.expires_at, 'used_at', t.used_at) AS j
      FROM email_tokens t WHERE t.user_id = ${uid}::uuid ORDER BY t.created_at`,
    ),
    sentMails: emails.length
      ? await jsonRows(
          db,
          sql`SELECT to_jsonb(m) AS j FROM sent_mails m WHERE m."to" IN (${sql.join(
            emails.map((e) => sql`${e}`),
            sql`, `,
          )}) ORDER BY m.id`,
        )
      : [],
    auditLog: await jsonRows(
      db,
      sql`
      SELECT to_jsonb(l) AS j FROM audit_log l WHERE l.actor_id = ${uid}::uuid OR l.target_id = ${uid}::uuid ORDER BY l.id`,
    ),
  };
}

export const isAnonymousEmail = (email: string) => email.endsWith(`@${ANONYMOUS_EMAIL_DOMAIN}`);

/**
 * Files holding this person's work and nobody else's: owned by them or attached to their answers,
 * and neither attached to another person's answer nor a school's unsorted scan.
 */
function personalFiles(tx: Tx, uid: string) {
  return rows(
    tx,
    z.object({ id: z.string() }),
    sql`
    SELECT f.id FROM files f
    WHERE (f.owner_id = ${uid}::uuid OR f.id IN (SELECT file_id FROM answers WHERE user_id = ${uid}::uuid AND file_id IS NOT NULL))
      AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.file_id = f.id AND a.user_id <> ${uid}::uuid)
      AND NOT EXISTS (SELECT 1 FROM unlabeled_answers u WHERE u.file_id = f.id)`,
  ).then((found) => found.map((r) => r.id));
}

/**
 * Scrubs one account inside `tx` (docs/decisions/operations.md "Anonymise"): personal fields
 * emptied, an unreachable e-mail, tokens revoked, IPs dropped; answer and grade rows kept for
 * statistics. Returns the ids of files whose bytes the caller erases once the transaction commits.
 */
export async function scrubUser(tx: Tx, uid: string): Promise<string[]> {
  const nullable = z.string().nullable();
  const [user] = await rows(
    tx,
    z.object({ email: z.string(), email_student: nullable, email_parent: nullable, email_other_parent: nullable }),
    sql`
    SELECT email, email_student, email_parent, email_other_parent FROM users WHERE id = ${uid}::uuid FOR UPDATE`,
  );
  if (!user) throw notFound('Utilisateur introuvable.');
  if (isAnonymousEmail(user.email)) throw conflict('Ce compte est déjà anonymisé.');
  const fileIds = await personalFiles(tx, uid);
  const emails = [user.email, user.email_student, user.email_parent, user.email_other_parent].filter(
    (e): e is string => typeof e === 'string' && e !== '',
  );
  const email = `anonyme-${randomUUID()}@${ANONYMOUS_EMAIL_DOMAIN}`;
  await tx.execute(sql`
    UPDATE users SET email = ${email}, password_hash = NULL, token_version = token_version + 1,
      email_student = NULL, email_parent = NULL, email_other_parent = NULL, first_name = NULL, last_name = NULL,
      birth_date = NULL, default_choice = NULL, email_notifications = false, institution_id = NULL,
      is_admin = false, last_login_at = NULL
    WHERE id = ${uid}::uuid`);
  await tx.execute(sql`DELETE FROM group_members WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`DELETE FROM email_tokens WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`DELETE FROM auth_sessions WHERE user_id = ${uid}::uuid OR actor_id = ${uid}::uuid`);
  await tx.execute(sql`DELETE FROM center_registrations WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`DELETE FROM center_moves WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`DELETE FROM family_addresses WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`DELETE FROM grading_claims WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`UPDATE answers SET ip = NULL WHERE user_id = ${uid}::uuid`);
  // The words a pupil wrote to ask for a review may name them; the decision (grades) stays for statistics.
  await tx.execute(sql`UPDATE regrade_requests SET message = '' WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`UPDATE focus_events SET ip = NULL WHERE user_id = ${uid}::uuid`);
  await tx.execute(sql`UPDATE files SET original_name = '' WHERE owner_id = ${uid}::uuid`);
  if (emails.length) {
    await tx.execute(
      sql`DELETE FROM sent_mails WHERE "to" IN (${sql.join(
        emails.map((e) => sql`${e}`),
        sql`, `,
      )})`,
    );
  }
  return fileIds;
}

/** Erases stored bytes after the rows committed; a missing file is not an error. */
export async function eraseFiles(store: FileStore, fileIds: string[]): Promise<void> {
  for (const id of fileIds) await store.delete(id);
}

/** POST /user/{uid}/anonymise: an admin scrubs one account (never their own), written to the audit log. */
export async function anonymiseUser(
  deps: { db: Db; store: FileStore },
  actor: { userId: string; actorId?: string },
  uid: string,
): Promise<{ message: string; filesErased: number }> {
  assertMayAnonymise(actor, uid);
  const fileIds = await deps.db.transaction(async (tx) => {
    const ids = await scrubUser(tx, uid);
    await tx.execute(sql`
      INSERT INTO audit_log (actor_id, action, target_id, details)
      VALUES (${actor.actorId ?? actor.userId}::uuid, 'user.anonymise', ${uid}::uuid, ${JSON.stringify({ filesErased: ids.length })}::jsonb)`);
    return ids;
  });
  await eraseFiles(deps.store, fileIds);
  return { message: 'Compte anonymisé : ses réponses restent pour les statistiques.', filesErased: fileIds.length };
}
