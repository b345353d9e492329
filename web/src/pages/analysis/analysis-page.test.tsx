import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { ChapterAnalysis } from '@olympe/contract';
import { renderWithProviders } from '../../test/render';
import { AnalysisPage } from './analysis-page';

const http = vi.hoisted(() => ({ get: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const person = (id: string, firstName: string, lastName: string) => ({ _id: id, firstName, lastName });
const DATA: ChapterAnalysis = {
  chapter: { _id: 'c1', title: 'Tour 1' },
  exercises: [
    { _id: 'e1', title: 'Somme', answerFormat: 'numeric' },
    { _id: 'e2', title: 'Produit', answerFormat: 'numeric' },
  ],
  individualAnalysis: [
    {
      user: person('u2', 'Blaise', 'Pascal'),
      ip: '1.1.1.1',
      ips: ['1.1.1.1'],
      totalBlurEvents: 0,
      totalBlurDuration: 0,
      suspiciousCorrectAnswers: 0,
      suspiciousExerciseIds: [],
      timeFor70Pct: 900,
      answered: 2,
      historyExerciseId: 'e1',
      score: 0,
    },
    {
      user: person('u1', 'Ada', 'Lovelace'),
      ip: '1.1.1.1',
      ips: ['1.1.1.1', '2.2.2.2'],
      totalBlurEvents: 2,
      totalBlurDuration: 720,
      suspiciousCorrectAnswers: 1,
      suspiciousExerciseIds: ['e2'],
      timeFor70Pct: 760,
      answered: 2,
      historyExerciseId: 'e2',
      score: 15,
    },
  ],
  pairAnalysis: [
    {
      ip: '1.1.1.1',
      userIds: ['u1', 'u2'],
      pairs: [
        {
          user1: person('u1', 'Ada', 'Lovelace'),
          user2: person('u2', 'Blaise', 'Pascal'),
          commonWrong: 1,
          commonAnswers: [
            { exerciseId: 'e1', answer: '7', wrong: true },
            { exerciseId: 'e2', answer: '20', wrong: false },
          ],
        },
      ],
    },
  ],
};

describe('AnalysisPage', () => {
  beforeEach(() => http.get.mockReset());

  it('shows the warning, the explanations, pupils by score with each term, and the pairs of an address', async () => {
    http.get.mockResolvedValue({ data: DATA });
    renderWithProviders(
      <Routes>
        <Route path="/analysis/:id" element={<AnalysisPage />} />
      </Routes>,
      { route: '/analysis/c1' },
    );
    expect(await screen.findByRole('heading', { name: 'Analyse de la triche : Tour 1' })).toBeTruthy();
    expect(http.get).toHaveBeenCalledWith('/answer/analysis/c1');
    expect(screen.getByText('Un indice, jamais un verdict')).toBeTruthy();
    expect(screen.getByText('Comment lire ces chiffres')).toBeTruthy();

    const table = screen.getByRole('table', { name: 'Analyse individuelle' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['Ada Lovelace', 'Blaise Pascal']);
    const ada = within(rows[0])
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(ada).toEqual(['Ada Lovelace', '1.1.1.1, 2.2.2.2', '2', '12,0', '1', '12 min 40 s', '15 (12 + 2 + 1)']);
    expect(within(rows[0]).getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe('/history/u1/e2');

    const pairs = screen.getByRole('table', { name: 'Paires suspectes, adresse 1.1.1.1' });
    const pair = within(pairs).getAllByRole('row')[1];
    expect(
      within(pair)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Ada Lovelace', 'Blaise Pascal', '1', 'Somme : 7 (fausse) ; Produit : 20']);
    expect(screen.getByText('2 élèves')).toBeTruthy();
  });

  it('says when nobody started and no address is shared', async () => {
    http.get.mockResolvedValue({ data: { ...DATA, individualAnalysis: [], pairAnalysis: [] } });
    renderWithProviders(
      <Routes>
        <Route path="/analysis/:id" element={<AnalysisPage />} />
      </Routes>,
      { route: '/analysis/c1' },
    );
    expect(await screen.findByText('Aucun élève n’a encore commencé ce chapitre.')).toBeTruthy();
    expect(screen.getByText('Aucune adresse IP n’est partagée par plusieurs élèves.')).toBeTruthy();
  });
});
