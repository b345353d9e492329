import { expect, test, type Page } from '@playwright/test';
import { adminPage, apiAccount, expectAccessible, loginByApi, pupilProfile } from './fixtures.js';

/**
 * docs/product.md#spec-2 "Institutions map (/map)" and "Profile": the map opens on France (latitude 46,
 * longitude 2.3522, zoom 5) and asks for its markers on move or zoom, debounced 200 ms (spec-9 « Debounces: map
 * 200 ms »; decision 89: one GET /api/institution/in-view per settled view). With the real Leaflet in Chromium:
 * the view is read from the requests the map makes and from its tiles, the moves are real drags and wheel turns.
 */

const IN_VIEW = '/api/institution/in-view';

interface ViewRequest {
  south: number;
  west: number;
  north: number;
  east: number;
  zoom: number;
}

const viewOf = (url: string): ViewRequest => {
  const p = new URL(url).searchParams;
  return {
    south: Number(p.get('south')),
    west: Number(p.get('west')),
    north: Number(p.get('north')),
    east: Number(p.get('east')),
    zoom: Number(p.get('zoom')),
  };
};

/** The centre of a Web Mercator view (what Leaflet's getCenter gives for these bounds). */
function centreOf(v: ViewRequest): { lat: number; lng: number } {
  const y = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
  const mid = (y(v.south) + y(v.north)) / 2;
  return { lat: ((2 * Math.atan(Math.exp(mid)) - Math.PI / 2) * 180) / Math.PI, lng: (v.west + v.east) / 2 };
}

/** The start times (page clock, ms) of the in-view requests the page has made so far. */
const inViewTimes = (page: Page) =>
  page.evaluate(
    (pathPart) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes(pathPart))
        .map((e) => e.startTime),
    IN_VIEW,
  );

/** Waits until no in-view request has started for `quietMs`, counted from `since` (page clock) at the earliest. */
async function settle(page: Page, since = 0, quietMs = 800) {
  await expect
    .poll(
      async () => {
        const times = await inViewTimes(page);
        const now = await page.evaluate(() => performance.now());
        return times.length > 0 && now - Math.max(since, ...times) > quietMs;
      },
      { timeout: 15_000, intervals: [200] },
    )
    .toBe(true);
}

/**
 * A wheel turn, then five drags on the map with Playwright's real mouse, as quickly as the browser allows. Returns
 * when each move ended in the page's clock: the zoom's end (its animation's class leaving the map pane) and each
 * release, as the page saw them, so a loaded machine's round trips do not blur the figures.
 */
async function burst(page: Page): Promise<number[]> {
  const map = page.locator('.leaflet-container');
  const box = (await map.boundingBox())!;
  const x0 = box.x + box.width / 2;
  const y0 = box.y + box.height / 2;
  await map.evaluate((el) => {
    const w = window as unknown as { moveEnds: number[]; watching?: boolean };
    w.moveEnds = [];
    if (w.watching) return;
    w.watching = true;
    const pane = el.querySelector('.leaflet-map-pane')!;
    let animating = false;
    new MutationObserver(() => {
      const now = pane.classList.contains('leaflet-zoom-anim');
      // Leaflet fires zoomend and moveend one frame after the class leaves.
      if (animating && !now) requestAnimationFrame(() => w.moveEnds.push(performance.now()));
      animating = now;
    }).observe(pane, { attributes: true, attributeFilter: ['class'] });
    document.addEventListener('mouseup', () => w.moveEnds.push(performance.now()), true);
  });
  const ends = () => page.evaluate(() => (window as unknown as { moveEnds: number[] }).moveEnds.length);
  // Leaflet gathers wheel turns for 40 ms, then animates the zoom for 250 ms; drags are ignored meanwhile.
  await page.mouse.move(x0, y0);
  await page.mouse.wheel(0, -120);
  await expect.poll(ends, { timeout: 5000, intervals: [20] }).toBe(1);
  for (const [dx, dy] of [
    [60, 0],
    [0, 50],
    [-70, 20],
    [40, -40],
    [30, 30],
  ]) {
    await page.mouse.down();
    await page.mouse.move(x0 + dx, y0 + dy, { steps: 2 });
    // Held still before the release: Leaflet's inertia reads only the last 50 ms of a drag, so the map stops here.
    await page.waitForTimeout(60);
    await page.mouse.up();
    await page.mouse.move(x0, y0);
  }
  return page.evaluate(() => (window as unknown as { moveEnds: number[] }).moveEnds);
}

