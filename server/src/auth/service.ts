import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { hash, verify as argonVerify } from '@node-rs/argon2';
import { isPasswordValid, PASSWORD_RULES_MESSAGE } from '@olympe/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import { emailTokens, users } from '../db/schema.js';
import { AppError, badRequest, notFound, tooMany, unauthorized } from '../errors.js';
import { clientKeyOf } from '../http/client-address.js';
import { hitRateLimit, hitRateLimits } from '../http/rate-limit.js';
import { passwordLinkMail } from '../mail/mailer.js';
import { FairQueue } from './fair-queue.js';
import { createSession, type SessionTokens } from './sessions.js';
import { hashEmailToken, newEmailToken } from './tokens.js';

const LINK_VALIDITY_MS = 48 * 3600 * 1000;
export const REGISTER_MESSAGE =
  'Si cette adresse est valide, un courriel vient de lui être envoyé. Suivez le lien qu’il contient pour choisir votre mot de passe.';
const INVALID_CREDENTIALS = 'Identifiants invalides.';
const INVALID_LINK = 'Ce lien n’est plus valide. Inscrivez-vous à nouveau avec la même adresse pour en recevoir un nouveau.';
const UNKNOWN_LINK = 'Ce lien est inconnu : il a peut-être été mal copié. Demandez-en un nouveau avec votre adresse.';
const USED_LINK =
  'Ce lien a déjà servi : un mot de passe a été choisi avec lui. Connectez-vous, ou demandez un nouveau lien avec votre adresse.';
const EXPIRED_LINK = 'Ce lien a expiré (il est valable 48 heures). Demandez-en un nouveau avec votre adresse.';

/**
 * Per client address — an IPv4 address, or an IPv6 /64 (clientKeyOf, decision 135) — counted before any hashing (docs/decisions.md, "Logins under a flood").
 * Login: a school of several hundred pupils behind one address logs in within the same minute.
 * Register: schools create many accounts by bulk import, a class signs up by itself.
 * Confirm: a class choosing its passwords, with some refusals of the five rules.
 * Mutable for the tests only, as the two settings below.
 */
export const IP_LIMITS: Record<'login' | 'register' | 'confirm', { limit: number; windowSeconds: number; message: string }> = {
  login: { limit: 600, windowSeconds: 60, message: 'Trop de connexions depuis cette adresse. Réessayez dans une minute.' },
  register: { limit: 60, windowSeconds: 600, message: 'Trop d’inscriptions depuis cette adresse. Réessayez dans quelques minutes.' },
  confirm: { limit: 120, windowSeconds: 600, message: 'Trop de tentatives depuis cette adresse. Réessayez dans quelques minutes.' },
};

/**
 * Per account and address: a human typing wrong passwords is slowed down (LOGIN_SLOWDOWN) to one
 * try every few seconds, far below this; only a script sending tries in parallel reaches it.
 */
export const LOGIN_PER_ACCOUNT_AND_IP = { limit: 30, windowSeconds: 60 };

/**
 * After `freeFailures` wrong passwords on an account (any address, within `windowSeconds`), each
 * try waits `baseMs`·2^(failures − freeFailures), at most `capMs`, before the password is checked —
 * right or wrong. A classmate's errors cost the owner a few seconds, never a lock-out.
 */
export const LOGIN_SLOWDOWN = { freeFailures: 5, baseMs: 250, capMs: 4000, windowSeconds: 900 };

/**
 * Per account, across every address (decision 135): past `limit` tries without a success within the hour, the
 * password alone no longer logs in — a botnet of addresses would otherwise try `LOGIN_PER_ACCOUNT_AND_IP` per
 * address and minute, and parallel tries share the slowdown. The crossing mails the owner a one-time link that
 * logs in (and sets a new password), so the owner is never locked out of an exam; the attacker, without the
 * mailbox, is. Every try answers the same whether the account exists or not.
 */
export const LOGIN_ACCOUNT_CEILING = { limit: 50, windowSeconds: 3600 };

export const ACCOUNT_CEILING_MESSAGE =
  'Trop de mots de passe erronés pour ce compte : la connexion par mot de passe est suspendue pour une heure. Si ce compte existe, un lien de connexion vient d’être envoyé à son adresse ; ouvrez-le pour vous connecter.';

