import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { GroupDetail } from '@olympe/contract';
import { showNotice } from '../../api/notify';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { renderWithProviders } from '../../test/render';
import { makeMember } from '../../test/fixtures';
import { UsersPage } from './users-page';

/**
 * docs/product.md#spec-2 "Group members": the e-mail column's copy-all button copies the addresses of the
 * rows shown (the search applied), separated by ", " (decisions/groups.md §6), and says how many in French.
 */
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), patch: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
vi.mock('../../api/notify', async (importOriginal) => ({ ...(await importOriginal<object>()), showNotice: vi.fn() }));

const GROUP: GroupDetail = {
  _id: 'g1',
  name: 'Lycée Pascal',
  system: false,
  members: [
    makeMember('u1', { firstName: 'Émilie', lastName: 'Du Châtelet', email: 'emilie@lycee-pascal.fr' }),
    makeMember('u2', { firstName: 'Henri', lastName: 'Poincaré', email: 'henri@college-nancy.fr' }),
    makeMember('u3', { firstName: 'Évariste', lastName: 'Galois', email: 'evariste@lycee-pascal.fr' }),
    makeMember('u4', { firstName: 'Joseph', lastName: 'Fourier', email: 'joseph@auxerre.fr' }),
  ],
};

const writeText = vi.fn<(text: string) => Promise<void>>();

function setup() {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 'admin-token' }}>
      <Routes>
        <Route path="/users/:id" element={<UsersPage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/users/g1' },
  );
}

/** The addresses in the table's e-mail column, as displayed. */
function displayedEmails(): string[] {
  const table = screen.getByRole('table', { name: /Membres du groupe/ });
  const header = within(table).getAllByRole('columnheader');
  const column = header.findIndex((th) => /E-mail/.test(th.textContent ?? ''));
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[column].textContent ?? '');
}

const copyButton = () => screen.getByRole('button', { name: /^Copier toutes les adresses affichées$/ });

describe('UsersPage: « Copier toutes les adresses affichées »', () => {
  beforeEach(() => {
    Object.values(http).forEach((fn) => fn.mockReset());
    http.get.mockResolvedValue({ data: GROUP });
    writeText.mockReset();
    writeText.mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.mocked(showNotice).mockReset();
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('copies every address when nothing is searched, separated by ", ", and says how many', async () => {
    setup();
    await screen.findByText(/^4\/4 membres$/, {}, { timeout: 5000 });
    fireEvent.click(copyButton());
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    const copied = writeText.mock.calls[0][0];
    expect(copied.split(', ').sort()).toEqual(displayedEmails().sort());
    expect(copied).toMatch(/^[^\s,]+@[^\s,]+(, [^\s,]+@[^\s,]+){3}$/);
    expect(showNotice).toHaveBeenCalledWith(expect.stringMatching(/^4\s+adresses\s+copiées\.$/), 'green');
  });

  it('copies only the rows the search leaves, exactly those', async () => {
    setup();
    await screen.findByText(/^4\/4 membres$/, {}, { timeout: 5000 });
    fireEvent.change(screen.getByLabelText('Rechercher'), { target: { value: 'lycee-pascal' } });
    await waitFor(() => expect(screen.getByText(/^2\/4 membres$/)).toBeTruthy(), { timeout: 5000 });
    expect(displayedEmails().sort()).toEqual(['emilie@lycee-pascal.fr', 'evariste@lycee-pascal.fr']);
    fireEvent.click(copyButton());
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(writeText.mock.calls[0][0].split(', ').sort()).toEqual(['emilie@lycee-pascal.fr', 'evariste@lycee-pascal.fr']);
    expect(showNotice).toHaveBeenCalledWith(expect.stringMatching(/^2\s+adresses\s+copiées\.$/), 'green');
  });

  it('says « 1 adresse copiée. » in the singular', async () => {
    setup();
    await screen.findByText(/^4\/4 membres$/, {}, { timeout: 5000 });
    fireEvent.change(screen.getByLabelText('Rechercher'), { target: { value: 'poincare' } });
    await waitFor(() => expect(screen.getByText(/^1\/4 membres$/)).toBeTruthy(), { timeout: 5000 });
    fireEvent.click(copyButton());
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('henri@college-nancy.fr'));
    expect(showNotice).toHaveBeenCalledWith(expect.stringMatching(/^1\s+adresse\s+copiée\.$/), 'green');
  });

  it('says in French when the browser refuses the clipboard', async () => {
    writeText.mockRejectedValue(new DOMException('Refusé', 'NotAllowedError'));
    setup();
    await screen.findByText(/^4\/4 membres$/, {}, { timeout: 5000 });
    fireEvent.click(copyButton());
    await waitFor(() => expect(showNotice).toHaveBeenCalledWith(expect.stringMatching(/presse-papiers a été refusée/), 'red'));
    expect(showNotice).not.toHaveBeenCalledWith(expect.stringMatching(/copiée/), 'green');
  });
});
