/**
 * What lighthouse.ts and main-thread.ts share: the builds measured (this checkout and LH_BASELINE's), their demo
 * servers, the four pages and the demo pupil who logged in earlier.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const root = path.resolve(import.meta.dirname, '../../..');
export const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const pupil = { email: 'eleve@olympe.demo', password: 'Olympe#2026' };

export interface Build {
  name: string;
  checkout: string;
  port: number;
  server?: ChildProcess;
  token?: string;
  chapterId?: string;
}

export const builds: Build[] = [{ name: 'branch', checkout: root, port: 4391 }];
if (process.env.LH_BASELINE) builds.push({ name: 'baseline', checkout: path.resolve(process.env.LH_BASELINE), port: 4392 });

/** The demo server of a checkout (its own code and its own web/dist) on a fresh data dir. */
export async function startServer(build: Build): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `olympe-lh-${build.name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/demo.ts'], {
    cwd: build.checkout,
    env: { ...process.env, PORT: String(build.port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: path.join(build.checkout, 'web/dist') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  build.server = child;
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('est prêt')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${build.name}: the demo server exited (${code})\n${out}`)));
  });
  const base = `http://127.0.0.1:${build.port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(pupil),
  });
  build.token = ((await login.json()) as { token: string }).token;
  const chapters = await fetch(`${base}/api/chapter`, { headers: { authorization: `Bearer ${build.token}` } });
  build.chapterId = ((await chapters.json()) as { _id: string }[])[0]._id;
}

export const pages: { name: string; path: (b: Build) => string; pupil: boolean }[] = [
  { name: 'home', path: () => '/', pupil: false },
  { name: 'login', path: () => '/login', pupil: false },
  { name: 'profile', path: () => '/profile', pupil: true },
  { name: 'chapter', path: (b) => `/chapter/${b.chapterId}`, pupil: true },
];
const only = process.env.LH_PAGES?.split(',');
export const chosen = pages.filter((p) => !only || only.includes(p.name));

export type PageToMeasure = (typeof pages)[number];

/**
 * A pupil who logged in before: the token is in localStorage (web/src/session/token.ts, key `jwt`), and the
 * cookie that says so to the server is set, as the login sets it (markSignedIn, decision 117).
 */
export async function signIn(tab: Page, build: Build): Promise<void> {
  const base = `http://localhost:${build.port}`;
  await tab.goto(`${base}/api/health`);
  await tab.evaluate((token) => {
    localStorage.setItem('jwt', token);
    document.cookie = 'olympe_signed_in=1; Max-Age=31536000; Path=/; SameSite=Lax';
  }, build.token!);
}

/** Debian's Chromium on a fresh profile (no cache, no service worker); `close` also removes the profile. */
export async function freshBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'olympe-lh-profile-'));
  const browser = await puppeteer.launch({
    executablePath: chromium,
    userDataDir: profile,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