export const loginDelayMs = (failures: number) =>
  failures < LOGIN_SLOWDOWN.freeFailures
    ? 0
    : Math.min(LOGIN_SLOWDOWN.capMs, LOGIN_SLOWDOWN.baseMs * 2 ** (failures - LOGIN_SLOWDOWN.freeFailures));

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * argon2id costs ~20–25 ms of a core per call. Without a cap, a login storm runs 4 at once (libuv's
 * threads) and takes every core from the saves of pupils already working and from PostgreSQL: 600
 * logins in 10 s on 2 cores put the saves' p99 at 280 ms (bench/rush). At most one call per core
 * but one: logins wait in line, saves keep a core. The line is served one client address at a time
 * (FairQueue): a flood from some addresses does not hold back a login from another (bench/login-flood).
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, os.availableParallelism() - 1);
const argon2Slots = new FairQueue(PASSWORD_HASH_CONCURRENCY);

/** Scripts and seeds hash outside any request: they share one turn in the line. */
const NO_CLIENT = '';

export function hashPassword(password: string, client = NO_CLIENT): Promise<string> {
  return argon2Slots.run(client, () => hash(password, { algorithm: 2 }));
}

/**
 * How long recent argon2 verifications ran (their turn in the line excluded). A login for an unknown
 * e-mail waits what a verification would take now — its turn in the line as it stands plus one of
 * these — instead of hashing: about the same time as a known e-mail (no enumeration by timing),
 * without taking a turn from real logins. Measured rather than assumed, so it follows the machine.
 */
const runDurations: number[] = [];
const DURATION_SAMPLES = 64;
let nextSample = 0;
// Verified against while too few real verifications have been timed.
let dummyHash: Promise<string> | undefined;

async function verify(hashed: string, password: string, client: string): Promise<boolean> {
  return argon2Slots
    .run(client, async () => {
      const started = performance.now();
      try {
        return await argonVerify(hashed, password);
      } finally {
        runDurations[nextSample] = performance.now() - started;
        nextSample = (nextSample + 1) % DURATION_SAMPLES;
      }
    })
    .catch(() => false);
}

async function verifyNobody(password: string, client: string): Promise<void> {
  if (runDurations.length < 8) {
    dummyHash ??= hashPassword('dummy-password-for-timing');
    await verify(await dummyHash, password, client);
    return;
  }
  const mean = runDurations.reduce((a, b) => a + b, 0) / runDurations.length;
  // Busy slots: on average half a verification left each, then the tasks ahead, shared by the slots.
  const wait = argon2Slots.idle ? 0 : (mean / 2 + argon2Slots.tasksAheadOf(client) * mean) / PASSWORD_HASH_CONCURRENCY;
  await sleep(wait + runDurations[Math.floor(Math.random() * runDurations.length)]);
}

/** argon2 calls running and waiting (tests, metrics). */
export const passwordHashQueue = () => ({ running: argon2Slots.activeCount, waiting: argon2Slots.pendingCount });

/**
 * docs/product.md#design-3 Accounts: the same answer whether the e-mail exists or not. A new e-mail gets an
 * account and a confirmation link; a known one gets a password-reset link.
 */
export async function registerUser(deps: Deps, input: { email: string; ip: string; returnTo?: string }): Promise<void> {
  const email = normaliseEmail(input.email);
  await hitRateLimit(deps.limiter, { key: `register-ip:${clientKeyOf(input.ip)}`, ...IP_LIMITS.register });
  await hitRateLimit(deps.limiter, {
    key: `register:${email}`,
    limit: 1,
    windowSeconds: 60,
    message: 'Un courriel a déjà été envoyé à cette adresse il y a moins d’une minute. Patientez avant de réessayer.',
  });
  const [created] = await deps.db.insert(users).values({ email }).onConflictDoNothing().returning({ id: users.id });
  const user = created ?? (await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1))[0];
  await sendPasswordLink(deps, { userId: user.id, email, kind: created ? 'signup' : 'reset', returnTo: input.returnTo });
}

