import { expect, test, type Page } from '@playwright/test';
import { adminHeaders, adminPage, apiAccount, expectAccessible, loginByApi, ok, screenshot, tag } from './fixtures.js';

/**
 * docs/product.md#spec-2 "Profile" and "Institutions map (/map)": a school picked from the search's list is shown
 * on the map, which goes to it. Decision 152: the map was left empty (« 0 établissement affiché ») after that pick.
 */

async function pickFromSearch(page: Page, words: string, name: string) {
  await page.getByRole('searchbox', { name: 'Rechercher un établissement' }).fill(words);
  await page
    .getByRole('list', { name: 'Résultats de la recherche' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();
}

/** The picked school is on the map, as a marker, and the page says one school is shown. */
async function expectShown(page: Page, name: string) {
  const map = page.getByRole('region', { name: 'Carte des établissements' });
  await map.scrollIntoViewIfNeeded();
  await expect(map.getByRole('button', { name, exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/^\d+ établissements? affichés? sur la carte\.$/)).not.toHaveText(/^0 /);
}

for (const width of [375, 1280]) {
  test.describe(`Choisir un établissement dans la recherche (${width} px)`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('[ÉLÈVE] le collège choisi dans la liste apparaît sur la carte du profil', async ({ page, request }) => {
      const headers = await adminHeaders(request);
      const name = `Collège Pasteur ${tag()}`;
      // Far from any other journey's school: the map's view around it holds this one only.
      const school = await ok(
        await request.post('/api/institution', {
          headers,
          data: { name, address: '3 rue du Port, 29200 Brest', latitude: 48.3904, longitude: -4.4861, confirmed: true },
        }),
      );
      const pupil = await apiAccount(request, 'picker', {});
      try {
        await loginByApi(page, pupil.email);
        await page.goto('/profile');
        await expect(page.getByRole('heading', { name: 'Mon profil' })).toBeVisible();
        // The pupil looks at the map first (France), then searches.
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        await expect(page.getByText(/sur la carte\.$|dans la zone affichée/)).toBeVisible({ timeout: 15_000 });
        await pickFromSearch(page, name, name);
        await expect(page.getByRole('textbox', { name: 'Établissement', exact: true })).toHaveValue(name);
        await expectShown(page, name);
        await page.screenshot({ path: screenshot(`profile-picked-${width}.png`), fullPage: false });
        await expectAccessible(page, '/profile (collège choisi)');
      } finally {
        await request.delete(`/api/institution/${school.institution._id}`, { headers });
      }
    });

    test('[ADMIN] l’établissement choisi dans la liste apparaît sur la carte des établissements', async ({ page, request }) => {
      const headers = await adminHeaders(request);
      const name = `Lycée Kerichen ${tag()}`;
      const school = await ok(
        await request.post('/api/institution', {
          headers,
          data: { name, address: '1 rue Kerichen, 29200 Brest', latitude: 48.4012, longitude: -4.479, confirmed: true },
        }),
      );
      try {
        await adminPage(page);
        await page.goto('/map');
        await expect(page.getByRole('heading', { name: 'Établissements', level: 1 })).toBeVisible();
        await pickFromSearch(page, name, name);
        await expect(page.getByRole('heading', { name: 'Établissement sélectionné' })).toBeVisible();
        await expectShown(page, name);
        await page.screenshot({ path: screenshot(`map-picked-${width}.png`), fullPage: false });
      } finally {
        await request.delete(`/api/institution/${school.institution._id}`, { headers });
      }
    });
  });
}
