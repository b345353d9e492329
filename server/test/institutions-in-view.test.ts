import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_SCHOOLING_INSTITUTION_ID, type InViewResponse } from '@olympe/contract';
import { HOME_SCHOOLING_ID, institutions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * GET /institution/in-view (decision 89): the maps ask for their view. Each test places its schools in a
 * region of its own (far from France and from each other), so the tests share one database.
 */
let t: TestApp;
let admin: Record<string, string>;
let pupil: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
  pupil = (await createUser(t, 'pupil')).headers;
});
afterAll(async () => t.close());

interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** `n` schools on a small grid from (lat, lng), named so that their order by name is their index. */
async function place(n: number, lat: number, lng: number, fields: Partial<typeof institutions.$inferInsert> = {}, prefix = 'École') {
  const values = Array.from({ length: n }, (_, i) => ({
    name: `${prefix} ${String(i).padStart(4, '0')}`,
    address: `${i} rue de la Carte`,
    latitude: lat + Math.floor(i / 30) * 0.001,
    longitude: lng + (i % 30) * 0.001,
    confirmed: true,
    ...fields,
  }));
  const out: Array<typeof institutions.$inferSelect> = [];
  for (let i = 0; i < values.length; i += 500)
    out.push(
      ...(await t.database.db
        .insert(institutions)
        .values(values.slice(i, i + 500))
        .returning()),
    );
  return out;
}

const around = (lat: number, lng: number, half = 1): Box => ({ south: lat - half, west: lng - half, north: lat + half, east: lng + half });

