import { expect, test } from '@playwright/test';
import { expectAccessible } from './fixtures.js';

// The accessibility check every journey relies on must itself be able to fail (decision 124).
test.describe('Vérification d’accessibilité des parcours', () => {
  test('échoue sur un contraste insuffisant et un bouton sans nom, passe sur la même page corrigée', async ({ page }) => {
    await page.goto('/api/health');
    const html = (colour: string, button: string) =>
      `<!doctype html><html lang="fr"><head><title>Essai</title></head><body><main><h1>Essai</h1>` +
      `<p style="color:${colour};background:#fff">Texte de la page</p><button>${button}</button></main></body></html>`;
    await page.setContent(html('#ccc', ''));
    const failure = await expectAccessible(page, 'page fautive').then(
      () => null,
      (err: Error) => err.message,
    );
    expect(failure).toContain('page fautive (1280 px): color-contrast');
    expect(failure).toContain('page fautive (375 px): button-name');
    await page.setContent(html('#333', 'Valider'));
    await expectAccessible(page, 'page corrigée');
  });
});
