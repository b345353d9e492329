import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
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
      const eml = readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
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
  const res = await request.post('/api/auth/register', { data: { email } });
  expect(res.ok()).toBe(true);
  const token = new URL(await linkFromOutbox(email)).searchParams.get('token');
  const confirm = await request.post('/api/auth/confirm', { data: { token, password: PASSWORD } });
  expect(confirm.ok()).toBe(true);
}

/** Logs in through the API and stores the token where the app expects it. */
export async function loginByApi(page: Page, email: string, password = PASSWORD): Promise<void> {
  const res = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok()).toBe(true);
  const { token } = await res.json();
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('jwt', t), token);
}

/** axe on the current page: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${label}: ${v.id} — ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.test`;

/** Where journey screenshots go (under e2e output, never committed). */
export const screenshot = (name: string) => path.join(import.meta.dirname, 'output/screens', name);
