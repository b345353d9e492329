import { expect, test } from '@playwright/test';
import {
  createAccount,
  expectAccessible,
  expectNotCutAtBothWidths,
  linkFromOutbox,
  loginByApi,
  PASSWORD,
  screenshot,
  unique,
} from './fixtures.js';

test.describe('Fondations', () => {
  test('[ÉLÈVE] s’inscrit, confirme par le lien reçu, se connecte, puis se déconnecte', async ({ page }) => {
    const email = unique('inscription');
    await page.goto('/signup');
    await expectAccessible(page, '/signup');
    await page.getByLabel(/e-mail/i).fill(email);
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await expect(page.getByRole('button', { name: /Renvoyer dans \d+s/ })).toBeDisabled();
    await expectNotCutAtBothWidths(page, '/signup', [['« Renvoyer dans Ns »', page.getByRole('button', { name: /Renvoyer dans \d+s/ })]]);

    const link = await linkFromOutbox(email);
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expectAccessible(page, '/confirm');
    const password = page.locator('input[type="password"]');
    await password.fill('faible');
    let confirmCalls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/confirm')) confirmCalls++;
    });
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect(page.getByText('Le mot de passe ne respecte pas toutes les contraintes.')).toBeVisible();
    await expectAccessible(page, '/confirm (mot de passe trop faible)');
    expect(confirmCalls).toBe(0);
    await password.fill(PASSWORD);
    await page.getByRole('button', { name: 'Continuer' }).click();
    // Logged in at once and taken to the profile (no way back in this link).
    await expect(page).toHaveURL(/\/profile$/);
    expect(confirmCalls).toBe(1);
    await expect(page.getByRole('link', { name: 'Mon profil' })).toBeVisible();

    // Log out, then in again through the form.
    await page
      .getByRole('button', { name: 'Se déconnecter' })
      .or(page.getByRole('link', { name: 'Se déconnecter' }))
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
    await expect(page).toHaveTitle('Connexion — Olympe');
    await expectAccessible(page, '/login');
    await expectNotCutAtBothWidths(page, '/login', [['« Se connecter »', page.getByRole('button', { name: 'Se connecter' })]]);
    await page.getByLabel(/e-mail/i).fill(email);
    await page.locator('input[type="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText('Complétez votre profil pour accéder aux contenus.').first()).toBeVisible();
    await expect(page).toHaveTitle('Mon profil — Olympe');
    await expectAccessible(page, '/profile');
    await page.screenshot({ path: screenshot('profile-incomplete.png'), fullPage: true });
    await page.goto('/donnees-personnelles');
    await expect(page.getByRole('heading', { name: 'Données personnelles', level: 1 })).toBeVisible();
    await expectAccessible(page, '/donnees-personnelles');

    await page
      .getByRole('button', { name: 'Se déconnecter' })
      .or(page.getByRole('link', { name: 'Se déconnecter' }))
      .click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
  });

  test('[VISITEUR] la page d’accueil montre les tutoriels et l’adresse de contact', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Accueil' })).toBeVisible();
    // The first Tab reaches « Aller au contenu »; Enter puts the focus on the page's content.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Aller au contenu' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.screenshot({ path: screenshot('skip-link.png') });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await expect(page).toHaveTitle('Accueil — Olympe');
    await page.getByRole('button', { name: 'Signaler un bug' }).click();
    await expect(page.getByRole('link', { name: 'no-reply@localhost' }).first()).toBeVisible();
    await expectAccessible(page, '/');
    await page.screenshot({ path: screenshot('home.png'), fullPage: true });
  });

  test('[ÉLÈVE] sur téléphone (375 px), le menu s’ouvre en tiroir et se ferme à la navigation et sur le voile', async ({ page }) => {
    const email = unique('mobile');
    await createAccount(page.request, email);
    await page.setViewportSize({ width: 375, height: 740 });
    await loginByApi(page, email);
    await page.goto('/profile');
    // The closed drawer is translated off-screen: "in viewport" is what a pupil sees.
    const home = page.getByRole('navigation').getByRole('link', { name: 'Accueil' });
    await expect(home).not.toBeInViewport();
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(home).toBeInViewport();
    await page.screenshot({ path: screenshot('drawer-open.png') });
    await home.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(home).not.toBeInViewport();

    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(home).toBeInViewport();
    await page.getByTestId('drawer-overlay').click({ position: { x: 360, y: 400 } });
    await expect(home).not.toBeInViewport();
    await expectAccessible(page, '/ (375 px)');
  });

  test('[ÉLÈVE] quand l’API ne répond pas, une notification le dit', async ({ page }) => {
    await page.goto('/login');
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.getByLabel(/e-mail/i).fill('quelquun@e2e.test');
    await page.locator('input[type="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText('Erreur réseau : Le serveur ne répond pas.')).toBeVisible();
    await expectAccessible(page, '/login (erreur réseau)');
  });

  test('[ÉLÈVE] de mauvais identifiants donnent « Erreur : Identifiants invalides. »', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel(/e-mail/i).fill('inconnu@e2e.test');
    await page.locator('input[type="password"]').fill('Mauvais#2026');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText('Erreur : Identifiants invalides.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });
});
