import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { SortingSelection } from '@olympe/contract';
import { renderWithProviders } from '../../test/render';
import { SORTING_START_LABEL, SortingPage } from './sorting-page';
import { pupilLabel } from './pupil-picker';

const api = vi.hoisted(() => ({ selectCopy: vi.fn(), searchPupils: vi.fn(), labelCopy: vi.fn() }));
// The HTTP client answers from the fakes above, named after the calls of api/sorting.ts they stand for:
// GET /answer/unlabeled/select/{id}, GET /answer/unlabeled/pupils/{id}?q=, POST /answer/label/{copyId}.
const http = vi.hoisted(() => ({
  get: vi.fn(async (url: string, options?: { params?: { q?: string } }) => {
    const [, , , kind, chapterId] = url.split('/');
    return { data: kind === 'select' ? await api.selectCopy(chapterId) : await api.searchPupils(chapterId, options?.params?.q) };
  }),
  post: vi.fn(async (url: string, labels: unknown) => ({ data: await api.labelCopy(url.split('/')[3], labels) })),
}));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
// The PDF never arrives in jsdom: the page shows its loader; the choices are what is tested.
vi.mock('../../api/files', () => ({ fetchPdf: () => new Promise(() => {}) }));
vi.mock('../../components/PdfView/pdfjs', () => ({ openPdf: vi.fn() }));

const SELECTION: NonNullable<SortingSelection> = {
  copy: {
    _id: 'copy1',
    answer: 'pdfs/00000000-0000-4000-8000-0000000000aa.pdf',
    pages: 3,
    originalName: 'salle-3.pdf',
    institution: { _id: 'i1', name: 'Collège Pascal' },
    createdAt: '2026-05-01T08:00:00.000Z',
    reservedUntil: '2026-05-01T08:10:00.000Z',
    suggestions: [{ pageNum: 3, user: 'u2', exercises: ['e2'], rotation: 90 }],
    pageReadings: ['unread', 'unread', 'read'],
    readError: null,
  },
  chapter: { _id: 'c1', title: 'Demi-finale' },
  remaining: 2,
  exercises: [
    { _id: 'e1', title: 'Arithmétique' },
    { _id: 'e2', title: 'Géométrie' },
  ],
  pupils: [
    {
      _id: 'u1',
      firstName: 'Éléonore',
      lastName: 'Dupré',
      grade: '3eme',
      birthYear: 2011,
      institution: { _id: 'i1', name: 'Collège Pascal' },
      registered: true,
      atCenter: true,
    },
    {
      _id: 'u2',
      firstName: 'Bastien',
      lastName: 'Noël',
      grade: '3eme',
      birthYear: null,
      institution: { _id: 'i1', name: 'Collège Pascal' },
      registered: true,
      atCenter: true,
    },
  ],
};

function open() {
  renderWithProviders(
    <Routes>
      <Route path="/sorting/:id" element={<SortingPage />} />
    </Routes>,
    { route: '/sorting/c1' },
  );
}

/** The page opened and « Commencer le tri » clicked. */
function setup() {
  open();
  fireEvent.click(screen.getByRole('button', { name: SORTING_START_LABEL }));
}

const searchBox = () => screen.getByLabelText('Élève', { selector: 'input:not([type=hidden])' }) as HTMLInputElement;
const region = () => screen.getByRole('region', { name: 'Copie à trier' });
const press = (key: string, target: Element = region()) => fireEvent.keyDown(target, { key });

