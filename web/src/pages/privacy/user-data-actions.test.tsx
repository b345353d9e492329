import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { UserDataActions } from './user-data-actions';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

describe('UserDataActions', () => {
  it('anonymises only after confirmation', async () => {
    http.post.mockResolvedValue({ data: { message: 'ok', filesErased: 0 } });
    const done = vi.fn();
    renderWithProviders(<UserDataActions uid="u1" name="Ada Lovelace" onAnonymised={done} />);
    fireEvent.click(screen.getByRole('button', { name: 'Anonymiser le compte' }));
    expect(await screen.findByText(/Ada Lovelace seront\s+effacés définitivement/)).toBeTruthy();
    expect(http.post).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Anonymiser' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/user/u1/anonymise'));
    await waitFor(() => expect(done).toHaveBeenCalled());
  });

  it('downloads the export as a JSON file', async () => {
    http.get.mockResolvedValue({ data: { user: { id: 'u1' } } });
    const createObjectURL = vi.fn().mockReturnValue('blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderWithProviders(<UserDataActions uid="u1" name="Ada Lovelace" />);
    fireEvent.click(screen.getByRole('button', { name: 'Exporter ses données (JSON)' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(http.get).toHaveBeenCalledWith('/user/u1/export');
    expect(createObjectURL.mock.calls[0][0]).toBeInstanceOf(Blob);
  });
});
