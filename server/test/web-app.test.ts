import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderVisitorScreens, serveWebApp } from '../src/web-app.js';

/** A built web app as web/vite-first-load.ts leaves it: index.html, route-chunks.json, assets with .br/.gz. */
function fakeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'olympe-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-a.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(
    path.join(dist, 'route-chunks.json'),
    JSON.stringify({
      '/': ['/assets/home-a.js'],
      '/chapter/:id': ['/assets/chapter-a.js', '/assets/math-a.js', '/assets/chapter-a.css'],
      '/viewer/*': ['/assets/viewer-a.js'],
      '/*': ['/assets/not-found-a.js'],
    }),
  );
  const code = `export const x = ${JSON.stringify('x'.repeat(4000))};`;
  writeFileSync(path.join(dist, 'assets/index-a.js'), code);
  writeFileSync(path.join(dist, 'assets/index-a.js.br'), brotliCompressSync(code));
  // The server bundle of web/src/prerender.tsx, as `vite build --ssr` leaves it (decision 117).
  mkdirSync(path.join(dist, 'ssr'));
  writeFileSync(
    path.join(dist, 'ssr/prerender.js'),
    `export const PRERENDERED_PATHS = ['/', '/login'];
     const rendered = new Set();
     export async function renderScreen(path, config) {
       const first = !rendered.has(path);
       rendered.add(path);
       return '<main>' + (first ? 'first render of ' : 'screen of ') + path + ' for ' + config.contactEmail + '</main>';
     }
     let shells = 0;
     export async function renderSessionShell(config) {
       shells++;
       return '<nav>' + (shells === 1 ? 'first render of ' : '') + 'Connexion au serveur… for ' + config.contactEmail + '</nav>';
     }`,
  );
  return dist;
}

/** The HTML inside `<div id="root">`, the path it says it is the screen of, or the session's frame it carries. */
function root(html: string) {
  const m = /<div id="root"(?: data-screen="([^"]*)")?(?: data-shell="([^"]*)")?>(.*?)<\/div><\/body>/.exec(html)!;
  return m[2] === undefined ? { screen: m[1], html: m[3] } : { shell: m[2], html: m[3] };
}
const sessionShell = { shell: 'session', html: '<nav>Connexion au serveur… for contact@olympe.test</nav>' };

const publicConfig = { contactEmail: 'contact@olympe.test', tileUrl: 'https://tile.test/{z}/{x}/{y}.png', geocoder: false, maxScanMb: 200 };