async function inView(headers: Record<string, string>, box: Box, zoom: number, map?: 'profile' | 'institutions') {
  const params = new URLSearchParams({ ...Object.fromEntries(Object.entries(box).map(([k, v]) => [k, String(v)])), zoom: String(zoom) });
  if (map) params.set('map', map);
  const res = await inject(t, { method: 'GET', url: `/api/institution/in-view?${params}`, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as InViewResponse;
}

const sum = (r: InViewResponse) => r.schools.length + r.clusters.reduce((s, c) => s + c.count, 0);

describe('GET /institution/in-view', () => {
  it('sends the schools of the box, by name, with the fields of the list; none outside it, none without a position', async () => {
    await place(3, -40, -150);
    await place(2, -40, -140, {}, 'Dehors');
    await t.database.db.insert(institutions).values({ name: 'Sans position', latitude: null, longitude: null, confirmed: true });
    const res = await inView(pupil, around(-40, -150), 10);
    expect(res).toMatchObject({ total: 3, clusters: [], tooMany: false });
    expect(res.schools.map((s) => s.name)).toEqual(['École 0000', 'École 0001', 'École 0002']);
    expect(Object.keys(res.schools[0]).sort()).toEqual(['_id', 'address', 'confirmed', 'email', 'latitude', 'longitude', 'name']);
    expect(res.schools[1]).toMatchObject({ latitude: -40, longitude: -149.999, confirmed: true });
  });

  it('profile: markers up to 100 in view; at 101 none, the count and clusters instead', async () => {
    await place(100, -30, -150);
    const hundred = await inView(pupil, around(-30, -150), 12);
    expect(hundred).toMatchObject({ total: 100, tooMany: false, clusters: [] });
    expect(hundred.schools).toHaveLength(100);

    await place(1, -30, -149.5, {}, 'Cent-unième');
    const more = await inView(pupil, around(-30, -150), 12);
    expect(more).toMatchObject({ total: 101, tooMany: true, schools: [] });
    expect(sum(more)).toBe(101);
    // The /map rule on the same box: 101 is below 500, all are markers.
    expect((await inView(pupil, around(-30, -150), 12, 'institutions')).schools).toHaveLength(101);
  });

  it('clusters by the zoom: one cell per group far apart, with their number, mean position and extent; one cell at world zoom', async () => {
    await place(120, -20, -150);
    await place(80, -20, -140);
    const box = { south: -25, west: -155, north: -15, east: -135 };
    const z5 = await inView(pupil, box, 5);
    expect(z5.tooMany).toBe(true);
    expect(z5.total).toBe(200);
    expect(z5.clusters.map((c) => c.count)).toEqual([120, 80]);
    const [a, b] = z5.clusters;
    expect(a.latitude).toBeCloseTo(-20 + 0.0015, 4);
    expect(a.longitude).toBeCloseTo(-150 + 0.0145, 4);
    expect(a).toMatchObject({ south: -20, west: -150, north: -19.997, east: -149.971 });
    expect(b).toMatchObject({ south: -20, west: -140 });
    // At zoom 1 a cell is 56° of longitude wide: both groups fall in one.
    const z1 = await inView(pupil, box, 1);
    expect(z1.clusters).toHaveLength(1);
    expect(z1.clusters[0].count).toBe(200);
    // Zoomed in on the first group: its schools spread over several cells.
    // Zoomed in on the first group (cells of 0.014° at zoom 13): its schools spread over several cells.
    const z13 = await inView(pupil, around(-19.9985, -149.9855, 0.02), 13);
    expect(z13.clusters.length).toBeGreaterThan(2);
    expect(sum(z13)).toBe(120);
  });

  it('/map above 500: admins get the first 500 unconfirmed by name and the rest as clusters; others clusters only', async () => {
    await place(300, -10, -150, { confirmed: false }, 'Attente');
    await place(300, -10, -149.5, { confirmed: false }, 'Bis attente');
    await place(100, -10, -149, {}, 'Vérifiée');
    const box = around(-10, -149.5);
    const forAdmin = await inView(admin, box, 8, 'institutions');
    expect(forAdmin).toMatchObject({ total: 700, tooMany: true });
    expect(forAdmin.schools).toHaveLength(500);
    expect(forAdmin.schools.every((s) => !s.confirmed)).toBe(true);
    expect(forAdmin.schools[0].name).toBe('Attente 0000');
    expect(forAdmin.schools.at(-1)!.name).toBe('Bis attente 0199');
    // Clustered: the 100 unconfirmed after the 500th and the 100 verified.
    expect(forAdmin.clusters.reduce((s, c) => s + c.count, 0)).toBe(200);

    // Everyone else sees none of the unconfirmed ones: 100 verified, under 500, all drawn.
    const forPupil = await inView(pupil, box, 8, 'institutions');
    expect(forPupil).toMatchObject({ total: 100, tooMany: false });
    await place(450, -10, -148.6, {}, 'Encore');
    const crowded = await inView(pupil, box, 8, 'institutions');
    expect(crowded).toMatchObject({ total: 550, tooMany: true, schools: [] });
    expect(sum(crowded)).toBe(550);
    // The profile's rule for an admin: no priority, clusters only.
    expect(await inView(admin, box, 8)).toMatchObject({ total: 1150, tooMany: true, schools: [] });
  });

  it('shows a pending school only to its author, its users and admins, as a marker and in the counts', async () => {
    const author = await createUser(t, 'pupil');
    const other = await createUser(t, 'pupil');
    const proposed = await inject(t, {
      method: 'POST',
      url: '/api/institution',
      headers: author.headers,
      payload: { name: 'Collège proposé', latitude: 0.5, longitude: -150.5 },
    });
    const id = proposed.body.institution._id as string;
    const attached = await createUser(t, 'pupil', { institutionId: id });
    await place(3, 0, -150);
    const box = around(0, -150);
    const names = async (headers: Record<string, string>) => (await inView(headers, box, 9)).schools.map((s) => s.name);
    for (const headers of [author.headers, attached.headers, admin]) expect(await names(headers)).toContain('Collège proposé');
    expect(await names(other.headers)).not.toContain('Collège proposé');
    expect((await inView(other.headers, box, 9)).total).toBe(3);

    // In clusters too: 150 more schools, and the counts differ by the one pending school.
    await place(150, 0.2, -150);
    expect((await inView(author.headers, box, 9)).total).toBe(154);
    expect((await inView(other.headers, box, 9)).total).toBe(153);
    const teacher = await createUser(t, 'teacher');
    expect((await inView(teacher.headers, box, 9)).total).toBe(153);
  });

  it('refuses bad views in French: inverted, out of range, not numbers, empty, a fraction of zoom, an unknown map', async () => {
    const ok = 'south=1&west=1&north=2&east=2&zoom=5';
    const cases: Array<[string, RegExp]> = [
      ['south=3&west=1&north=2&east=2&zoom=5', /le sud doit être au sud du nord/],
      ['south=1&west=3&north=2&east=2&zoom=5', /l’ouest doit être à l’ouest de l’est/],
      ['south=-91&west=1&north=2&east=2&zoom=5', /latitude de -90 à 90/],
      ['south=1&west=1&north=2&east=181&zoom=5', /longitude de -180 à 180/],
      ['south=abc&west=1&north=2&east=2&zoom=5', /latitude de -90 à 90/],
      ['south=1&west=1&north=2&east=2&zoom=NaN', /Zoom invalide/],
      ['south=1&west=1&north=2&east=2&zoom=', /Zoom invalide/],
      ['south=&west=1&north=2&east=2&zoom=5', /latitude/],
      ['south=1&west=1&north=2&east=2&zoom=5.5', /Zoom invalide/],
      ['south=1&west=1&north=2&east=2&zoom=99', /Zoom invalide/],
      ['south=1&west=1&north=2&east=Infinity&zoom=5', /longitude/],
      ['west=1&north=2&east=2&zoom=5', /latitude/],
      [`${ok}&map=admin`, /Carte inconnue/],
    ];
    for (const [query, message] of cases) {
      const res = await inject(t, { method: 'GET', url: `/api/institution/in-view?${query}`, headers: pupil });
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(message);
    }
    expect((await inject(t, { method: 'GET', url: `/api/institution/in-view?${ok}` })).status).toBe(401);
  });
});

describe('GET /institution/{id}', () => {
  it('sends one school the caller may see; 404 for a pending one of someone else or an unknown id', async () => {
    const home = await inject(t, { method: 'GET', url: `/api/institution/${HOME_SCHOOLING_INSTITUTION_ID}`, headers: pupil });
    expect(HOME_SCHOOLING_INSTITUTION_ID).toBe(HOME_SCHOOLING_ID);
    expect(home.status).toBe(200);
    expect(home.body).toMatchObject({ _id: HOME_SCHOOLING_ID, name: 'Instruction en famille', latitude: null });

    const [pending] = await place(1, 10, -150, { confirmed: false }, 'Pas encore');
    const url = `/api/institution/${pending.id}`;
    expect((await inject(t, { method: 'GET', url, headers: pupil })).status).toBe(404);
    expect((await inject(t, { method: 'GET', url, headers: admin })).body).toMatchObject({
      _id: pending.id,
      name: 'Pas encore 0000',
      confirmed: false,
    });
    const unknown = await inject(t, { method: 'GET', url: '/api/institution/00000000-0000-4000-8000-00000000abcd', headers: pupil });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Établissement introuvable.' } });
    expect((await inject(t, { method: 'GET', url: '/api/institution/pas-un-id', headers: pupil })).status).toBe(400);
  });
});
