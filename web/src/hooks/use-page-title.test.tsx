import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { usePageTitle } from './use-page-title';

describe('usePageTitle', () => {
  afterEach(() => {
    document.title = '';
  });

  it('titles the tab after the page, then the application', () => {
    const { rerender } = renderHook(({ title }) => usePageTitle(title), { initialProps: { title: 'Correction : Tour 1' } });
    expect(document.title).toBe('Correction : Tour 1 — Olympe');
    rerender({ title: 'Mon profil' });
    expect(document.title).toBe('Mon profil — Olympe');
  });

  it('falls back to the application name while the page has no title, and when it leaves', () => {
    const { rerender, unmount } = renderHook(({ title }: { title?: string }) => usePageTitle(title), { initialProps: {} });
    expect(document.title).toBe('Olympe');
    rerender({ title: 'Connexion' });
    unmount();
    expect(document.title).toBe('Olympe');
  });
});
