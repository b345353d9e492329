import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { hashPassword } from '../src/auth/service.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { exercises, groupMembers, HOME_SCHOOLING_ID, MEMBERS_GROUP_ID, sentMails, TEACHERS_GROUP_ID, users } from '../src/db/schema.js';
import { pseudonymsFor } from '../src/grading/queries.js';
import type { Mailer } from '../src/mail/mailer.js';
import { withDatabase } from './global-setup.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** A fresh database per call: PGlite loaded from the migrated snapshot, or a clone of the PostgreSQL template. */
export async function openTestDatabase(): Promise<Database> {
  const dir = process.env.OLYMPE_TEST_DIR!;
  const template = process.env.OLYMPE_TEST_TEMPLATE;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl && template) {
    const name = `olympe_t${randomUUID().slice(0, 8)}_${template.split('_').pop()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    return openDatabase({ databaseUrl: withDatabase(serverUrl, name) });
  }
  const snapshot = new Blob([readFileSync(path.join(dir, 'snapshot.tar'))]);
  const client = await PGlite.create({ loadDataDir: snapshot });
  return openDatabase({ pglite: client });
}

export async function buildTestApp(
  opts: { env?: Record<string, string>; mailer?: Mailer; logStream?: { write(line: string): void } } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({
    DATA_DIR: path.join(process.env.OLYMPE_TEST_DIR!, randomUUID()),
    JWT_SECRET: 'test-secret-test-secret-test-secret',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://olympe.test',
    // Background jobs (QR decoding) run only where a test asks for them: others stay deterministic.
    JOBS_WORKER: 'off',
    // Files sent by one account per minute (decision 133): tests send many in a row; those that test the rate set it.
    UPLOADS_PER_MINUTE: '1000',
    STAFF_UPLOADS_PER_MINUTE: '1000',
    ...opts.env,
  });
  const app = await buildApp({ config, database, logger: !!opts.logStream, mailer: opts.mailer, logStream: opts.logStream });
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export type RoleName = 'anonymous' | 'pupil' | 'teacher' | 'member' | 'admin';
export const PASSWORD = 'Secret#2026ok';
let passwordHash: Promise<string> | undefined;

/** Creates a user with a password, optional role, and returns its id and a bearer token. */
export async function createUser(
  t: TestApp,
  role: Exclude<RoleName, 'anonymous'>,
  fields: Partial<typeof users.$inferInsert> = {},
): Promise<{ id: string; email: string; token: string; headers: Record<string, string> }> {
  passwordHash ??= hashPassword(PASSWORD);
  const email = fields.email ?? `${role}-${randomUUID().slice(0, 8)}@exemple.fr`;
  const [row] = await t.database.db
    .insert(users)
    .values({ ...fields, email, passwordHash: await passwordHash, isAdmin: role === 'admin' })
    .returning({ id: users.id, tokenVersion: users.tokenVersion });
  if (role === 'teacher') await t.database.db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: row.id });
  if (role === 'member') await t.database.db.insert(groupMembers).values({ groupId: MEMBERS_GROUP_ID, userId: row.id });
  const token = await t.app.deps.signer.sign({ userId: row.id, tokenVersion: row.tokenVersion });
  return { id: row.id, email, token, headers: { authorization: `Bearer ${token}` } };
}

/** A complete pupil profile (docs/product.md#spec-5), so chapter content is open to them. */
export const PUPIL_PROFILE = {
  firstName: 'Sophie',
  lastName: 'Germain',
  gender: 'female',
  birthDate: '2010-04-01',
  grade: '3eme',
  defaultChoice: 'local',
  emailParent: 'parent@exemple.fr',
  institutionId: HOME_SCHOOLING_ID,
} satisfies Partial<typeof users.$inferInsert>;

/**
 * Headers for a request made as the given role (a fresh user each time), or none for anonymous.
 * Pupils and teachers get a complete profile, which chapter content requires of them.
 */
export async function loginAs(t: TestApp, role: RoleName): Promise<Record<string, string>> {
  if (role === 'anonymous') return {};
  return (await createUser(t, role, role === 'pupil' || role === 'teacher' ? PUPIL_PROFILE : {})).headers;
}

export async function inject(t: TestApp, opts: InjectOptions) {
  const res = await t.app.inject(opts);
  return { status: res.statusCode, body: res.body ? safeJson(res.body) : undefined, headers: res.headers };
}

function safeJson(s: string): any {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** The link of the latest mail sent to an address, read from the sent_mails record. */
export async function lastLinkTo(t: TestApp, email: string): Promise<string> {
  const [mail] = await t.database.db.select().from(sentMails).where(eq(sentMails.to, email)).orderBy(desc(sentMails.id)).limit(1);
  const link = mail && /https?:\/\/\S+\/confirm\?token=\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link mailed to ${email}`);
  return link;
}

export const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('token')!);

/**
 * The copy id under which a corrector of an anonymous chapter reaches this pupil's copy (decision 128),
 * given as the grading table would give it.
 */
export async function copyIdOf(t: TestApp, userId: string, exerciseId: string): Promise<string> {
  const [exercise] = await t.database.db.select({ chapterId: exercises.chapterId }).from(exercises).where(eq(exercises.id, exerciseId));
  return (await pseudonymsFor(t.database.db, exercise.chapterId, [userId])).get(userId)!.copyId;
}
