import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GEOCODER_TIMEOUT } from '../src/institutions/geocode.js';
import { GEOCODE_LIMIT } from '../src/institutions/routes.js';
import { buildTestApp, createUser, inject, loginAs, type RoleName, type TestApp } from './helpers.js';

/**
 * GET /api/institution/geocode (decision 87) against a real HTTP geocoder started here (no internet):
 * it answers as api-adresse.data.gouv.fr or as Nominatim, slowly, badly or not at all, as `mode` says.
 */
type Mode = 'adresse' | 'nominatim' | 'slow' | 'error' | 'html' | 'junk' | 'huge';
let mode: Mode = 'adresse';
let seen: URL[] = [];
let seenHeaders: IncomingMessage['headers'][] = [];
let geocoder: Server;
let on: TestApp;
let off: TestApp;

const ADRESSE = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.347, 48.8589] },
      properties: { label: 'Place de l’Hôtel de Ville 75004 Paris' },
    },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [4.8357, 45.764] },
      properties: { label: '1 Rue de la République 69001 Lyon' },
    },
    // Outside the globe, or without a label: dropped.
    { type: 'Feature', geometry: { type: 'Point', coordinates: [200, 95] }, properties: { label: 'Nulle part' } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [2, 46] }, properties: {} },
  ],
};
const NOMINATIM = [{ lat: '-21.3393', lon: '55.4781', display_name: 'Lycée Roland Garros, Le Tampon, La Réunion, France' }];

