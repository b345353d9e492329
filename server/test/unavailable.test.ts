import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from '../src/http/errors.js';
import { createTokenSigner } from '../src/auth/tokens.js';
import { buildTestApp } from './helpers.js';

/**
 * PostgreSQL unreachable: 503 with the French message, never 500 and never a hang (docs/product.md#design-4,
 * faults; the full scenarios with a real stop are in bench/faults). drizzle wraps the driver's
 * errors in DrizzleQueryError, so the mapping follows `cause`.
 */

describe('isDatabaseUnavailable', () => {
  const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

  it('recognises what node-postgres throws when the server is down or drops the connection, wrapped or not', () => {
    for (const err of [
      pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      pgError('terminating connection due to administrator command', '57P01'),
      pgError('the database system is shutting down', '57P03'),
      pgError('the database system is starting up', '57P03'),
      pgError('Connection terminated unexpectedly'),
      pgError('Connection terminated due to connection timeout'),
      pgError('timeout exceeded when trying to connect'),
      pgError('Client has encountered a connection error and is not queryable'),
      new AggregateError([pgError('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
      expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], err)), `wrapped: ${err.message}`).toBe(true);
    }
  });

  it('leaves query errors alone (they are bugs: 500)', () => {
    for (const err of [
      pgError('syntax error at or near "SELEC"', '42601'),
      pgError('duplicate key value violates unique constraint', '23505'),
      new Error('Cannot read properties of undefined'),
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
      expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], err))).toBe(false);
    }
  });
});

describe('the API with PostgreSQL unreachable', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    // Port 1 on the loopback: refused at once, as a stopped PostgreSQL.
    database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/olympe' });
    const config = loadConfig({
      DATA_DIR: path.join(process.env.OLYMPE_TEST_DIR!, randomUUID()),
      JWT_SECRET: 'test-secret-test-secret-test-secret',
      LOG_LEVEL: 'silent',
    });
    app = await buildApp({ config, database, logger: false });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers 503 in French on a route that reads the database, and for a signed-in caller', async () => {
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ message: UNAVAILABLE_MESSAGE, code: 'unavailable' });

    const token = await createTokenSigner('test-secret-test-secret-test-secret').sign({ userId: randomUUID(), tokenVersion: 0 });
    const save = await app.inject({
      method: 'POST',
      url: '/api/answer',
      headers: { authorization: `Bearer ${token}` },
      payload: { exerciseId: randomUUID(), answer: '1', seq: 1 },
    });
    expect(save.statusCode).toBe(503);
    expect(save.json()).toEqual({ message: UNAVAILABLE_MESSAGE, code: 'unavailable' });
  });

  it('still answers what needs no database', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
  });
});

describe('a graceful stop', () => {
  it('finishes the request in flight and refuses the next one on the same connection in French', async () => {
    const net = await import('node:net');
    const t = await buildTestApp();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    t.app.get('/api/test/held', async () => {
      entered();
      await held;
      return { ok: true };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const socket = net.connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /api/test/held HTTP/1.1\r\nHost: x\r\n\r\n');
    await inFlight;
    const closing = t.app.close();
    // A second request on the same (busy, so not reaped) connection once the stop has begun.
    socket.write('GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await ended;
    await closing;
    await t.database.close();
    const replies = received.split(/(?=HTTP\/1\.1 )/);
    expect(replies).toHaveLength(2);
    expect(replies[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(replies[0]).toContain('{"ok":true}');
    expect(replies[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(replies[1]).toMatch(/connection: close/i);
    expect(replies[1]).toContain(JSON.stringify({ message: UNAVAILABLE_MESSAGE, code: 'unavailable' }));
    expect(replies[1]).not.toContain('"error":"Service Unavailable"');
  });
});
