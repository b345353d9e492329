import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppFrame, newQueryClient } from '../app';
import { showNotice } from './notify';

describe('notices (decision 121: their file comes after the first screen)', () => {
  it('shows a notice asked for before the container has loaded, with its close button named in French', async () => {
    render(
      <AppFrame client={newQueryClient()}>
        <button type="button" onClick={() => showNotice('Modifications enregistrées', 'green')}>
          Enregistrer
        </button>
      </AppFrame>,
    );
    // Nothing of Mantine's container is in the page yet: its file has not come.
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Modifications enregistrées')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fermer' })).toBeTruthy();
  });
});
