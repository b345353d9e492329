import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { AnswerSheetsButton, SPARE_LABEL } from './answer-sheets-button';

const api = vi.hoisted(() => ({ fetchSheetsLink: vi.fn(), startDownload: vi.fn() }));
vi.mock('../../../api/sheets', () => api);

const CHAPTER = '11111111-1111-4111-8111-111111111111';
const SCHOOL = '22222222-2222-4222-8222-222222222222';

beforeEach(() => {
  api.fetchSheetsLink.mockReset().mockResolvedValue('/api/sheets/x.pdf?sig=1');
  api.startDownload.mockReset();
});

describe('AnswerSheetsButton', () => {
  it('downloads the centre’s sheets through a signed link, with the chosen spare pages', async () => {
    renderWithProviders(<AnswerSheetsButton chapterId={CHAPTER} institutionId={SCHOOL} />);
    fireEvent.change(screen.getByLabelText(SPARE_LABEL), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Télécharger les feuilles réponses' }));
    await waitFor(() => expect(api.startDownload).toHaveBeenCalledWith('/api/sheets/x.pdf?sig=1'));
    expect(api.fetchSheetsLink).toHaveBeenCalledWith(CHAPTER, { spare: 1, institution: SCHOOL });
  });

  it('school staff send no institution (the server takes theirs); the blank sheet is a link', async () => {
    renderWithProviders(<AnswerSheetsButton chapterId={CHAPTER} />);
    fireEvent.click(screen.getByRole('button', { name: 'Télécharger les feuilles réponses' }));
    await waitFor(() => expect(api.fetchSheetsLink).toHaveBeenCalledWith(CHAPTER, { spare: 2 }));
    fireEvent.click(screen.getByRole('button', { name: 'Feuille vierge' }));
    await waitFor(() => expect(api.fetchSheetsLink).toHaveBeenLastCalledWith(CHAPTER, { blank: '1', spare: 2 }));
    await waitFor(() => expect(api.startDownload).toHaveBeenCalledTimes(2));
  });

  it('starts no download when the server refuses (its message is shown by the client)', async () => {
    api.fetchSheetsLink.mockRejectedValue(new Error('400'));
    renderWithProviders(<AnswerSheetsButton chapterId={CHAPTER} />);
    const button = screen.getByRole('button', { name: 'Télécharger les feuilles réponses' });
    fireEvent.click(button);
    await waitFor(() => expect(api.fetchSheetsLink).toHaveBeenCalled());
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    expect(api.startDownload).not.toHaveBeenCalled();
  });
});
