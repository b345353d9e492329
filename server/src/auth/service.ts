import os from 'node:os';
import { hash, verify as argonVerify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { isPasswordValid, PASSWORD_RULES_MESSAGE } from '@olympe/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import { emailTokens, users } from '../db/schema.js';
import { AppError, badRequest, unauthorized } from '../errors.js';
import { hitRateLimit } from '../http/rate-limit.js';
import { passwordLinkMail } from '../mail/mailer.js';
import { hashEmailToken, newEmailToken } from './tokens.js';

const LINK_VALIDITY_MS = 48 * 3600 * 1000;
export const REGISTER_MESSAGE =
  'Si cette adresse est valide, un courriel vient de lui être envoyé. Suivez le lien qu’il contient pour choisir votre mot de passe.';
const INVALID_CREDENTIALS = 'Identifiants invalides.';
const INVALID_LINK = 'Ce lien n’est plus valide. Inscrivez-vous à nouveau avec la même adresse pour en recevoir un nouveau.';

// Verified against when the e-mail is unknown, so a miss costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * argon2id costs ~20–25 ms of a core per call. Without a cap, a login storm runs 4 at once (libuv's
 * threads) and takes every core from the saves of pupils already working and from PostgreSQL: 600
 * logins in 10 s on 2 cores put the saves' p99 at 280 ms (bench/rush). At most one call per core
 * but one: logins wait in line, saves keep a core.
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, os.availableParallelism() - 1);
const argon2Slots = pLimit(PASSWORD_HASH_CONCURRENCY);

export function hashPassword(password: string): Promise<string> {
  return argon2Slots(() => hash(password, { algorithm: 2 }));
}

const verify = (hashed: string, password: string) => argon2Slots(() => argonVerify(hashed, password));

/** argon2 calls running and waiting (tests, metrics). */
export const passwordHashQueue = () => ({ running: argon2Slots.activeCount, waiting: argon2Slots.pendingCount });

/**
 * DESIGN §3 Accounts: the same answer whether the e-mail exists or not. A new e-mail gets an
 * account and a confirmation link; a known one gets a password-reset link.
 */
export async function registerUser(deps: Deps, input: { email: string }): Promise<void> {
  const email = normaliseEmail(input.email);
  await hitRateLimit(deps.limiter, {
    key: `register:${email}`,
    limit: 1,
    windowSeconds: 60,
    message: 'Un courriel a déjà été envoyé à cette adresse il y a moins d’une minute. Patientez avant de réessayer.',
  });
  const [created] = await deps.db.insert(users).values({ email }).onConflictDoNothing().returning({ id: users.id });
  const user =
    created ?? (await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1))[0];
  await sendPasswordLink(deps, { userId: user.id, email, kind: created ? 'signup' : 'reset' });
}

/** Creates a single-use 48 h link and mails it. */
export async function sendPasswordLink(
  deps: Deps,
  opts: { userId: string; email: string; kind: 'signup' | 'reset' | 'admin' },
): Promise<string> {
  const { token, hash: tokenHash } = newEmailToken();
  await deps.db.insert(emailTokens).values({
    userId: opts.userId,
    tokenHash,
    purpose: opts.kind,
    expiresAt: new Date(Date.now() + LINK_VALIDITY_MS),
  });
  const link = `${deps.config.publicUrl}/confirm?token=${encodeURIComponent(token)}`;
  try {
    await deps.mailer.send(passwordLinkMail(opts.email, link, opts.kind));
  } catch (err) {
    deps.log.error({ err }, 'mail sending failed');
    throw new AppError(503, 'L’envoi du courriel a échoué. Réessayez dans quelques minutes.');
  }
  return link;
}

/** Sets the password from a link: single use, 48 h, the five rules re-checked; older tokens are revoked. */
export async function confirmPassword(deps: Deps, input: { token: string; password: string }): Promise<void> {
  if (!isPasswordValid(input.password)) throw badRequest(PASSWORD_RULES_MESSAGE);
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(emailTokens.tokenHash, hashEmailToken(input.token)),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: emailTokens.userId });
    if (!row) throw badRequest(INVALID_LINK);
    await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, row.userId));
    // Any other link still in a mailbox dies with this password choice.
    await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailTokens.userId, row.userId), isNull(emailTokens.usedAt)));
  });
}

/**
 * Rate limit per (e-mail, IP), not per IP alone: a whole school shares one address (DESIGN §3).
 * Whatever is wrong, the answer is "Identifiants invalides.".
 */
export async function loginUser(deps: Deps, input: { email: string; password: string; ip: string }): Promise<string> {
  const email = normaliseEmail(input.email);
  await hitRateLimit(deps.limiter, { key: `login:${email}:${input.ip}`, limit: 10, windowSeconds: 60 });
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, tokenVersion: users.tokenVersion })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!user?.passwordHash) {
    dummyHash ??= hashPassword('dummy-password-for-timing');
    await verify(await dummyHash, input.password).catch(() => false);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  const ok = await verify(user.passwordHash, input.password).catch(() => false);
  if (!ok) throw unauthorized(INVALID_CREDENTIALS);
  await deps.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
  return deps.signer.sign({ userId: user.id, tokenVersion: user.tokenVersion });
}

/** DESIGN §3: ADMIN_EMAIL exists and is admin at start-up; it is mailed a link until it has a password. */
export async function bootstrapAdmin(deps: Deps, email: string): Promise<void> {
  const [row] = await deps.db
    .insert(users)
    .values({ email, isAdmin: true })
    .onConflictDoUpdate({ target: users.email, set: { isAdmin: true } })
    .returning({ id: users.id, passwordHash: users.passwordHash });
  if (!row.passwordHash) {
    const link = await sendPasswordLink(deps, { userId: row.id, email, kind: 'admin' });
    // A link with a token reaches the log only when there is no real mail to carry it (no SMTP_URL:
    // the mail is a file in the outbox); with SMTP, as in production, the log names the address only.
    if (deps.config.smtpUrl) deps.log.info(`Administrateur ${email} : lien pour choisir le mot de passe envoyé par courriel`);
    else deps.log.warn(`Administrateur ${email} : choisissez le mot de passe sur ${link}`);
  }
}
