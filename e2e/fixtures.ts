import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults, default as Axe, RunOptions } from 'axe-core';
import { expect, type APIRequestContext, type APIResponse, type Locator, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { E2E_DATA_DIR } from './playwright.config.js';

export const PASSWORD = 'Coupe#2026ok';

/** The confirm link of the latest mail written to the outbox for an address. */
export async function linkFromOutbox(email: string): Promise<string> {
  const outbox = path.join(E2E_DATA_DIR, 'outbox');
  for (let i = 0; i < 50; i++) {
    const files = readdirSync(outbox, { withFileTypes: true })
      .filter((f) => f.name.endsWith('.eml'))
      .map((f) => f.name)
      .sort()
      .reverse();
    for (const f of files) {
      const eml = readFileSync(path.join(outbox, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (eml.includes(`To: ${email}`)) {
        const link = /https?:\/\/[^\s"<]+\/confirm\?token=[A-Za-z0-9_-]+/.exec(eml)?.[0];
        if (link) return link;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail for ${email} in ${outbox}`);
}

/** Creates an account with a password through the API (sign-up + link), as e2e fixtures should. */
export async function createAccount(request: APIRequestContext, email: string): Promise<void> {
  // Each account signs up from its own household's address, as behind the reverse proxy the server trusts
  // (TRUST_PROXY=loopback): the whole suite's sign-ups would pass one address's limit (decision 37).
  const headers = { 'X-Forwarded-For': `192.0.2.${1 + Math.floor(Math.random() * 254)}` };
  const res = await request.post('/api/auth/register', { data: { email }, headers });
  expect(res.ok()).toBe(true);
  const token = new URL(await linkFromOutbox(email)).searchParams.get('token');
  const confirm = await request.post('/api/auth/confirm', { data: { token, password: PASSWORD }, headers });
  expect(confirm.ok()).toBe(true);
}

/** Logs in through the API and stores the token where the app expects it. */
export async function loginByApi(page: Page, email: string, password = PASSWORD): Promise<void> {
  const res = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok()).toBe(true);
  const { token, refreshToken } = (await res.json()) as { token: string; refreshToken: string };
  await page.goto('/');
  await storeSession(page, { token, refreshToken });
}

/** Where the app keeps a session (web/src/session/token.ts): the 15-minute token and its refresh token (decision 136). */
async function storeSession(page: Page, session: { token: string; refreshToken: string }): Promise<void> {
  await page.evaluate((s) => {
    localStorage.setItem('jwt', s.token);
    localStorage.setItem('jwt_refresh', s.refreshToken);
  }, session);
}

/**
 * axe on the current page at desktop (1280 px) and phone (375 px) width: no serious or critical violation
 * at either. The width the page is already in is checked first, then the other one, and the page is given
 * back its own size. `labelInName` adds axe's experimental label-content-name-mismatch rule (WCAG 2.5.3,
 * off by default), for pages already brought in line with it; the others still name controls by an
 * aria-label that drops their visible text.
 */
export async function expectAccessible(page: Page, label: string, options: { labelInName?: boolean } = {}): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  const widths = [1280, 375].sort((a, b) => Number(b === size.width) - Number(a === size.width));
  const bad: string[] = [];
  for (const width of widths) {
    if (width !== size.width) await page.setViewportSize({ width, height: size.height });
    bad.push(...(await seriousViolations(page, `${label} (${width} px)`, options)));
  }
  await restoreViewport(page, size);
  expect(bad).toEqual([]);
}

/**
 * Gives the page its width back and waits for the layout to get there: at 1280 px the sidebar slides in again
 * (a 200 ms transition) and the map pans as its container widens. A click right after would aim at a marker still
 * moving: in one CI run it landed on the map beside the cluster it aimed at, and the zoom never came.
 */
async function restoreViewport(page: Page, size: { width: number; height: number }): Promise<void> {
  if (page.viewportSize()?.width === size.width) return;
  await page.setViewportSize(size);
  await settled(page);
}

/** Waits for the page's finite animations and transitions to end (a loader's endless spin is left alone). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
}

/** axe-core's own script, evaluated in a page once per document (see axeViolations). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core run in the page, put there once per document. @axe-core/playwright evaluated its 550 kB script twice at
 * every check, then opened a blank page to finish the run in: 2.2–2.8 s a check on the demo's /chapters on the 2-core
 * machine, against 0.2–0.3 s for the same `axe.run` here, about 45 % of the journeys' time. The app has no frame, so
 * axe's frame messaging (the reason for the blank page) has nothing to cross.
 */
async function axeViolations(page: Page, options: RunOptions): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async (runOptions) => (await (window as unknown as { axe: typeof Axe }).axe.run(document, runOptions)).violations,
    options,
  );
}

async function seriousViolations(page: Page, label: string, options: { labelInName?: boolean }): Promise<string[]> {
  // Only the violations are collected: the passes and the rules that do not apply would be computed for nothing.
  const runOptions: RunOptions = {
    resultTypes: ['violations'],
    ...(options.labelInName ? { rules: { 'label-content-name-mismatch': { enabled: true } } } : {}),
  };
  const serious = async () => {
    // A dialog still fading in has its colours mixed with the page behind: axe would measure a contrast no one sees.
    await settled(page);
    return (await axeViolations(page, runOptions))
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} — ${v.help} (${n.target.join(' ')})`));
  };
  const found = await serious();
  if (found.length === 0) return [];
  // Checked again once the page is still: a notification that began to fade out while axe ran (it closes itself
  // after a few seconds) was measured half transparent. A violation of the page itself is there both times.
  const again = new Set(await serious());
  return found.filter((violation) => again.has(violation)).map((violation) => `${label}: ${violation}`);
}

/**
 * Fails when a listed label is cut: its content is wider than its box (scrollWidth > clientWidth),
 * as a nowrap button label or a table pushed behind a scrollbar is. Each target is [what, element].
 */
export async function expectNotCut(label: string, targets: Array<[string, Locator]>): Promise<void> {
  // Measured again until it holds, for 5 s at most: right after a change of window size a loaded machine can still
  // be laying the page out (one CI run read the pupil's field at 46 px for a moment; settled, it is 307 px at
  // 375 px). A label that stays cut still fails, with what was cut.
  await expect.poll(() => cutLabels(targets), { message: label, timeout: 5_000 }).toEqual([]);
}

async function cutLabels(targets: Array<[string, Locator]>): Promise<string[]> {
  const cut: string[] = [];
  for (const [what, element] of targets) {
    // The element, and any box inside it that hides what overflows (a cell's text clamped to two lines is cut
    // downwards, not sideways), unless the box gives its whole text on hover and focus (a title: decision 141 lets a
    // long title be cut so). One pixel of rounding between the two sizes is not a cut.
    const found = await element.evaluate((el) => {
      for (const box of [el, ...el.querySelectorAll('*')]) {
        const hides = box === el || getComputedStyle(box).overflow !== 'visible';
        if (!hides || (box !== el && box.getAttribute('title'))) continue;
        // Text only for screen readers (VisuallyHidden: a 1 px box) is not meant to be seen, so not cut.
        if (box !== el && box.clientWidth <= 1 && box.clientHeight <= 1) continue;
        if (box.scrollWidth > box.clientWidth + 1) return `${box.scrollWidth} px de contenu dans ${box.clientWidth} px`;
        if (box !== el && box.scrollHeight > box.clientHeight + 1) return `${box.scrollHeight} px de haut dans ${box.clientHeight} px`;
      }
      return null;
    });
    if (found) cut.push(`${what} : ${found}`);
  }
  return cut;
}

/**
 * expectNotCut at 1280 px and at 375 px (the two widths), the width the page is in first; the page is
 * given back its own size. `label` names the page; the width is added.
 */
export async function expectNotCutAtBothWidths(page: Page, label: string, targets: Array<[string, Locator]>): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  const widths = [1280, 375].sort((a, b) => Number(b === size.width) - Number(a === size.width));
  for (const width of widths) {
    if (width !== size.width) await page.setViewportSize({ width, height: size.height });
    // Measured once the layout has moved to the new width (the sidebar slides into its drawer).
    await settled(page);
    await expectNotCut(`${label} à ${width} px`, targets);
  }
  await restoreViewport(page, size);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `limit` presses. */
export async function tabTo(page: Page, target: Locator, { back = false, limit = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) {
      await expectFocusVisible(page);
      return;
    }
  }
  throw new Error(`${await target.evaluate((el) => el.outerHTML.slice(0, 120))} not reached in ${limit} Tab presses`);
}

/** The focused element is drawn with a focus indicator: an outline, or a ring (box-shadow), of its own or its label's. */
export async function expectFocusVisible(page: Page): Promise<void> {
  const indicator = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing focused';
    for (const box of [el, el.closest('label'), el.parentElement].filter((b): b is HTMLElement => b !== null)) {
      const style = getComputedStyle(box);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      if (outline || style.boxShadow !== 'none') return 'visible';
    }
    return `no focus indicator on ${el.outerHTML.slice(0, 120)}`;
  });
  expect(indicator).toBe('visible');
}

/** Each column header of a table as a cut-label target, named by its text. */
export async function columnHeaders(table: Locator): Promise<Array<[string, Locator]>> {
  const cells = await table.getByRole('columnheader').all();
  return Promise.all(cells.map(async (cell): Promise<[string, Locator]> => [`colonne « ${(await cell.innerText()).trim()} »`, cell]));
}

export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.test`;

/** Where journey screenshots go (under e2e output, never committed). */
export const screenshot = (name: string) => path.join(import.meta.dirname, 'output/screens', name);

export const ADMIN_EMAIL = 'admin@e2e.test';
let adminSession: { token: string; refreshToken: string; at: number } | undefined;

/**
 * The start-up admin (ADMIN_EMAIL) with PASSWORD: confirms the link written to the outbox at start
 * the first time, then logs in. The session is kept for the worker (login is rate-limited per e-mail);
 * its 15-minute token is refreshed after 10 minutes (decision 136).
 */
export async function ensureAdmin(request: APIRequestContext): Promise<string> {
  return (await ensureAdminSession(request)).token;
}

async function ensureAdminSession(request: APIRequestContext): Promise<{ token: string; refreshToken: string }> {
  if (adminSession && Date.now() - adminSession.at < 10 * 60_000) return adminSession;
  if (adminSession) {
    const renewed = await request.post('/api/auth/refresh', { data: { refreshToken: adminSession.refreshToken } });
    expect(renewed.ok(), await renewed.text()).toBe(true);
    adminSession = { ...((await renewed.json()) as { token: string; refreshToken: string }), at: Date.now() };
    return adminSession;
  }
  let res = await request.post('/api/auth/login', { data: { email: ADMIN_EMAIL, password: PASSWORD } });
  if (res.status() === 401) {
    const token = new URL(await linkFromOutbox(ADMIN_EMAIL)).searchParams.get('token');
    // Journeys run in two workers: the other one may have confirmed the link first, then the login works.
    await request.post('/api/auth/confirm', { data: { token, password: PASSWORD } });
    res = await request.post('/api/auth/login', { data: { email: ADMIN_EMAIL, password: PASSWORD } });
  }
  expect(res.ok(), await res.text()).toBe(true);
  adminSession = { ...((await res.json()) as { token: string; refreshToken: string }), at: Date.now() };
  return adminSession;
}

/** Headers of an API call as the admin. */
export async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${await ensureAdmin(request)}` };
}

