import { createSecretKey } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoCache, saveMemos } from '../src/answers/save-memos.js';
import { SAVE_BATCH, saveBatchStats, saveQueueOf } from '../src/answers/save-queue.js';
import { verifyHs256 } from '../src/auth/tokens.js';
import { accessGroups, answers, chapters, exercises, institutions, users } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

// The save path made fast for the rush (bench/rush/README.md) must decide exactly as before.

describe('TtlCache', () => {
  it('forgets an entry once its time to live has passed', () => {
    let now = 1_000;
    const cache = memoCache<string, number>(10, 2_000, () => now);
    cache.set('a', 1);
    now += 1_999;
    expect(cache.get('a')).toBe(1);
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping expired entries first, then the oldest', () => {
    let now = 0;
    const cache = memoCache<number, number>(3, 1_000, () => now);
    cache.set(1, 1);
    now = 600;
    cache.set(2, 2);
    cache.set(3, 3);
    now = 1_100; // 1 has expired
    cache.set(4, 4);
    expect([cache.get(1), cache.get(2), cache.get(3), cache.get(4)]).toEqual([undefined, 2, 3, 4]);
    cache.set(5, 5); // full, nothing expired: the oldest (2) goes
    expect(cache.size).toBe(3);
    expect([cache.get(2), cache.get(3), cache.get(4), cache.get(5)]).toEqual([undefined, 3, 4, 5]);
    cache.set(3, 33); // setting again refreshes its place
    cache.set(6, 6);
    expect([cache.get(3), cache.get(4), cache.get(6)]).toEqual([33, undefined, 6]);
  });
});

