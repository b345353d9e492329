import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { UserDataActions } from './user-data-actions';

const api = vi.hoisted(() => ({ anonymiseUser: vi.fn(), fetchUserExport: vi.fn() }));
vi.mock('../../api/ops', () => api);

describe('UserDataActions', () => {
  it('anonymises only after confirmation', async () => {
    api.anonymiseUser.mockResolvedValue({ message: 'ok', filesErased: 0 });
    const done = vi.fn();
    renderWithProviders(<UserDataActions uid="u1" name="Ada Lovelace" onAnonymised={done} />);
    fireEvent.click(screen.getByRole('button', { name: 'Anonymiser le compte' }));
    expect(await screen.findByText(/Ada Lovelace seront\s+effacés définitivement/)).toBeTruthy();
    expect(api.anonymiseUser).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Anonymiser' }));
    await waitFor(() => expect(api.anonymiseUser).toHaveBeenCalledWith('u1'));
    await waitFor(() => expect(done).toHaveBeenCalled());
  });

  it('downloads the export as a JSON file', async () => {
    api.fetchUserExport.mockResolvedValue({ user: { id: 'u1' } });
    const createObjectURL = vi.fn().mockReturnValue('blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderWithProviders(<UserDataActions uid="u1" name="Ada Lovelace" />);
    fireEvent.click(screen.getByRole('button', { name: 'Exporter ses données (JSON)' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.fetchUserExport).toHaveBeenCalledWith('u1');
    expect(createObjectURL.mock.calls[0][0]).toBeInstanceOf(Blob);
  });
});