/** Creates a single-use 48 h link and mails it. */
export async function sendPasswordLink(
  deps: Deps,
  opts: {
    userId: string;
    email: string;
    kind: 'signup' | 'reset' | 'admin' | 'invite' | 'lockout';
    returnTo?: string;
    institutionName?: string;
  },
): Promise<string> {
  const { token, hash: tokenHash } = newEmailToken();
  await deps.db.insert(emailTokens).values({
    userId: opts.userId,
    tokenHash,
    purpose: opts.kind,
    expiresAt: new Date(Date.now() + LINK_VALIDITY_MS),
  });
  // The page the user was going to comes back with the link (safeReturnPath checked it).
  const back = opts.returnTo ? `&retour=${encodeURIComponent(opts.returnTo)}` : '';
  const link = `${deps.config.publicUrl}/confirm?token=${encodeURIComponent(token)}${back}`;
  try {
    await deps.mailer.send(passwordLinkMail(opts.email, link, opts.kind, opts.institutionName));
  } catch (err) {
    deps.log.error({ err }, 'mail sending failed');
    throw new AppError(503, 'L’envoi du courriel a échoué. Réessayez dans quelques minutes.');
  }
  return link;
}

/**
 * GET /auth/link/{token}: tells whether a link can still set a password, without using it, so that
 * /confirm says at once that a link is unknown, used or expired instead of after the password.
 * Rate-limited as the confirmation itself: it must not become a way to try tokens.
 */
export async function checkPasswordLink(deps: Deps, input: { token: string; ip: string }): Promise<{ valid: true; email: string }> {
  await hitRateLimit(deps.limiter, { key: `confirm-ip:${clientKeyOf(input.ip)}`, ...IP_LIMITS.confirm });
  const [row] = await deps.db
    .select({ usedAt: emailTokens.usedAt, expiresAt: emailTokens.expiresAt, email: users.email })
    .from(emailTokens)
    .innerJoin(users, eq(users.id, emailTokens.userId))
    .where(eq(emailTokens.tokenHash, hashEmailToken(input.token)))
    .limit(1);
  if (!row) throw notFound(UNKNOWN_LINK);
  if (row.usedAt) throw new AppError(410, USED_LINK, 'link_used');
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError(410, EXPIRED_LINK, 'link_expired');
  return { valid: true, email: row.email };
}

/**
 * Sets the password from a link: single use, 48 h, the five rules re-checked; older tokens are
 * revoked. The link is checked before the password is hashed, so a made-up link costs no argon2.
 */
export async function confirmPassword(deps: Deps, input: { token: string; password: string; ip: string }): Promise<SessionTokens> {
  const client = clientKeyOf(input.ip);
  await hitRateLimit(deps.limiter, { key: `confirm-ip:${client}`, ...IP_LIMITS.confirm });
  if (!isPasswordValid(input.password)) throw badRequest(PASSWORD_RULES_MESSAGE);
  const tokenHash = hashEmailToken(input.token);
  const usable = () => and(eq(emailTokens.tokenHash, tokenHash), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date()));
  const [valid] = await deps.db.select({ userId: emailTokens.userId }).from(emailTokens).where(usable()).limit(1);
  if (!valid) throw badRequest(INVALID_LINK);
  const passwordHash = await hashPassword(input.password, client);
  const user = await deps.db.transaction(async (tx) => {
    // Checked again: the same link may have been used while the password was being hashed.
    const [row] = await tx.update(emailTokens).set({ usedAt: new Date() }).where(usable()).returning({ userId: emailTokens.userId });
    if (!row) throw badRequest(INVALID_LINK);
    const [updated] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, lastLoginAt: new Date() })
      .where(eq(users.id, row.userId))
      .returning({ id: users.id, tokenVersion: users.tokenVersion, email: users.email });
    // Any other link still in a mailbox dies with this password choice.
    await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailTokens.userId, row.userId), isNull(emailTokens.usedAt)));
    return updated;
  });
  // Whoever holds the link just proved they own the address: logged in at once, and the password works
  // again at once after LOGIN_ACCOUNT_CEILING (decision 135).
  await Promise.all([deps.limiter.reset(`login-fail:${user.email}`), deps.limiter.reset(`login-fail-hour:${user.email}`)]);
  return createSession(deps, { userId: user.id, tokenVersion: user.tokenVersion });
}

