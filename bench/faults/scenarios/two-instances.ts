/**
 * Two server processes on two ports, one PostgreSQL, one Redis (REDIS_URL): a pupil's saves
 * alternate between them and nothing is lost or reordered; the login rate limit counts across
 * both (one after the other and all at once); sorting reservations hold across both.
 */
import { sql } from 'drizzle-orm';
import {
  call,
  checkStored,
  Checks,
  createDatabase,
  dropDatabase,
  JWT_SECRET,
  keepAlive,
  openCheckDb,
  pool,
  PORT_A,
  PORT_B,
  REDIS_URL,
  rows,
  seedChapter,
  startServer,
  type CheckDb,
  type ScenarioResult,
} from '../harness.js';
import { expectedOf, newStats, SimPupil, statusLine, waitDrained } from '../pupils.js';
import { createTokenSigner } from '../../../server/src/auth/tokens.js';
import { chapters, files, groupMembers, MEMBERS_GROUP_ID, unlabeledAnswers, users } from '../../../server/src/db/schema.js';

const PUPILS = 40;
const SORTERS = 12;
const COPIES = 30;
const TOO_MANY = 'Trop de tentatives. Réessayez dans une minute.';

export async function twoInstances(): Promise<ScenarioResult[]> {
  const dbName = 'olympe_faults_two';
  await createDatabase(dbName);
  const check = openCheckDb(dbName);
  const env = { REDIS_URL };
  const a = await startServer({ port: PORT_A, dbName, env });
  const b = await startServer({ port: PORT_B, dbName, env });
  const bases = [a.base, b.base];
  const agent = keepAlive();
  try {
    return [await saves(), await rateLimits(), await reservations()];
  } finally {
    agent.destroy();
    a.kill('SIGKILL');
    b.kill('SIGKILL');
    await check.close();
    await dropDatabase(dbName);
  }

  async function saves(): Promise<ScenarioResult> {
    const c = new Checks();
    const seeded = await seedChapter(check.db, { pupils: PUPILS, exercises: 5, tag: 'two' });
    const stats = newStats();
    const perInstance = [0, 0];
    const pupils = seeded.pupils.map(
      (u, i) =>
        new SimPupil(
          i,
          u,
          seeded.exerciseIds,
          stats,
          (n) => {
            perInstance[(i + n) % 2]++;
            return bases[(i + n) % 2];
          },
          agent,
        ),
    );
    await pool(pupils, 10, (p) => p.start(seeded.chapterId, Date.now() + 30_000));
    await Promise.all(pupils.map((p) => p.typeUntil(Date.now() + 10_000, 700)));
    const drainMs = await waitDrained(pupils, 30_000);
    for (const p of pupils) p.queue.dispose();
    const expected = expectedOf(pupils);
    const stored = await checkStored(check.db, seeded.chapterId, stats.acks, expected);
    c.expect(a.alive() && b.alive(), 'an instance died');
    c.expect(perInstance[0] > 0 && perInstance[1] > 0, `saves per instance: ${perInstance.join(' / ')}`);
    c.expect(stored.lost === 0, `${stored.lost} acknowledged saves missing from the database`);
    c.expect(drainMs !== null, 'some pages still had unsent answers 30 s after the typing stopped');
    c.expect(stored.wrongCurrent === 0, `${stored.wrongCurrent} (pupil, exercise) whose current answer is not the last typed value`);
    c.expect(stats.statuses.size === 1 && stats.statuses.has('200'), `save responses: ${statusLine(stats)}`);
    return {
      name: 'two instances: alternating saves',
      pass: c.pass,
      figures:
        `${PUPILS} pupils, each request to the other instance than the previous one (${perInstance[0]} requests to :${PORT_A}, ${perInstance[1]} to :${PORT_B}); ` +
        `saves acknowledged ${stored.acknowledged}, found ${stored.found}, lost ${stored.lost}; ` +
        `current answer = last typed for ${expected.size - stored.wrongCurrent}/${expected.size}; responses: ${statusLine(stats)}`,
      notes: c.failed,
    };
  }

  async function rateLimits(): Promise<ScenarioResult> {
    const c = new Checks();
    const login = (base: string, email: string) =>
      call(base, 'POST', '/api/auth/login', { body: { email, password: 'pas-le-bon-mot-de-passe' }, timeoutMs: 15_000 });
    // One after the other, alternating: the account's failures are shared, so from the 6th try of 15 minutes
    // each waits 0.25 s, 0.5 s, 1 s… whichever instance gets it (decision 38): slowed down, never locked out.
    const email1 = `rl-seq-${Date.now().toString(36)}@faults.test`;
    const sequential: Array<{ status: number; ms: number }> = [];
    for (let k = 0; k < 8; k++) {
      const started = performance.now();
      const res = await login(bases[k % 2], email1);
      sequential.push({ status: res.status, ms: performance.now() - started });
    }
    const waits = [0, 0, 0, 0, 0, 250, 500, 1000];
    c.expect(
      sequential.every((r) => r.status === 401),
      `alternating attempts: ${sequential.map((r) => r.status).join(',')}`,
    );
    c.expect(
      sequential.every((r, k) => r.ms >= waits[k] * 0.9),
      `slow-down shared by both instances: ${sequential.map((r) => Math.round(r.ms)).join(', ')} ms (wanted ≥ ${waits.join(', ')})`,
    );
    // All at once, 20 to each instance: exactly 30 get past the per-(e-mail, address) limit shared in Redis.
    const email2 = `rl-par-${Date.now().toString(36)}@faults.test`;
    const burst = await Promise.all(Array.from({ length: 40 }, (_, k) => login(bases[k % 2], email2)));
    const passed = burst.filter((r) => r.status === 401).length;
    const limited = burst.filter((r) => r.status === 429).length;
    const french = burst.filter((r) => r.status === 429 && r.json?.message === TOO_MANY).length;
    c.expect(
      passed === 30 && limited === 10,
      `40 simultaneous attempts: ${passed} × 401, ${limited} × 429, others ${burst
        .filter((r) => r.status !== 401 && r.status !== 429)
        .map((r) => r.status || r.error)
        .join(',')}`,
    );
    c.expect(french === limited, `${limited - french} 429 without the French message`);
    return {
      name: 'two instances: rate limits (Redis)',
      pass: c.pass,
      figures:
        `8 failed logins alternating :${PORT_A}/:${PORT_B}: all 401, waits ${sequential.map((r) => Math.round(r.ms)).join('/')} ms; ` +
        `40 at once across both: ${passed} × 401, ${limited} × 429 (limit 30 per minute per e-mail and IP)`,
      notes: c.failed,
    };
  }

  async function reservations(): Promise<ScenarioResult> {
    const c = new Checks();
    const name = 'two instances: sorting reservations';
    const { chapterId, sorters } = await seedSorting(check.db);
    const select = (i: number, instance: number) =>
      call(bases[instance], 'GET', `/api/answer/unlabeled/select/${chapterId}`, { token: sorters[i].token, agent, timeoutMs: 15_000 });
    const probe = await select(0, 0);
    if (probe.status === 404 && probe.json?.message === 'Adresse inconnue.') {
      return { name, pass: true, figures: 'skipped: GET /api/answer/unlabeled/select/{chapterId} does not exist yet', notes: [] };
    }
    await check.db.execute(sql`UPDATE unlabeled_answers SET reserved_by = NULL, reserved_at = NULL WHERE chapter_id = ${chapterId}`);
    // Every sorter asks at once, half through each instance: all different copies.
    const first = await Promise.all(sorters.map((_, i) => select(i, i % 2)));
    const ids = first.map((r) => r.json?.copy?._id as string | undefined);
    c.expect(
      first.every((r) => r.status === 200),
      `select statuses: ${first.map((r) => r.status || r.error).join(',')}`,
    );
    c.expect(ids.every(Boolean), `${ids.filter((x) => !x).length} sorters got no copy with ${COPIES} to sort`);
    c.expect(new Set(ids).size === SORTERS, `${SORTERS - new Set(ids).size} copies given to two sorters at once`);
    // Each asks again through the other instance: still their own copy.
    const again = await Promise.all(sorters.map((_, i) => select(i, (i + 1) % 2)));
    const same = again.filter((r, i) => r.json?.copy?._id === ids[i]).length;
    c.expect(same === SORTERS, `${SORTERS - same} sorters got another copy from the other instance`);
    const held = await rows<{ id: string; reserved_by: string }>(
      check.db,
      sql`SELECT id, reserved_by FROM unlabeled_answers WHERE chapter_id = ${chapterId} AND reserved_by IS NOT NULL`,
    );
    c.expect(held.length === SORTERS, `${held.length} copies reserved in the database for ${SORTERS} sorters`);
    return {
      name,
      pass: c.pass,
      figures:
        `${SORTERS} sorters at once across both instances, ${COPIES} copies: ${new Set(ids.filter(Boolean)).size} distinct copies; ` +
        `asking again through the other instance kept ${same}/${SORTERS}; ${held.length} reservations in the database`,
      notes: c.failed,
    };
  }
}

