import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { saveSchemeChange, schemeChangeText, useSchemeConfirm } from './scheme-change-dialog';

/** Decision 161: a scheme change that moves grades is previewed, confirmed with its count, then sent. */
vi.mock('../../api/client', async (orig) => ({
  ...(await orig<typeof import('../../api/client')>()),
  api: { get: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn(), put: vi.fn() },
}));

const ID = '0b8f3c52-6a0e-4d5c-9f0e-2a1b3c4d5e6f';
const PREVIEW = { changed: 1214, minDelta: -1, maxDelta: 0.5, publishedPupils: 0 };
const ITEMS = [{ id: 'i1', text: 'Initialisation', points: 1.5 }];

function Harness({ onDone }: { onDone: (saved: boolean) => void }) {
  const { ask, dialog } = useSchemeConfirm();
  return (
    <>
      <button onClick={() => void saveSchemeChange(ID, { schemeItems: ITEMS }, ask).then(onDone)}>Enregistrer</button>
      {dialog}
    </>
  );
}

beforeEach(() => {
  vi.mocked(api.post).mockReset();
  vi.mocked(api.patch).mockReset();
  vi.mocked(api.patch).mockResolvedValue({ data: { message: 'Modifications enregistrées' } });
});

describe('The scheme change preview', () => {
  it('says how many grades move and by how much, in French', () => {
    expect(schemeChangeText(PREVIEW)).toBe('1\u202f214 notes changent, de −1 à +0,5.');
    expect(schemeChangeText({ changed: 1, minDelta: 0.25, maxDelta: 0.25, publishedPupils: 1 })).toBe(
      '1 note change, de +0,25 à +0,25. 1 élève d’un chapitre publié sera prévenu par courriel.',
    );
  });

  it('asks before saving points that move grades, and sends the count confirmed', async () => {
    vi.mocked(api.post).mockResolvedValue({ data: PREVIEW });
    const onDone = vi.fn();
    renderWithProviders(<Harness onDone={onDone} />);
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('1\u202f214 notes changent, de −1 à +0,5.', { normalizer: (s) => s })).toBeTruthy();
    expect(api.post).toHaveBeenCalledWith(`/exos/${ID}/scheme/preview`, { schemeItems: ITEMS }, { skipNotifications: true });
    expect(api.patch).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Recalculer les notes' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(true));
    expect(api.patch).toHaveBeenCalledWith(`/exos/${ID}`, { schemeItems: ITEMS, confirmRecompute: 1214 }, { skipNotifications: true });
  });

  it('sends nothing when the admin cancels, and asks again on a 409 with the new count', async () => {
    vi.mocked(api.post).mockResolvedValue({ data: { ...PREVIEW, changed: 0 } });
    const conflict = new ApiError('http', {
      status: 409,
      data: { message: '…', code: 'scheme_recompute', preview: { ...PREVIEW, changed: 3 } },
    });
    vi.mocked(api.patch).mockRejectedValueOnce(conflict);
    const onDone = vi.fn();
    renderWithProviders(<Harness onDone={onDone} />);
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('3 notes changent, de −1 à +0,5.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(false));
    expect(api.patch).toHaveBeenCalledTimes(1);
  });
});
