import { screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResultsCard, ReturnedCopies } from '@olympe/contract';
import { renderWithProviders } from '../../test/render';
import { PupilResults } from './results-panel';
import { DOWNLOAD_COPY_LABEL } from './returned-copies';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), patch: vi.fn(), delete: vi.fn() }));
vi.mock('../../api/client', async (orig) => ({ ...(await orig<typeof import('../../api/client')>()), api: http }));
// pdf.js does not draw in jsdom: the viewer stands for two pages and their overlays.
vi.mock('../../components/PdfView', () => ({
  PdfView: ({ path, overlay }: { path: string; overlay?: (page: number) => ReactNode }) => (
    <div data-testid="pdf" data-path={path}>
      {overlay?.(0)}
      {overlay?.(1)}
    </div>
  ),
}));

const CARD: ResultsCard = {
  chapter: { _id: 'c1', title: 'Tour 1' },
  exercises: [{ _id: 'e1', title: 'Preuve', grade: 7, excused: false, maxPoints: 10, comment: 'Rédaction à reprendre' }],
  total: 7,
  maxTotal: 10,
  participated: true,
};
const COPIES: ReturnedCopies = {
  chapter: { _id: 'c1', title: 'Tour 1' },
  exercises: [
    {
      _id: 'e1',
      title: 'Preuve',
      grade: 7,
      excused: false,
      maxPoints: 10,
      comment: 'Rédaction à reprendre',
      pdf: 'pdfs/f1.pdf',
      items: [{ id: 'it1', text: 'Récurrence posée' }],
      layers: [
        {
          annotations: [
            {
              id: 'a1',
              page: 0,
              kind: 'ink',
              color: 'red',
              points: [
                [0.1, 0.2],
                [0.3, 0.2],
              ],
            },
            { id: 'a2', page: 1, kind: 'note', x: 0.1, y: 0.5, text: 'Hypothèse non justifiée' },
            { id: 'a3', page: 0, kind: 'item', x: 0.5, y: 0.5, itemId: 'it1' },
          ],
        },
      ],
    },
  ],
};

describe('returned copies (decision 162)', () => {
  beforeEach(() => http.get.mockReset());

  it('shows each copy with its marks over the pages, the comment and the download, once the chapter returns them', async () => {
    http.get.mockImplementation(async (url: string) => ({
      data: String(url).endsWith('/copies') ? COPIES : url === '/selection/mine' ? [] : { ...CARD, copiesReturned: true },
    }));
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    const copy = await screen.findByRole('article', { name: 'Copie corrigée\u00a0: Preuve' });
    expect(http.get.mock.calls.map((c) => c[0])).toContain('/results/c1/copies');
    expect(within(copy).getByTestId('pdf').getAttribute('data-path')).toBe('pdfs/f1.pdf');
    const first = within(copy).getByTestId('annotations-page-0');
    expect(first.querySelector('polyline')?.getAttribute('points')).toBe('0.1,0.2 0.3,0.2');
    expect(within(first).getByText(/^Barème\s: Récurrence posée$/)).toBeTruthy();
    expect(within(within(copy).getByTestId('annotations-page-1')).getByText('Hypothèse non justifiée')).toBeTruthy();
    expect(within(copy).getByText(/^Page 2\s: Hypothèse non justifiée$/)).toBeTruthy();
    expect(within(copy).getByText('Rédaction à reprendre')).toBeTruthy();
    expect(within(copy).getByRole('button', { name: DOWNLOAD_COPY_LABEL })).toBeTruthy();
  });

  it('asks for no copy when the chapter does not return them', async () => {
    http.get.mockImplementation(async (url: string) => ({ data: url === '/selection/mine' ? [] : { ...CARD, copiesReturned: false } }));
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    expect(await screen.findByRole('button', { name: 'Télécharger mon attestation' })).toBeTruthy();
    expect(http.get.mock.calls.map((c) => c[0]).filter((u) => String(u).startsWith('/results/'))).toEqual(['/results/c1']);
    expect(screen.queryByText('Vos copies corrigées')).toBeNull();
  });
});