/**
 * A login's statements before the password check (limits, the account) wait in a line served one
 * address at a time, as argon2's: 1,500 logins in flight from a few hundred addresses queue thousands
 * of statements for the 10 connections of the pool, and a login from elsewhere would wait behind all
 * of them (5 s in bench/login-flood) instead of behind one login per flooding address. 8 at once, two
 * statements each: 4 at once made the line itself the bottleneck when PostgreSQL is slow to answer.
 */
const loginLine = new FairQueue(8);

/**
 * Limits per address and per (e-mail, address), not per account alone: a whole school shares one
 * address (docs/product.md#design-3). Wrong passwords slow the account down (LOGIN_SLOWDOWN) instead of locking
 * it. Whatever is wrong, the answer is "Identifiants invalides.", after about the same time.
 */
export async function loginUser(deps: Deps, input: { email: string; password: string; ip: string }): Promise<SessionTokens> {
  const email = normaliseEmail(input.email);
  const client = clientKeyOf(input.ip);
  const failuresKey = `login-fail:${email}`;
  const ceilingKey = `login-fail-hour:${email}`;
  const { failures, hourly, user } = await loginLine.run(client, async () => {
    // Every try counts as a failure until it succeeds (a success clears the counts): a failed login
    // then needs no statement after the password check. The account is read meanwhile.
    const [[ip, perAccountAndIp, tries, hourTries], [user]] = await Promise.all([
      hitRateLimits(deps.limiter, [
        { key: `login-ip:${client}`, limit: Infinity, windowSeconds: IP_LIMITS.login.windowSeconds },
        { key: `login:${email}:${client}`, limit: Infinity, windowSeconds: LOGIN_PER_ACCOUNT_AND_IP.windowSeconds },
        { key: failuresKey, limit: Infinity, windowSeconds: LOGIN_SLOWDOWN.windowSeconds },
        { key: ceilingKey, limit: Infinity, windowSeconds: LOGIN_ACCOUNT_CEILING.windowSeconds },
      ]),
      deps.db
        .select({ id: users.id, passwordHash: users.passwordHash, tokenVersion: users.tokenVersion })
        .from(users)
        .where(eq(users.email, email))
        .limit(1),
    ]);
    // The try that crosses the ceiling mails the link once per window, whichever limit refuses it.
    if (hourTries === LOGIN_ACCOUNT_CEILING.limit + 1 && user) await mailLockoutLink(deps, user.id, email);
    if (ip > IP_LIMITS.login.limit) throw tooMany(IP_LIMITS.login.message);
    if (perAccountAndIp > LOGIN_PER_ACCOUNT_AND_IP.limit) throw tooMany();
    return { failures: tries - 1, hourly: hourTries, user };
  });
  // Past the ceiling the password is not even checked: no argon2 for the flood, and a right password
  // found by a botnet opens nothing (the same answer for an unknown e-mail).
  if (hourly > LOGIN_ACCOUNT_CEILING.limit) throw tooMany(ACCOUNT_CEILING_MESSAGE);
  const delay = loginDelayMs(failures);
  if (delay > 0) await sleep(delay);
  const ok = user?.passwordHash
    ? await verify(user.passwordHash, input.password, client)
    : (await verifyNobody(input.password, client), false);
  if (!ok || !user) throw unauthorized(INVALID_CREDENTIALS);
  // Only a right password gets here: outside the line, no flood waits in it.
  const [session] = await Promise.all([
    createSession(deps, { userId: user.id, tokenVersion: user.tokenVersion }),
    deps.limiter.reset(failuresKey),
    deps.limiter.reset(ceilingKey),
    deps.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id)),
  ]);
  return session;
}

/** The one-time link of LOGIN_ACCOUNT_CEILING: a failed mail is logged, the login answers the same. */
async function mailLockoutLink(deps: Deps, userId: string, email: string): Promise<void> {
  try {
    await sendPasswordLink(deps, { userId, email, kind: 'lockout' });
  } catch (err) {
    deps.log.error({ err }, 'lockout link not sent');
  }
}

/** docs/product.md#design-3: ADMIN_EMAIL exists and is admin at start-up; it is mailed a link until it has a password. */
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
