import { expect, test, type Page } from '@playwright/test';
import { apiAccount, expectAccessible, loginByApi } from './fixtures.js';

/** Every message the page writes to the console as an error, and every uncaught exception. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** What the page sent by the server holds in `<div id="root">`, before any script has run. */
async function servedRoot(page: Page, path: string, cookie?: string) {
  const res = await page.request.get(path, cookie ? { headers: { cookie } } : {});
  const html = await res.text();
  const open = /<div id="root"(?: data-screen="([^"]*)")?(?: data-shell="([^"]*)")?>/.exec(html)!;
  const rest = html.slice(open.index + open[0].length);
  return open[2] === undefined ? { screen: open[1], html: rest } : { shell: open[2], html: rest };
}

// Decision 117: the home and login screens come in the page for a visitor, and the app takes them over.
test.describe('Écrans pré-rendus pour les visiteurs', () => {
  test('[VISITEUR] l’accueil et la connexion arrivent dans la page, puis l’application les reprend sans erreur', async ({ page }) => {
    const home = await servedRoot(page, '/');
    expect(home.screen).toBe('/');
    expect(home.html).toContain('Bienvenue sur Olympe');
    expect(home.html).toContain('<h1');
    const login = await servedRoot(page, '/login');
    expect(login.screen).toBe('/login');
    expect(login.html).toContain('Connexion');
    expect((await servedRoot(page, '/signup')).screen).toBeUndefined();

    const errors = consoleErrors(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
    // The tutorials open only once the app has taken the screen over: it starts after the screen is painted
    // (decision 118), and a click before then does nothing. The visitor clicks again, as here.
    const tutorial = page.getByText('Cliquez sur le lien reçu par e-mail pour choisir votre mot de passe.');
    await expect(async () => {
      if (!(await tutorial.isVisible())) await page.getByRole('button', { name: 'Créer un compte' }).click();
      await expect(tutorial).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expectAccessible(page, '/ (pré-rendu)');
    // A hydration that failed would have been reported here (React reports the mismatch as an error).
    expect(errors).toEqual([]);
    await page.getByRole('link', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Connexion', level: 1 })).toBeVisible();
    expect(errors).toEqual([]);
    await page.getByLabel(/e-mail/i).fill('personne@e2e.test');
    await page.locator('input[type="password"]').fill('pas-le-bon');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText('Erreur : Identifiants invalides.').last()).toBeVisible();
  });

  test('[ÉLÈVE] tape ses identifiants avant que l’application ne reprenne l’écran : la connexion les prend', async ({ page, request }) => {
    const pupil = await apiAccount(request, 'eleve-avant-hydratation');
    // The app's code is held back until the pupil has typed, as on a slow phone where the page comes first.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByLabel(/e-mail/i);
    await email.fill(pupil.email);
    await page.locator('input[type="password"]').fill('Coupe#2026ok');
    release();
    // Taken over: the show-password button answers only once the app runs.
    const toggle = page.getByRole('button', { name: 'Afficher le mot de passe' });
    await expect(async () => {
      if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
      await expect(toggle).toHaveAttribute('aria-pressed', 'true', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(email).toHaveValue(pupil.email);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('[VISITEUR] sans JavaScript, l’accueil se lit', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
    await expect(page.getByText('Bienvenue sur Olympe, la plateforme')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Se connecter' })).toBeVisible();
    await context.close();
  });

  test('[ÉLÈVE] connecté, sans JavaScript encore, voit le cadre de l’application pendant la connexion', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies([{ name: 'olympe_signed_in', value: '1', url: test.info().project.use.baseURL! }]);
    const page = await context.newPage();
    await page.goto('/profile');
    await expect(page.getByRole('banner').getByText('Olympe')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('status')).toHaveText('Connexion au serveur…');
    await expect(page.getByRole('main').getByRole('status', { name: 'Chargement' })).toBeAttached();
    await expect(page.getByRole('link', { name: 'Se connecter' })).toHaveCount(0);
    await context.close();
  });

  test('[ÉLÈVE] connecté, ne reçoit jamais l’écran d’un visiteur', async ({ page, request }) => {
    const pupil = await apiAccount(request, 'eleve-prerendu');
    const errors = consoleErrors(page);
    // Logged in through the form: the app sets the cookie that keeps the visitor's screen out.
    await page.goto('/login');
    await page.getByLabel(/e-mail/i).fill(pupil.email);
    await page.locator('input[type="password"]').fill('Coupe#2026ok');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const cookies = await page.context().cookies();
    const signedIn = cookies.find((c) => c.name === 'olympe_signed_in');
    expect(signedIn?.value).toBe('1');
    // Decision 120: it gets the frame of a session's pages instead, the same for every user.
    const served = await servedRoot(page, '/', `olympe_signed_in=1`);
    expect(served).toEqual({ shell: 'session', html: expect.stringContaining('Connexion au serveur…') });
    expect(served.html).not.toContain('Bienvenue sur Olympe');
    expect(served.html).not.toContain(pupil.email);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Mon profil' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'S’inscrire' })).toHaveCount(0);

    // A session kept from before the cookie (the token alone): the page's visitor screen is dropped, not shown.
    await page.context().clearCookies();
    await loginByApi(page, pupil.email);
    await page.goto('/login');
    await expect(page.getByRole('link', { name: 'Mon profil' })).toBeVisible();
    expect((await page.context().cookies()).some((c) => c.name === 'olympe_signed_in')).toBe(true);

    // Logging out removes the cookie: the next visitor gets the screens again.
    await page
      .getByRole('button', { name: 'Se déconnecter' })
      .or(page.getByRole('link', { name: 'Se déconnecter' }))
      .click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.context().cookies()).some((c) => c.name === 'olympe_signed_in')).toBe(false);
    expect(errors).toEqual([]);
  });
});