/** Logs the page in as the admin (API login, token stored where the app expects it). */
export async function adminPage(page: Page): Promise<void> {
  const session = await ensureAdminSession(page.request);
  await page.goto('/');
  await storeSession(page, session);
}

/** The token the page is logged in with (after loginByApi or adminPage). */
export async function pageToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  expect(token).toBeTruthy();
  return token!;
}

/** A short unique tag for names of e2e data (groups, chapters, schools). */
export const tag = () => `${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`;

/** Fixed ids created by the first migrations (server/src/db/schema.ts). */
export const TEACHERS_GROUP_ID = '00000000-0000-4000-8000-000000000001';
export const MEMBERS_GROUP_ID = '00000000-0000-4000-8000-000000000002';
export const HOME_SCHOOLING_ID = '00000000-0000-4000-8000-000000000010';

/** The JSON body of an API answer that must succeed; the failure names the call and the server's answer. */
export async function ok<T = any>(res: APIResponse): Promise<T> {
  expect(res.ok(), `${res.url()} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** A complete pupil profile (docs/product.md#spec-5) for API set-up, at home schooling unless told otherwise. */
export const pupilProfile = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  birthDate: '2010-05-04',
  gender: 'female',
  grade: '3eme',
  defaultChoice: 'local',
  emailParent: 'parent@e2e.test',
  institution: HOME_SCHOOLING_ID,
  ...fields,
});

/**
 * A confirmed account logged in through the API, its profile set to `profile`; `extraHeaders` go
 * with every later call of the returned `headers` (e.g. X-Forwarded-For).
 */
export async function apiAccount(
  request: APIRequestContext,
  prefix: string,
  profile: Record<string, unknown> = {},
  extraHeaders: Record<string, string> = {},
) {
  const email = unique(prefix);
  await createAccount(request, email);
  const { token } = await ok<{ token: string }>(await request.post('/api/auth/login', { data: { email, password: PASSWORD } }));
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...extraHeaders };
  const me = await ok<{ _id: string }>(await request.put('/api/auth/me', { headers, data: profile }));
  return { email, token, headers, id: me._id };
}

/** Adds an e-mail to a group without removing the members other journeys put there. */
export async function addToGroup(request: APIRequestContext, admin: Record<string, string>, groupId: string, email: string) {
  const group = await ok<{ members: Array<{ email: string }> }>(await request.get(`/api/group/${groupId}`, { headers: admin }));
  const members = [...new Set([...group.members.map((m) => m.email), email])];
  await ok(await request.patch(`/api/group/${groupId}`, { headers: admin, data: { members } }));
}

/** A one-page PDF with a line of text. */
export async function smallPdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText(text, { x: 30, y: 100, size: 18, font });
  return Buffer.from(await doc.save());
}