/** A paper chapter with COPIES unsorted one-page copies, and SORTERS members. */
async function seedSorting(db: CheckDb) {
  const signer = createTokenSigner(JWT_SECRET);
  const [chapter] = await db.insert(chapters).values({ title: 'Tri — deux instances' }).returning();
  const fileRows = await db
    .insert(files)
    .values(Array.from({ length: COPIES }, (_, k) => ({ originalName: `copie-${k}.pdf`, size: 1000, pages: 1 })))
    .returning({ id: files.id });
  await db
    .insert(unlabeledAnswers)
    .values(fileRows.map((f, k) => ({ chapterId: chapter.id, fileId: f.id, createdAt: new Date(Date.now() - (COPIES - k) * 1000) })));
  const members = await db
    .insert(users)
    .values(Array.from({ length: SORTERS }, (_, k) => ({ email: `trieur${k}@faults.test`, firstName: 'Trieur', lastName: `N${k}` })))
    .returning({ id: users.id });
  await db.insert(groupMembers).values(members.map((m) => ({ groupId: MEMBERS_GROUP_ID, userId: m.id })));
  return {
    chapterId: chapter.id,
    sorters: await Promise.all(members.map(async (m) => ({ id: m.id, token: await signer.sign({ userId: m.id, tokenVersion: 0 }) }))),
  };
}
