import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { PrivacyPage } from './privacy-page';

const http = vi.hoisted(() => ({ get: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
http.get.mockImplementation(async (url: string) =>
  url === '/config' ? { data: { contactEmail: 'rgpd@olympe.example', tileUrl: '' } } : new Promise(() => {}),
);

describe('PrivacyPage', () => {
  it('says what is kept, why, how long, and whom to write to', async () => {
    renderWithProviders(<PrivacyPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Données personnelles' })).toBeTruthy();
    for (const name of ['Ce qui est conservé, et pourquoi', 'Qui y a accès', 'Combien de temps', 'Vos droits']) {
      expect(screen.getByRole('heading', { name })).toBeTruthy();
    }
    expect(screen.getByRole('cell', { name: /Adresse IP et pertes de focus/ })).toBeTruthy();
    expect(screen.getByText(/trois années scolaires/)).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'rgpd@olympe.example' })).getAttribute('href')).toBe('mailto:rgpd@olympe.example');
  });
});
