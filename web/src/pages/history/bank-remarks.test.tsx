import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { BankRemarks } from './bank-remarks';
import type { GradeForm } from './use-grade-editor';

/** The comment bank on the desk (decision 160): applied in one click or by Alt + its number, its id recorded. */
vi.mock('../../api/client', async (orig) => ({
  ...(await orig<typeof import('../../api/client')>()),
  api: { get: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn(), put: vi.fn() },
}));

const EXERCISE = '0b8f3c52-6a0e-4d5c-9f0e-2a1b3c4d5e6f';
const REMARKS = [
  { _id: 'r1', text: 'Récurrence mal initialisée.', position: 0, uses: 12 },
  { _id: 'r2', text: 'Justifier la divisibilité.', position: 1, uses: 3 },
];

let shown: GradeForm;
function Harness() {
  const [form, setForm] = useState<GradeForm>({
    grade: '',
    comment: 'Bon début.',
    hidden: false,
    items: [],
    annotations: [],
    bankComments: [],
  });
  shown = form;
  return <BankRemarks exerciseId={EXERCISE} form={form} edit={(patch) => setForm((f) => ({ ...f, ...patch }))} />;
}

beforeEach(() => {
  vi.mocked(api.get).mockReset();
  vi.mocked(api.get).mockResolvedValue({ data: REMARKS });
  vi.mocked(api.post).mockReset();
});

describe('The comment bank on the desk', () => {
  it('appends a remark to the comment in one click and records its id once', async () => {
    renderWithProviders(<Harness />);
    const apply = await screen.findByRole('button', { name: /^Appliquer la remarque\s*2\s*:\s*Justifier la divisibilité\.$/ });
    expect(vi.mocked(api.get).mock.calls[0]![0]).toBe(`/exos/${EXERCISE}/comments`);
    fireEvent.click(apply);
    expect(shown.comment).toBe('Bon début.\n\nJustifier la divisibilité.');
    expect(shown.bankComments).toEqual(['r2']);
    fireEvent.keyDown(window, { key: '&', code: 'Digit1', altKey: true });
    expect(shown.comment).toBe('Bon début.\n\nJustifier la divisibilité.\n\nRécurrence mal initialisée.');
    expect(shown.bankComments).toEqual(['r2', 'r1']);
    fireEvent.click(apply);
    expect(shown.bankComments).toEqual(['r2', 'r1']);
  });

  it('saves the typed comment as a new remark with « Ajouter à la banque »', async () => {
    vi.mocked(api.post).mockResolvedValue({ data: { _id: 'r3', text: 'Bon début.', position: 2, uses: 0 } });
    renderWithProviders(<Harness />);
    fireEvent.click(await screen.findByRole('button', { name: 'Ajouter à la banque' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledWith(`/exos/${EXERCISE}/comments`, { text: 'Bon début.' }));
  });
});
