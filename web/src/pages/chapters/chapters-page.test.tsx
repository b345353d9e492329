import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { routeHttp } from '../../test/http-routes';
import { renderWithProviders } from '../../test/render';
import { ChaptersPage } from './chapters-page';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), patch: vi.fn(), delete: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const LONG = 'Coupe Olympe 2026 — premier tour, épreuve individuelle des collégiens';

describe('ChaptersPage', () => {
  beforeEach(() => {
    routeHttp(http, [['get', /^\/chapter$/, () => [{ _id: 'c1', title: LONG, analysis: false, offline: true }]]]);
  });

  it('shows a chapter’s whole title, wrapping between words, and keeps it on one line (decision 141)', async () => {
    renderWithProviders(
      <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles: { ...NO_ROLES, isAdmin: true } }}>
        <ChaptersPage />
      </SessionContext.Provider>,
    );
    const field = (await screen.findByLabelText(`Titre du chapitre ${LONG}`)) as HTMLTextAreaElement;
    // A text area wraps where a one-line field cut the title after « Coupe Olympe 2026 — ».
    expect(field.tagName).toBe('TEXTAREA');
    expect(field.value).toBe(LONG);
    expect(field.title).toBe(LONG);
    expect(field.lang).toBe('fr');
    expect([field.style.overflowWrap, field.style.wordBreak, field.style.hyphens]).toEqual(['normal', 'normal', 'auto']);
    expect(field.closest('td')?.style.minWidth).toBe('calc(17.5rem * var(--mantine-scale))');
    fireEvent.change(field, { target: { value: 'Coupe Olympe 2026\nfinale' } });
    expect(field.value).toBe('Coupe Olympe 2026 finale');
  });
});