describe('the web app served by the server (decision 96)', () => {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(compress, { threshold: 2048 });
    await serveWebApp(app, fakeDist(), publicConfig);
  });
  afterAll(() => app.close());

  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
  const stylesheets = (html: string) => [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
  const scripts = (html: string) => [...html.matchAll(/<script type="module" crossorigin src="([^"]+)">/g)].map((m) => m[1]);
  /** The app's script and preloads held back until the screen is painted (decision 118), as web/public/boot.js finds them. */
  const parked = (html: string) => ({
    scripts: [...html.matchAll(/<script type="olympe\/after-first-paint" crossorigin src="([^"]+)">/g)].map((m) => m[1]),
    preloads: [...html.matchAll(/<link rel="olympe-after-first-paint" crossorigin href="([^"]+)">/g)].map((m) => m[1]),
  });

  /** The app's script and preloads asked for after the stylesheets (decision 127). */
  const lowPriority = (html: string) => ({
    scripts: [...html.matchAll(/<script type="module" fetchpriority="low" crossorigin src="([^"]+)">/g)].map((m) => m[1]),
    preloads: [...html.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)">/g)].map((m) => m[1]),
  });

  it('writes the public config into every page, never cached', async () => {
    for (const url of ['/', '/login', '/chapter/c1', '/nowhere']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toContain('text/html');
      const meta = /<meta name="olympe-config" content="([^"]+)">/.exec(res.body)![1];
      expect(JSON.parse(meta.replace(/&quot;/g, '"').replace(/&amp;/g, '&'))).toEqual(publicConfig);
    }
  });

  it('answers HEAD on a page as GET, without a body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toBe('');
  });

  it('preloads the chunks of the requested screen only', async () => {
    expect(parked((await app.inject({ url: '/' })).body).preloads).toEqual(['/assets/home-a.js']);
    const chapter = (await app.inject({ url: '/chapter/c1?x=1' })).body;
    expect(preloads(chapter)).toEqual(['/assets/chapter-a.js', '/assets/math-a.js']);
    // Its stylesheet is linked as Vite's loader would link it, which then finds it there (decision 119).
    expect(stylesheets(chapter)).toEqual(['/assets/chapter-a.css']);
    expect(preloads((await app.inject({ url: '/viewer/pdfs/2025/a.pdf' })).body)).toEqual(['/assets/viewer-a.js']);
    // A screen with a role (not in route-chunks.json) falls to the catch-all: its own code is never announced.
    expect(preloads((await app.inject({ url: '/groups' })).body)).toEqual(['/assets/not-found-a.js']);
  });

  it('sends the pre-built Brotli file of an asset as it is', async () => {
    const res = await app.inject({ url: '/assets/index-a.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('export const x');
  });

  it('puts the visitor screen of its exact path in the page, from the second render (decision 117)', async () => {
    for (const url of ['/', '/login', '/login/', '/login?next=%2Fprofile']) {
      const res = await app.inject({ url });
      expect(res.headers.vary).toContain('Cookie');
      const expected = url === '/' ? '/' : '/login';
      expect(root(res.body)).toEqual({ screen: expected, html: `<main>screen of ${expected} for contact@olympe.test</main>` });
    }
    for (const url of ['/profile', '/chapter/c1', '/signup', '/login/x', '/nowhere']) {
      expect(root((await app.inject({ url })).body)).toEqual({ screen: undefined, html: '' });
    }
  });

  it('holds the app back until the screen is painted, on a page that carries one only (decision 118)', async () => {
    for (const url of ['/', '/login']) {
      const page = (await app.inject({ url })).body;
      expect(scripts(page)).toEqual([]);
      expect(preloads(page)).toEqual([]);
      expect(parked(page).scripts).toEqual(['/assets/index-a.js']);
    }
    for (const request of [{ url: '/chapter/c1' }, { url: '/nowhere' }]) {
      const page = (await app.inject(request)).body;
      expect(scripts(page)).toEqual(['/assets/index-a.js']);
      expect(lowPriority(page)).toEqual({ scripts: [], preloads: [] });
      expect(parked(page)).toEqual({ scripts: [], preloads: [] });
    }
  });

  it('never sends a visitor screen to a browser that keeps a session: it gets the session’s frame (decision 120)', async () => {
    for (const cookie of ['olympe_signed_in=1', 'theme=x; olympe_signed_in=1', 'olympe_signed_in=1; other=2']) {
      expect(root((await app.inject({ url: '/', headers: { cookie } })).body)).toEqual(sessionShell);
    }
    for (const url of ['/login', '/profile', '/chapter/c1', '/nowhere']) {
      const page = (await app.inject({ url, headers: { cookie: 'olympe_signed_in=1' } })).body;
      expect(root(page)).toEqual(sessionShell);
      // Its script is not held back, but asked for after the frame's stylesheet (decision 127).
      expect(parked(page)).toEqual({ scripts: [], preloads: [] });
      const chapter = url === '/chapter/c1';
      expect(lowPriority(page)).toEqual({
        scripts: ['/assets/index-a.js'],
        preloads: chapter ? ['/assets/chapter-a.js', '/assets/math-a.js'] : ['/assets/not-found-a.js'],
      });
      expect(scripts(page)).toEqual([]);
      // The stylesheets keep their rank: the frame is painted with them.
      expect(stylesheets(page)).toEqual(chapter ? ['/assets/chapter-a.css'] : []);
    }
    expect(root((await app.inject({ url: '/chapter/c1' })).body)).toEqual({ screen: undefined, html: '' });
    // Another cookie of a similar name is not that one.
    expect(root((await app.inject({ url: '/', headers: { cookie: 'x_olympe_signed_in=1' } })).body).screen).toBe('/');
  });

  it('does not serve the server bundle as a file', async () => {
    const res = await app.inject({ url: '/ssr/prerender.js' });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).not.toContain('PRERENDERED_PATHS');
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const res = await app.inject({ url: '/api/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Adresse inconnue.', code: 'not_found' });
  });
});

describe('the visitor screens rendered at start (decision 117)', () => {
  it('are left out, with a warning, when the bundle fails: the pages are sent as before', async () => {
    const dist = fakeDist();
    writeFileSync(
      path.join(dist, 'ssr/prerender.js'),
      `export const PRERENDERED_PATHS = ['/', '/login'];
      export async function renderScreen(path) { if (path === '/login') throw new Error('window is not defined'); return '<main>x</main>'; }`,
    );
    const warnings: string[] = [];
    const screens = await renderVisitorScreens(dist, publicConfig, (message) => warnings.push(message));
    expect(screens.size).toBe(0);
    expect(warnings).toEqual(['Pages sans écran pré-rendu : window is not defined']);
  });

  it('are none without the bundle (a build without it)', async () => {
    const dist = fakeDist();
    rmSync(path.join(dist, 'ssr'), { recursive: true });
    expect((await renderVisitorScreens(dist, publicConfig, () => {})).size).toBe(0);
  });
});
