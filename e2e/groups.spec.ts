import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  adminHeaders,
  adminPage,
  createAccount,
  columnHeaders,
  expectAccessible,
  expectNotCutAtBothWidths,
  screenshot,
  tag,
  unique,
} from './fixtures.js';

/** Mixed case the way people type addresses in a spreadsheet: "Membre-A-…@E2E.test". */
const mixedCase = (email: string) => email.replace(/^(\w)/, (c) => c.toUpperCase()).replace('@e2e.test', '@E2E.Test');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One CSV line of quoted fields separated by semicolons (quotes inside doubled). */
function csvFields(line: string): string[] {
  expect(line).toMatch(/^"(?:[^"]|"")*"(?:;"(?:[^"]|"")*")*$/);
  return line
    .slice(1, -1)
    .split('";"')
    .map((f) => f.replaceAll('""', '"'));
}

test.describe('Groupes', () => {
  test('[ADMIN] ajoute trois membres en collant une liste, exporte le CSV, simule un membre et revient', async ({ page, request }) => {
    test.setTimeout(120_000);
    const emails = [unique('membre-a'), unique('membre-b'), unique('membre-c')];
    for (const email of emails) await createAccount(request, email);
    const name = `Atelier ${tag()}`;

    await adminPage(page);
    await page.goto('/groups');
    await expect(page.getByRole('heading', { name: 'Gestion des groupes' })).toBeVisible();
    await expectAccessible(page, '/groups');

    await page.getByRole('button', { name: 'Ajouter un groupe' }).click();
    await page.getByRole('textbox', { name: 'Nom du groupe (nouveau)' }).fill(name);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();
    const membersLink = page.getByRole('link', { name: `Membres du groupe ${name}` });
    await expect(membersLink).toBeVisible();
    await expectAccessible(page, '/groups (groupe ajouté)');
    await expectNotCutAtBothWidths(page, '/groups', [
      ['« Ajouter un groupe »', page.getByRole('button', { name: 'Ajouter un groupe' })],
      ...(await columnHeaders(page.getByRole('table', { name: 'Groupes' }))),
    ]);

    await membersLink.click();
    await expect(page).toHaveURL(/\/users\/[0-9a-f-]{36}$/);
    const groupId = new URL(page.url()).pathname.split('/').pop()!;
    try {
      await expect(page.getByRole('heading', { name: `Gestion du groupe ${name}` })).toBeVisible();
      await expect(page.getByText('0/0 membres')).toBeVisible();
      await expectAccessible(page, '/users/{id} (vide)');

      // Pasted from a spreadsheet: mixed case, a comma, a semicolon and a new line.
      const pasted = `${mixedCase(emails[0])}, ${mixedCase(emails[1])};\n${mixedCase(emails[2])}`;
      await page.getByRole('textbox', { name: 'Liste d’adresses e-mail' }).fill(pasted);
      await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
      await expect(page.getByText('Changements non enregistrés')).toBeVisible();
      await expect(page.getByText(`À ajouter (3) : ${emails.join(', ')}`)).toBeVisible();
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Membres enregistrés : 3 ajouts, 0 retrait.')).toBeVisible();
      await expect(page.getByText('3/3 membres')).toBeVisible();
      const table = page.getByRole('table', { name: `Membres du groupe ${name}` });
      for (const email of emails) await expect(table.getByText(email, { exact: true })).toBeVisible();
      // The notice closes by itself after a few seconds: axe measures the page once it has gone, not halfway
      // through its fade (a contrast no one reads; it flaked there).
      await expect(page.getByText('Membres enregistrés\u00a0: 3 ajouts, 0 retrait.')).toBeHidden({ timeout: 15_000 });
      await expectAccessible(page, '/users/{id}');
      await expectNotCutAtBothWidths(page, '/users/{id}', [
        ['« Ajouter »', page.getByRole('button', { name: 'Ajouter', exact: true })],
        ...(await columnHeaders(table)),
      ]);
      await page.screenshot({ path: screenshot('group-members.png'), fullPage: true });

      // The search narrows the table (and the count).
      await page.getByRole('textbox', { name: 'Rechercher' }).fill(emails[1].toUpperCase());
      await expect(page.getByText('1/3 membres')).toBeVisible();
      await page.getByRole('textbox', { name: 'Rechercher' }).fill('');
      await expect(page.getByText('3/3 membres')).toBeVisible();

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter en CSV' }).click()]);
      expect(download.suggestedFilename()).toBe(`${name}_members.csv`);
      const bytes = readFileSync(await download.path());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(4);
      const [header, ...rows] = lines.map(csvFields);
      expect(header).toHaveLength(16);
      expect(header[3]).toBe('E-mail');
      for (const row of rows) expect(row).toHaveLength(16);
      expect(rows.map((r) => r[3]).sort()).toEqual([...emails].sort());

      // "Simuler": the app runs as that member, a banner offers the way back.
      const member = emails[2];
      await page.getByRole('button', { name: new RegExp(`^Simuler .*\\(${escapeRegExp(member)}\\)$`) }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(page.getByRole('textbox', { name: 'E-mail principal' })).toHaveValue(member);
      const banner = page.getByRole('status').filter({ hasText: 'Simulation en cours' });
      await expect(banner).toContainText(member);
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Groupes' })).toHaveCount(0);
      await expectAccessible(page, '/profile (simulation)');
      await page.screenshot({ path: screenshot('impersonation.png'), fullPage: true });

      await banner.getByRole('button', { name: 'Revenir à mon compte' }).click();
      await expect(page).toHaveURL(/\/groups$/);
      await expect(page.getByRole('heading', { name: 'Gestion des groupes' })).toBeVisible();
      await expect(page.getByText('Simulation en cours')).toHaveCount(0);
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Groupes' })).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('jwt_admin'))).toBeNull();
      await page.goto('/profile');
      await expect(page.getByRole('textbox', { name: 'E-mail principal' })).toHaveValue('admin@e2e.test');
    } finally {
      await request.delete(`/api/group/${groupId}`, { headers: await adminHeaders(request) });
    }
  });
});