test('[ADMIN] la carte des établissements s’ouvre sur la France (46, 2,3522, zoom 5) et ne redemande sa vue que 200 ms après un mouvement resté le dernier', async ({
  page,
}) => {
  // Tiles come from the Internet (OpenStreetMap): none here, the map and its requests work without them.
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(IN_VIEW)) requests.push(request.url());
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await adminPage(page);
  await page.addInitScript(() => performance.setResourceTimingBufferSize(10_000));
  await page.goto('/map');
  await expect(page.getByRole('heading', { name: 'Établissements', level: 1 })).toBeVisible();
  const map = page.locator('.leaflet-container');
  await expect(map).toBeVisible();
  await settle(page);

  // The start view: zoom 5 (the request's and the tiles'), centred on 46, 2.3522 (within a pixel at zoom 5).
  expect(requests.length).toBeGreaterThanOrEqual(1);
  const first = viewOf(requests[0]);
  expect(first.zoom).toBe(5);
  const centre = centreOf(first);
  expect(Math.abs(centre.lat - 46)).toBeLessThan(0.1);
  expect(Math.abs(centre.lng - 2.3522)).toBeLessThan(0.1);
  const tileZooms = await page
    .locator('.leaflet-tile')
    .evaluateAll((tiles) => [...new Set(tiles.map((t) => /\/(\d+)\/\d+\/\d+\.png/.exec((t as HTMLImageElement).src)?.[1]))]);
  expect(tileZooms).toEqual(['5']);
  // The settled view is as wide as the map at zoom 5: 256 × 2⁵ pixels for 360°.
  const settled = viewOf(requests[requests.length - 1]);
  const mapWidth = await map.evaluate((el) => el.clientWidth);
  expect(Math.abs((settled.east - settled.west) * ((256 * 2 ** 5) / 360) - mapWidth)).toBeLessThan(2);
  expect(centreOf(settled).lng).toBeCloseTo(2.3522, 1);

  // Six moves: a wheel turn, then five drags (each held still before release, so no inertia: the map stops at the
  // release), as quickly as the browser allows, in the page's own clock. The 200 ms debounce is judged on the
  // spacing the machine gave. Leaflet ends a move a frame or more after the release (up to ~70 ms on a loaded
  // machine), so a pause of about 200 ms between releases may or may not let a request through. Always: exactly
  // one request after the last move, 200 ms after its release or later, and never more requests than moves. When
  // every pause is under 160 ms, that one request is the only one.
  const zoomBefore = viewOf(requests[requests.length - 1]).zoom;
  const before = (await inViewTimes(page)).length;
  const moves = await burst(page);
  await settle(page, moves[moves.length - 1]);
  const after = (await inViewTimes(page)).slice(before);
  const gaps = moves.slice(1).map((t, i) => Math.round(t - moves[i]));
  const last = moves[moves.length - 1];
  const seen = `écarts ${gaps.join(', ')} ms, requêtes à ${after.map((t) => Math.round(t - last)).join(', ')} ms du dernier mouvement`;
  test.info().annotations.push({ type: 'mesures', description: seen });
  const afterLast = after.filter((t) => t >= last);
  expect(afterLast, seen).toHaveLength(1);
  expect(afterLast[0] - last, seen).toBeGreaterThanOrEqual(195);
  expect(afterLast[0] - last, seen).toBeLessThan(1500);
  expect(after.length, seen).toBeLessThanOrEqual(moves.length);
  if (Math.max(...gaps) < 160) expect(after, seen).toHaveLength(1);
  // The last request is for the view the moves ended on: zoomed in by the wheel (Leaflet snaps a turn to whole levels).
  expect(viewOf(requests[requests.length - 1]).zoom).toBeGreaterThan(zoomBefore);

  await expectAccessible(page, '/map (après déplacements)');
});

test('[ÉLÈVE] la carte du profil d’un élève sans établissement s’ouvre sur la France (46, 2,3522, zoom 5)', async ({ page, request }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(IN_VIEW)) requests.push(r.url());
  });
  // A new account: no school chosen yet, so no school to open the map on (decision 89).
  const pupil = await apiAccount(request, 'eleve-carte', { firstName: 'Alice', lastName: 'Guy' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginByApi(page, pupil.email);
  await page.goto('/profile');
  // Below the form: it comes as the pupil scrolls to it (decision 122).
  await page.getByRole('button', { name: 'Enregistrer' }).scrollIntoViewIfNeeded();
  await expect(page.locator('.leaflet-container')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
  const first = viewOf(requests[0]);
  expect(new URL(requests[0]).searchParams.get('map')).toBe('profile');
  expect(first.zoom).toBe(5);
  const centre = centreOf(first);
  expect(Math.abs(centre.lat - 46)).toBeLessThan(0.1);
  expect(Math.abs(centre.lng - 2.3522)).toBeLessThan(0.1);
  await expectAccessible(page, '/profile (carte sur la France)', { labelInName: true });
});

test('[ÉLÈVE] sur un téléphone, la carte du profil, son code et ses établissements ne viennent que quand elle approche de l’écran', async ({
  page,
  request,
}) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(IN_VIEW) || /\/assets\/school-map-[^/]+\.js$/.test(r.url())) requests.push(r.url());
  });
  // A complete profile: the shortest page, the map nearest to the first screen.
  const pupil = await apiAccount(request, 'eleve-telephone', pupilProfile({ firstName: 'Alice', lastName: 'Guy' }));
  // A tall phone (Lighthouse's Moto G Power is 412 × 823): the map still waits for the scroll.
  await page.setViewportSize({ width: 412, height: 823 });
  await loginByApi(page, pupil.email);
  await page.goto('/profile');
  await expect(page.getByRole('button', { name: 'Enregistrer' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Decision 121: two screens below, nothing of the map is asked for, and nothing says it is loading.
  expect(requests).toEqual([]);
  await expect(page.locator('.leaflet-container')).toHaveCount(0);
  await expect(page.getByText('Chargement des établissements…')).toHaveCount(0);
  await page.getByRole('button', { name: 'Enregistrer' }).scrollIntoViewIfNeeded();
  await expect(page.locator('.leaflet-container')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => requests.some((u) => u.includes(IN_VIEW)), { timeout: 10_000 }).toBe(true);
  expect(requests.some((u) => u.includes('/assets/school-map-'))).toBe(true);
  await expectAccessible(page, '/profile (téléphone, carte atteinte)', { labelInName: true });
});