beforeAll(async () => {
  geocoder = createServer((req, res) => {
    seen.push(new URL(req.url!, 'http://geocoder.test'));
    seenHeaders.push(req.headers);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (mode === 'adresse') json(200, ADRESSE);
    else if (mode === 'nominatim') json(200, NOMINATIM);
    else if (mode === 'error') json(500, { error: 'boom' });
    else if (mode === 'html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    else if (mode === 'junk') json(200, { hello: 'world' });
    else if (mode === 'huge') {
      // Chunked, with no declared length: 48 chunks of 16 KiB (768 KiB), more than the server reads.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      for (let i = 0; i < 48; i++) res.write(`"${'x'.repeat(16 * 1024)}",`);
      res.end('"x"]');
    }
    // slow: never answers; the socket is closed when the server closes.
  });
  await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
  const port = (geocoder.address() as AddressInfo).port;
  on = await buildTestApp({ env: { GEOCODER_URL: `http://127.0.0.1:${port}/search?format=jsonv2&countrycodes=fr` } });
  off = await buildTestApp();
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
  geocoder.closeAllConnections();
  await new Promise((resolve) => geocoder.close(resolve));
});
beforeEach(() => {
  mode = 'adresse';
  seen = [];
  seenHeaders = [];
});

const search = async (t: TestApp, q: string, headers: Record<string, string>) =>
  inject(t, { method: 'GET', url: `/api/institution/geocode?q=${encodeURIComponent(q)}`, headers });

describe('GET /api/institution/geocode', () => {
  it('tells the web app whether the address search exists (GET /api/config)', async () => {
    expect((await inject(on, { method: 'GET', url: '/api/config' })).body.geocoder).toBe(true);
    expect((await inject(off, { method: 'GET', url: '/api/config' })).body.geocoder).toBe(false);
  });

  for (const role of ['anonymous', 'pupil', 'teacher', 'member', 'admin'] as RoleName[]) {
    it(`as ${role}: ${role === 'anonymous' ? '401, the geocoder is not asked' : '200'}`, async () => {
      const res = await search(on, '10 rue de Rivoli', await loginAs(on, role));
      expect(res.status).toBe(role === 'anonymous' ? 401 : 200);
      expect(seen.length).toBe(role === 'anonymous' ? 0 : 1);
    });
  }

  it('reads an api-adresse.data.gouv.fr answer; passes q and limit, keeps the operator’s parameters', async () => {
    const res = await search(on, ' Hôtel de Ville Paris ', await loginAs(on, 'pupil'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { label: 'Place de l’Hôtel de Ville 75004 Paris', latitude: 48.8589, longitude: 2.347 },
        { label: '1 Rue de la République 69001 Lyon', latitude: 45.764, longitude: 4.8357 },
      ],
    });
    expect(seen[0].pathname).toBe('/search');
    expect(Object.fromEntries(seen[0].searchParams)).toEqual({
      format: 'jsonv2',
      countrycodes: 'fr',
      q: 'Hôtel de Ville Paris',
      limit: '5',
    });
    expect(seenHeaders[0]['user-agent']).toMatch(/^Olympe \(http/);
  });

  it('reads a Nominatim answer (string coordinates, display_name)', async () => {
    mode = 'nominatim';
    const res = await search(on, 'lycée Roland Garros Le Tampon', await loginAs(on, 'teacher'));
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { label: 'Lycée Roland Garros, Le Tampon, La Réunion, France', latitude: -21.3393, longitude: 55.4781 },
    ]);
  });

  it('bad input: a French 400 and the geocoder is not asked', async () => {
    const headers = await loginAs(on, 'pupil');
    for (const [url, message] of [
      ['/api/institution/geocode?q=ab', 'Adresse trop courte (3 caractères au moins).'],
      ['/api/institution/geocode?q=%20%20%20%20', 'Adresse trop courte (3 caractères au moins).'],
      [`/api/institution/geocode?q=${'a'.repeat(201)}`, 'Adresse trop longue (200 caractères au plus).'],
      ['/api/institution/geocode', 'Saisissez une adresse.'],
    ] as const) {
      const res = await inject(on, { method: 'GET', url, headers });
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toContain(message);
    }
    expect(seen).toEqual([]);
  });

  it('service off: 404 with a French message that says what to do instead', async () => {
    const res = await search(off, '10 rue de Rivoli', await loginAs(off, 'admin'));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(
      'La recherche d’adresse n’est pas activée sur ce serveur : placez l’établissement sur la carte ou saisissez sa latitude et sa longitude.',
    );
    expect((await search(off, '10 rue de Rivoli', {})).status).toBe(401);
  });

  it('a geocoder that fails, answers HTML or an unknown shape: 503 in French', async () => {
    const headers = await loginAs(on, 'pupil');
    for (const m of ['error', 'html', 'junk', 'huge'] as const) {
      mode = m;
      const res = await search(on, '10 rue de Rivoli', headers);
      expect(res.status, m).toBe(503);
      expect(res.body.message, m).toBe(
        'Le service de recherche d’adresse est indisponible. Réessayez plus tard, ou saisissez la latitude et la longitude.',
      );
    }
  });

  it('a geocoder that does not answer: 503 after the timeout', async () => {
    mode = 'slow';
    const saved = GEOCODER_TIMEOUT.ms;
    GEOCODER_TIMEOUT.ms = 300;
    try {
      const started = performance.now();
      const res = await search(on, '10 rue de Rivoli', await loginAs(on, 'pupil'));
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(
        'Le service de recherche d’adresse n’a pas répondu à temps. Réessayez, ou saisissez la latitude et la longitude.',
      );
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      GEOCODER_TIMEOUT.ms = saved;
    }
  });

  it(`is rate-limited per user: search number ${GEOCODE_LIMIT.limit + 1} in a minute gets a French 429`, async () => {
    const { headers } = await createUser(on, 'pupil');
    for (let i = 0; i < GEOCODE_LIMIT.limit; i++) expect((await search(on, '10 rue de Rivoli', headers)).status).toBe(200);
    const res = await search(on, '10 rue de Rivoli', headers);
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(GEOCODE_LIMIT.message);
    // Another person is not held back.
    expect((await search(on, '10 rue de Rivoli', await loginAs(on, 'pupil'))).status).toBe(200);
  });
});