describe('verifyHs256 (replaces jose jwtVerify on every request)', () => {
  const secret = 'unit-secret-unit-secret-unit-secret';
  const raw = new TextEncoder().encode(secret);
  const key = createSecretKey(Buffer.from(raw));
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const sign = (header: Record<string, unknown>, payload: Record<string, unknown>, k: Uint8Array = raw) =>
    new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(k);
  const joseAccepts = (token: string) =>
    jwtVerify(token, raw, { algorithms: ['HS256'] }).then(
      ({ payload }) => typeof payload.sub === 'string' && typeof payload.tv === 'number',
      () => false,
    );

  it('agrees with jose on valid, expired, not-yet-valid, foreign, tampered and malformed tokens', async () => {
    const good = await sign({ alg: 'HS256' }, { sub: 'u1', tv: 3, act: 'a1', iat: now, exp: now + 60 });
    const [h, , s] = good.split('.');
    const cases = [
      good,
      await sign({ alg: 'HS256', typ: 'JWT' }, { sub: 'u1', tv: 0 }),
      await sign({ alg: 'HS256' }, { sub: 'u1', tv: 0, exp: now - 1 }),
      await sign({ alg: 'HS256' }, { sub: 'u1', tv: 0, exp: now }),
      await sign({ alg: 'HS256' }, { sub: 'u1', tv: 0, nbf: now + 100 }),
      await sign({ alg: 'HS256' }, { sub: 'u1', tv: 0, exp: 'tomorrow' }),
      await sign({ alg: 'HS256' }, { sub: 'u1', tv: 0, iat: 'today' }),
      await sign({ alg: 'HS256' }, { sub: 'u1', tv: '0' }),
      await sign({ alg: 'HS256' }, { tv: 0 }),
      await sign({ alg: 'HS256' }, { sub: 'u1', tv: 0 }, new TextEncoder().encode('another-secret-another-secret-xx')),
      await sign({ alg: 'HS512' }, { sub: 'u1', tv: 0 }),
      `${b64({ alg: 'none' })}.${b64({ sub: 'u1', tv: 0 })}.`,
      `${h}.${b64({ sub: 'admin', tv: 0 })}.${s}`,
      `${good}x`,
      good.replace(/\.[^.]+$/, '.AAAA'),
      'garbage',
      'a.b.c.d',
      '',
    ];
    for (const token of cases) {
      expect(verifyHs256(token, key, now) !== null, token).toBe(await joseAccepts(token));
    }
    expect(verifyHs256(good, key, now)).toEqual({ userId: 'u1', tokenVersion: 3, actorId: 'a1' });
  });

  it('refuses a header with crit or b64, and a payload that is not an object', async () => {
    const crit = await sign({ alg: 'HS256', crit: ['b64'], b64: true }, { sub: 'u1', tv: 0 });
    expect(verifyHs256(crit, key, now)).toBeNull();
    const { createHmac } = await import('node:crypto');
    const body = `${b64({ alg: 'HS256' })}.${Buffer.from('[1]').toString('base64url')}`;
    const array = `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
    expect(verifyHs256(array, key, now)).toBeNull();
  });
});

describe('resolveAuth on a self-checked route', () => {
  it('verifies the signature only on POST /api/answer, and looks the user up everywhere else', async () => {
    const { createTokenSigner } = await import('../src/auth/tokens.js');
    const { resolveAuth } = await import('../src/auth/context.js');
    const signer = createTokenSigner('unit-secret-unit-secret-unit-secret');
    const token = await signer.sign({ userId: '00000000-0000-4000-8000-00000000beef', tokenVersion: 2 });
    // No database is touched on the save route: a db that throws proves it.
    const noDb = new Proxy(
      {},
      {
        get: () => {
          throw new Error('database used');
        },
      },
    ) as never;
    const save = await resolveAuth(noDb, signer, `Bearer ${token}`, { method: 'POST', routeOptions: { url: '/api/answer' } });
    expect(save.auth).toMatchObject({ userId: '00000000-0000-4000-8000-00000000beef', tokenVersion: 2, unchecked: true, isAdmin: false });
    await expect(
      resolveAuth(noDb, signer, `Bearer ${token}`, { method: 'GET', routeOptions: { url: '/api/answer/chapter/:id' } }),
    ).rejects.toThrow();
    expect((await resolveAuth(noDb, signer, 'Bearer nope', { method: 'POST', routeOptions: { url: '/api/answer' } })).rejected).toBe(true);
    const { hasRole } = await import('../src/auth/context.js');
    expect(() => hasRole(save.auth!, 'member')).toThrow();
  });
});

describe('POST /answer fast path (memoised decision, re-checked in the insert)', () => {
  let t: TestApp;
  let schoolId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    [{ id: schoolId }] = await t.database.db.insert(institutions).values({ name: 'Collège Sophie Germain' }).returning();
  });
  afterAll(async () => t.close());

  const pupil = () =>
    createUser(t, 'pupil', {
      firstName: 'Sophie',
      lastName: 'Germain',
      gender: 'female',
      birthDate: '2010-04-01',
      grade: '3eme',
      defaultChoice: 'local',
      emailParent: 'parent@exemple.fr',
      institutionId: schoolId,
    });

  async function startedChapter(duration = 60) {
    const db = t.database.db;
    const [c] = await db.insert(chapters).values({ title: 'Épreuve' }).returning();
    await db
      .insert(accessGroups)
      .values({ chapterId: c.id, position: 0, timeDuration: duration, accessStart: new Date(Date.now() - 60_000) });
    const [e] = await db.insert(exercises).values({ chapterId: c.id, position: 0, title: 'Somme', answerFormat: 'numeric' }).returning();
    const user = await pupil();
    expect((await inject(t, { method: 'POST', url: `/api/chapter/start/${c.id}`, headers: user.headers })).status).toBe(200);
    return { chapterId: c.id, exerciseId: e.id, user };
  }

  const save = (headers: Record<string, string>, exerciseId: string, answer: string, seq: number) =>
    inject(t, { method: 'POST', url: '/api/answer', headers, payload: { exerciseId, answer, seq } });
  const memoOf = (userId: string, exerciseId: string) => saveMemos.get(`${userId}|0|||${exerciseId}`);
  const stored = (userId: string, exerciseId: string) =>
    t.database.db
      .select({ seq: answers.seq, answer: answers.answer })
      .from(answers)
      .where(and(eq(answers.userId, userId), eq(answers.exerciseId, exerciseId)));

  it('memoises an allowed save, then stores later saves in one statement with the same answers', async () => {
    const { exerciseId, user } = await startedChapter();
    expect((await save(user.headers, exerciseId, '1', 1)).body).toEqual({ exercise: exerciseId, seq: 1, current: true, duplicate: false });
    expect(memoOf(user.id, exerciseId)?.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect((await save(user.headers, exerciseId, '2', 2)).body).toEqual({ exercise: exerciseId, seq: 2, current: true, duplicate: false });
    expect((await save(user.headers, exerciseId, '2', 2)).body).toEqual({ exercise: exerciseId, seq: 2, current: true, duplicate: true });
    expect((await save(user.headers, exerciseId, '0', 0)).body).toEqual({ exercise: exerciseId, seq: 0, current: false, duplicate: false });
    expect((await stored(user.id, exerciseId)).map((r) => r.seq).sort()).toEqual([0, 1, 2]);
    // A bad value still gets its 400, memo or not.
    expect((await save(user.headers, exerciseId, 'abc', 3)).status).toBe(400);
  });

  it('sends one statement for a save once the decision is memoised (no per-request user lookup)', async () => {
    const { exerciseId, user } = await startedChapter();
    expect((await save(user.headers, exerciseId, '1', 1)).status).toBe(200);
    const client = (t.database.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const original = client.query;
    const seen: string[] = [];
    client.query = function (this: unknown, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      seen.push(text.replace(/\s+/g, ' ').slice(0, 60));
      return original.apply(this, args);
    };
    try {
      expect((await save(user.headers, exerciseId, '2', 2)).status).toBe(200);
    } finally {
      client.query = original;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^ WITH ctx AS/);
  });

  it('refuses at once after publication, the deadline, a lost access or an incomplete profile', async () => {
    const db = t.database.db;
    const cases: Array<[string, (ctx: Awaited<ReturnType<typeof startedChapter>>) => Promise<unknown>, number, RegExp]> = [
      ['published', (c) => db.update(chapters).set({ analysis: true }).where(eq(chapters.id, c.chapterId)), 403, /publiés/],
      [
        'time is up',
        (c) => db.execute(sql`UPDATE chapter_sessions SET started_at = now() - interval '2 hours' WHERE user_id = ${c.user.id}`),
        403,
        /terminée/,
      ],
      [
        'access group gone',
        (c) =>
          db
            .update(accessGroups)
            .set({ authorizedGrades: ['6eme'] })
            .where(eq(accessGroups.chapterId, c.chapterId)),
        403,
        /accès/,
      ],
      ['profile emptied', (c) => db.update(users).set({ lastName: null }).where(eq(users.id, c.user.id)), 403, /profil/i],
    ];
    for (const [label, change, status, message] of cases) {
      const ctx = await startedChapter();
      expect((await save(ctx.user.headers, ctx.exerciseId, '1', 1)).status, label).toBe(200);
      expect(memoOf(ctx.user.id, ctx.exerciseId), label).toBeDefined();
      await change(ctx);
      const res = await save(ctx.user.headers, ctx.exerciseId, '2', 2);
      expect([res.status, res.body.message], label).toEqual([status, expect.stringMatching(message)]);
      expect(
        (await stored(ctx.user.id, ctx.exerciseId)).map((r) => r.seq),
        label,
      ).toEqual([1]);
    }
  });

  it('refuses a revoked token at once (no cache window for saves)', async () => {
    const ctx = await startedChapter();
    expect((await save(ctx.user.headers, ctx.exerciseId, '1', 1)).status).toBe(200);
    await t.database.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, ctx.user.id));
    expect((await save(ctx.user.headers, ctx.exerciseId, '2', 2)).status).toBe(401);
    expect((await stored(ctx.user.id, ctx.exerciseId)).map((r) => r.seq)).toEqual([1]);
  });

  it('takes a change that still allows the save through the full path and memoises again', async () => {
    const ctx = await startedChapter();
    expect((await save(ctx.user.headers, ctx.exerciseId, '1', 1)).status).toBe(200);
    const before = memoOf(ctx.user.id, ctx.exerciseId)!.fingerprint;
    await t.database.db.update(accessGroups).set({ timeDuration: 90 }).where(eq(accessGroups.chapterId, ctx.chapterId));
    expect((await save(ctx.user.headers, ctx.exerciseId, '2', 2)).status).toBe(200);
    const after = memoOf(ctx.user.id, ctx.exerciseId)!;
    expect(after.fingerprint).not.toBe(before);
    expect(after.untilMs - after.fromMs).toBeGreaterThan(0);
    expect((await stored(ctx.user.id, ctx.exerciseId)).map((r) => r.seq).sort()).toEqual([1, 2]);
  });

  it('checks the token in the save itself: unknown exercise with a revoked token → 401, staff roles from the row', async () => {
    const ctx = await startedChapter();
    await t.database.db.update(users).set({ tokenVersion: 5 }).where(eq(users.id, ctx.user.id));
    const res = await save(ctx.user.headers, '00000000-0000-4000-8000-00000000dead', '1', 1);
    expect([res.status, res.body.message]).toEqual([401, expect.stringMatching(/Reconnectez-vous/)]);
    // A member saves in a timed chapter without starting it (staff), as before.
    const member = await createUser(t, 'member');
    expect((await save(member.headers, ctx.exerciseId, '7', 7)).status).toBe(200);
    expect((await save(member.headers, ctx.exerciseId, '8', 8)).status).toBe(200);
    // An impersonation token stops saving as soon as its admin loses the admin flag.
    const admin = await createUser(t, 'admin');
    const other = await startedChapter();
    const logto = await inject(t, { method: 'POST', url: '/api/user/logto', payload: { uid: other.user.id }, headers: admin.headers });
    const asPupil = { authorization: `Bearer ${logto.body.token}` };
    expect((await save(asPupil, other.exerciseId, '1', 1)).status).toBe(200);
    expect((await save(asPupil, other.exerciseId, '2', 2)).status).toBe(200);
    await t.database.db.update(users).set({ isAdmin: false }).where(eq(users.id, admin.id));
    expect((await save(asPupil, other.exerciseId, '3', 3)).status).toBe(401);
    expect((await stored(other.user.id, other.exerciseId)).map((r) => r.seq).sort()).toEqual([1, 2]);
  });

  it('batches concurrent memoised saves into one statement with the answers each would get alone', async () => {
    const pupils = await Promise.all(Array.from({ length: 12 }, () => startedChapter()));
    for (const p of pupils) expect((await save(p.user.headers, p.exerciseId, '1', 10)).status).toBe(200);
    // One pupil's context changes: its save in the batch must be refused, the others stored.
    await t.database.db.update(chapters).set({ analysis: true }).where(eq(chapters.id, pupils[0].chapterId));
    const before = { ...saveBatchStats };
    // Hold the queue until every memoised save waits in it (as when the statements in flight are slow).
    const queue = saveQueueOf(t.database.db);
    const inFlight = SAVE_BATCH.maxInFlight;
    SAVE_BATCH.maxInFlight = 0;
    let results: Awaited<ReturnType<typeof save>>[];
    try {
      const pending = Promise.all(
        pupils.flatMap((p, k) => [
          save(p.user.headers, p.exerciseId, `${k}`, 20), // new
          save(p.user.headers, p.exerciseId, '1', 10), // duplicate of the first save
          save(p.user.headers, p.exerciseId, '5', 5), // older than the current one
        ]),
      );
      for (let i = 0; i < 200 && queue.queued < 36; i++) await new Promise((r) => setTimeout(r, 10));
      expect(queue.queued).toBe(36);
      // One statement at a time, so that the expected answers are those of the saves in order.
      SAVE_BATCH.maxInFlight = 1;
      queue.pump();
      results = await pending;
    } finally {
      SAVE_BATCH.maxInFlight = inFlight;
    }
    expect(saveBatchStats.batches).toBeGreaterThan(before.batches);
    expect(saveBatchStats.batches - before.batches).toBe(3);
    expect(saveBatchStats.batchedSaves - before.batchedSaves).toBe(36);
    // Every save of the 11 unchanged pupils was decided by a batch statement (the fingerprints agree).
    expect(saveBatchStats.batchMatched - before.batchMatched).toBe(33);
    expect(saveBatchStats.fallbacks).toBe(before.fallbacks);
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([403, 403, 403]);
    pupils.slice(1).forEach((p, i) => {
      const [fresh, dup, older] = results.slice(3 * (i + 1), 3 * (i + 2)).map((r) => r.body);
      expect(fresh).toEqual({ exercise: p.exerciseId, seq: 20, current: true, duplicate: false });
      expect(dup).toEqual({ exercise: p.exerciseId, seq: 10, current: false, duplicate: true });
      expect(older).toEqual({ exercise: p.exerciseId, seq: 5, current: false, duplicate: false });
    });
    for (const p of pupils.slice(1))
      expect((await stored(p.user.id, p.exerciseId)).map((r) => r.seq).sort((a, b) => a - b)).toEqual([5, 10, 20]);
    expect((await stored(pupils[0].user.id, pupils[0].exerciseId)).map((r) => r.seq)).toEqual([10]);
  });
});