describe('SortingPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.searchPupils.mockResolvedValue([]);
  });

  it('reserves nothing on load : a copy is asked for (and reserved) only after « Commencer le tri »', async () => {
    api.selectCopy.mockResolvedValue(null);
    open();
    expect(screen.getByText(/réserve une copie à votre nom pendant 10 minutes/)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 20));
    expect(api.selectCopy).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Commencer le tri' }));
    await waitFor(() => expect(api.selectCopy).toHaveBeenCalledWith('c1'));
  });

  it('says when nothing is left to sort', async () => {
    api.selectCopy.mockResolvedValue(null);
    setup();
    expect(screen.getByRole('heading', { name: 'Triage' })).toBeTruthy();
    expect(await screen.findByText('Aucune copie à trier pour le moment.')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Retour à la correction/ }).getAttribute('href')).toBe('/grader/c1');
  });

  it('sorts with the keyboard: keys are ignored while typing in the search, pupil carried forward, QR suggestion marked, saved as one array', async () => {
    api.selectCopy.mockResolvedValue(SELECTION);
    api.labelCopy.mockResolvedValue({ message: 'ok', answers: [] });
    setup();
    expect(await screen.findByText('Page 1 sur 3')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(region()));

    // "/" focuses the search; typing there (even arrows, space, b) changes no page.
    press('/');
    const search = searchBox();
    expect(document.activeElement).toBe(search);
    fireEvent.change(search, { target: { value: 'eleo' } });
    for (const key of ['ArrowRight', ' ', 'b']) press(key, search);
    expect(screen.getByText('Page 1 sur 3')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Page blanche' }) as HTMLInputElement).checked).toBe(false);
    // Mantine's dropdown is still in its opening transition in jsdom (hidden to the accessibility tree).
    const option = await screen.findByRole('option', { name: 'Dupré Éléonore (Collège Pascal, 3ème, né(e) en 2011)', hidden: true });
    expect(screen.queryByRole('option', { name: /Noël/, hidden: true })).toBeNull();
    fireEvent.click(option);
    await waitFor(() => expect(document.activeElement).toBe(region()));

    // Page 2: the pupil is carried; ↓ moves to the second exercise; space turns the page.
    press('ArrowRight');
    expect(screen.getByText('Page 2 sur 3')).toBeTruthy();
    // The list named the school; the one-line field holds the name alone, the school shows below it.
    expect(searchBox().value).toBe('Dupré Éléonore');
    expect(screen.getByText('Collège Pascal')).toBeTruthy();
    // « / » empties the search, so a name typed next replaces the pupil; Escape gives the field back its name.
    press('/');
    expect(document.activeElement).toBe(searchBox());
    expect(searchBox().value).toBe('');
    press('Escape', searchBox());
    await waitFor(() => expect(document.activeElement).toBe(region()));
    expect(searchBox().value).toBe('Dupré Éléonore');
    press('ArrowDown');
    expect((screen.getByRole('checkbox', { name: 'Géométrie' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Arithmétique' }) as HTMLInputElement).checked).toBe(false);
    press(' ');
    press(' ');
    expect((screen.getByRole('radio', { name: '180°' }) as HTMLInputElement).checked).toBe(true);

    // Page 3 comes from the QR code, marked as a suggestion.
    press('ArrowRight');
    expect(screen.getByText('Page 3 sur 3')).toBeTruthy();
    expect(screen.getByText('Suggestion lue sur le QR code')).toBeTruthy();
    expect(searchBox().value).toBe('Noël Bastien');

    await act(async () => press('Enter'));
    await waitFor(() => expect(api.labelCopy).toHaveBeenCalledTimes(1));
    expect(api.labelCopy).toHaveBeenCalledWith('copy1', [
      { pageNum: 1, user: 'u1', exercises: ['e1'], rotation: 0 },
      { pageNum: 2, user: 'u1', exercises: ['e2'], rotation: 180 },
      { pageNum: 3, user: 'u2', exercises: ['e2'], rotation: 90 },
    ]);
  });

  it('a page with no pupil cannot be saved: the message names it and the page comes back', async () => {
    api.selectCopy.mockResolvedValue({ ...SELECTION, copy: { ...SELECTION.copy, pages: 2, suggestions: null } });
    setup();
    expect(await screen.findByText('Page 1 sur 2')).toBeTruthy();
    press('ArrowRight');
    press('b');
    expect((screen.getByRole('checkbox', { name: 'Page blanche' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Sauvegarder et passer au fichier suivant' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Page 1 : choisissez un élève ou marquez la page blanche.');
    expect(screen.getByText('Page 1 sur 2')).toBeTruthy();
    expect(api.labelCopy).not.toHaveBeenCalled();
  });

  it('shows what the reader found on each page; confirming the suggested pages leads to the first unread one', async () => {
    const suggestions = [
      { pageNum: 1, user: 'u1', exercises: ['e1'], rotation: 90 as const },
      { pageNum: 3, user: null, exercises: [], rotation: 0 as const },
    ];
    api.selectCopy.mockResolvedValue({ ...SELECTION, copy: { ...SELECTION.copy, suggestions, pageReadings: ['read', 'unread', 'blank'] } });
    setup();
    // The narrow no-break space before the colon is normalised to a space by Testing Library.
    expect(await screen.findByText('Lecture des codes : 1 page lue, 1 non lue, 1 blanche écartée')).toBeTruthy();
    expect(screen.getByText(/^Les pages blanches \(versos d’un scan recto verso\) ne vont dans aucune copie/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 2\u00a0: non lue' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 1\u00a0: lue' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Confirmer les 2 pages suggérées' }));
    expect(await screen.findByText('Page 2 sur 3')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Confirmer/ })).toBeNull();
    expect(api.labelCopy).not.toHaveBeenCalled();
  }, 20_000);

  it('a copy whose every page was read is confirmed and saved in one click; a failed reading says why', async () => {
    api.labelCopy.mockResolvedValue({});
    const suggestions = [1, 2, 3].map((pageNum) => ({
      pageNum,
      user: pageNum === 3 ? null : 'u2',
      exercises: pageNum === 3 ? [] : ['e2'],
      rotation: 0 as const,
    }));
    api.selectCopy.mockResolvedValueOnce({
      ...SELECTION,
      copy: { ...SELECTION.copy, suggestions, pageReadings: ['read', 'read', 'blank'] },
    });
    api.selectCopy.mockResolvedValueOnce({
      ...SELECTION,
      copy: { ...SELECTION.copy, _id: 'copy2', suggestions: null, pageReadings: null, readError: 'Ce PDF est illisible ou endommagé.' },
    });
    setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Confirmer les 3 pages suggérées et sauvegarder' }));
    await waitFor(() =>
      expect(api.labelCopy).toHaveBeenCalledWith('copy1', [
        { pageNum: 1, user: 'u2', exercises: ['e2'], rotation: 0 },
        { pageNum: 2, user: 'u2', exercises: ['e2'], rotation: 0 },
        { pageNum: 3, user: null, exercises: [], rotation: 0 },
      ]),
    );
    expect(await screen.findByText('Lecture automatique impossible')).toBeTruthy();
    expect(screen.getByText(/Ce PDF est illisible ou endommagé. Triez les pages de ce fichier à la main./)).toBeTruthy();
  }, 20_000);
});

describe('pupilLabel', () => {
  it('tells homonyms of one school apart by class and year of birth', () => {
    const lea = {
      _id: 'a',
      firstName: 'Léa',
      lastName: 'Martin',
      institution: { _id: 'i', name: 'Lycée Louis-le-Grand' },
      registered: true,
      atCenter: true,
    };
    const first = pupilLabel({ ...lea, grade: '2nde', birthYear: 2010 });
    const second = pupilLabel({ ...lea, _id: 'b', grade: 'Tale', birthYear: 2008 });
    expect(first).toBe('Martin Léa (Lycée Louis-le-Grand, 2nde, né(e) en 2010)');
    expect(second).toBe('Martin Léa (Lycée Louis-le-Grand, Terminale, né(e) en 2008)');
    expect(pupilLabel({ ...lea, institution: null, grade: null, birthYear: null })).toBe('Martin Léa');
  });
});
