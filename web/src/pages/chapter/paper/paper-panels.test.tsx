import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Center, CenterOption, User } from '@olympe/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_INSTRUCTIONS_TEXT, NO_OUTSIDE_PUPILS_TEXT, NO_OWN_PUPILS_TEXT } from '@olympe/contract';
import { LOGGED_OUT, SessionContext } from '../../../session/session-context';
import { NO_ROLES, type Roles } from '../../../session/roles';
import { routeHttp } from '../../../test/http-routes';
import { renderWithProviders } from '../../../test/render';
import { CenterManagementPanel } from './center-management-panel';
import { CenterSelectionPanel, HIDE_EXTRA_LABEL, OWN_SCHOOL_REFUSES, REFUSED_TEXT } from './center-selection-panel';
import { paperPanelKind } from './paper-panel';
import { folded } from '../../../test/text';

const api = vi.hoisted(() => ({
  fetchCenterOptions: vi.fn(),
  fetchUserCenter: vi.fn(),
  chooseCenter: vi.fn(),
  fetchCenter: vi.fn(),
  saveCenter: vi.fn(),
  refuseRegistration: vi.fn(),
  fetchUnlabeled: vi.fn(),
  registerUnlabeled: vi.fn(),
  showNotice: vi.fn(),
}));
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), patch: vi.fn() }));
vi.mock('../../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
// The centres' endpoints, each answered by the mock named after its fetcher in api/centers.ts.
routeHttp(http, [
  ['get', /^\/center\/institutions\/([^/]+)$/, ([c]) => api.fetchCenterOptions(c)],
  ['get', /^\/center\/user\/([^/]+)$/, ([c]) => api.fetchUserCenter(c)],
  ['patch', /^\/center\/user\/([^/]+)$/, ([c], body) => api.chooseCenter(c, (body as { institution: string }).institution)],
  ['post', /^\/center\/refuse\/([^/]+)$/, ([c], body) => api.refuseRegistration(c, (body as { user: string }).user)],
  ['get', /^\/center\/([^/]+)$/, ([c]) => api.fetchCenter(c)],
  ['patch', /^\/center\/([^/]+)$/, ([c], body) => api.saveCenter(c, body)],
  ['get', /^\/answer\/unlabeled\/([^/]+)$/, ([c]) => api.fetchUnlabeled(c)],
  [
    'post',
    /^\/answer\/unlabeled\/([^/]+)$/,
    ([c], body) => {
      const { answer, institution } = body as { answer: string; institution: string | null };
      return api.registerUnlabeled(c, answer, institution);
    },
  ],
  ['get', /^\/chapter\/([^/]+)$/, () => ({ headerCenters: 'Ouvrir les enveloppes à 9 h.' })],
]);
vi.mock('../../../api/notify', () => ({ showNotice: api.showNotice }));
vi.mock('../../../api/institutions', () => ({ usePublicConfig: () => ({ data: { tileUrl: '' } }) }));
// The Leaflet map is replaced by one button per drawn marker (the real one is checked in e2e).
vi.mock('./center-map', () => ({
  default: (props: { markers: Array<{ item: CenterOption }>; onSelect: (o: CenterOption) => void }) => (
    <div>
      {props.markers.map(({ item }) => (
        <button key={item._id} type="button" onClick={() => props.onSelect(item)}>
          marqueur {item.name}
        </button>
      ))}
    </div>
  ),
}));

const CHAPTER = '11111111-1111-4111-8111-111111111111';
const option = (id: string, name: string, status: CenterOption['status'], extra = false, own = false, instructions = ''): CenterOption => ({
  _id: id,
  name,
  address: '',
  latitude: 45,
  longitude: 2,
  status,
  instructions,
  details: null,
  own,
  extra,
});

function renderWith(ui: React.ReactElement, roles: Partial<Roles> = {}) {
  const session = { ...LOGGED_OUT, token: 'jwt', user: { _id: 'me' } as User, roles: { ...NO_ROLES, ...roles } };
  return renderWithProviders(<SessionContext.Provider value={session}>{ui}</SessionContext.Provider>);
}

beforeEach(() => {
  vi.clearAllMocks();
  api.chooseCenter.mockResolvedValue(undefined);
  api.saveCenter.mockResolvedValue(undefined);
  api.fetchUnlabeled.mockResolvedValue([]);
});

describe('which panel', () => {
  it('pupils, teacher-members and admins choose; teachers manage; members alone get none', () => {
    expect(paperPanelKind({ isAdmin: false, isMember: false, isTeacher: false })).toBe('selection');
    expect(paperPanelKind({ isAdmin: false, isMember: true, isTeacher: true })).toBe('selection');
    expect(paperPanelKind({ isAdmin: true, isMember: false, isTeacher: false })).toBe('selection');
    expect(paperPanelKind({ isAdmin: false, isMember: false, isTeacher: true })).toBe('management');
    expect(paperPanelKind({ isAdmin: false, isMember: true, isTeacher: false })).toBe('none');
  });
});

describe('CenterSelectionPanel', () => {
  const options = [
    option('own', 'Collège Pascal', 'no', false, true),
    option('pole', 'Lycée Pôle', 'center', false, false, 'Amphi A'),
    option('far', 'Lycée Lointain', 'yes', true),
    option('refuse', 'Collège Refus', 'no', true),
  ];

  it('warns when the own school does not organise the test, and hides extra possibilities behind a button', async () => {
    api.fetchCenterOptions.mockResolvedValue(options);
    api.fetchUserCenter.mockResolvedValue({ registration: null, center: null });
    renderWith(<CenterSelectionPanel chapterId={CHAPTER} />);
    expect(await screen.findByText(folded(OWN_SCHOOL_REFUSES))).toBeTruthy();
    expect(await screen.findByText('marqueur Lycée Pôle')).toBeTruthy();
    expect(screen.queryByText('marqueur Lycée Lointain')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Afficher d’autres possibilités (2)' }));
    expect(await screen.findByText('marqueur Lycée Lointain')).toBeTruthy();
    expect(screen.getByRole('button', { name: HIDE_EXTRA_LABEL })).toBeTruthy();
    // A centre that said no is not clickable.
    fireEvent.click(screen.getByText('marqueur Collège Refus'));
    fireEvent.click(screen.getByText('marqueur Collège Pascal'));
    expect(api.chooseCenter).not.toHaveBeenCalled();
    // Decision 59: a click asks for confirmation first, with the centre's name; only the confirmation registers.
    fireEvent.click(screen.getByText('marqueur Lycée Lointain'));
    expect(await screen.findByRole('dialog', { name: 'Confirmer votre centre d’examen' })).toBeTruthy();
    expect(api.chooseCenter).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Confirmer l’inscription' }));
    await waitFor(() => expect(api.chooseCenter).toHaveBeenCalledWith(CHAPTER, 'far'));
  });

  it('offers the extra centres at once when none of the direct ones can be chosen (decision 141)', async () => {
    // A `global` pupil with no pole centre: every centre is an extra possibility.
    api.fetchCenterOptions.mockResolvedValue([
      option('far', 'Lycée Lointain', 'yes', true),
      option('near', 'Collège Voisin', 'unknown', true),
    ]);
    api.fetchUserCenter.mockResolvedValue({ registration: null, center: null });
    renderWith(<CenterSelectionPanel chapterId={CHAPTER} />);
    expect(await screen.findByText('marqueur Lycée Lointain')).toBeTruthy();
    expect(screen.getByText('marqueur Collège Voisin')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Afficher d’autres possibilités/ })).toBeNull();
    fireEvent.click(screen.getByLabelText('Centre sélectionné', { selector: 'input' }));
    const choices = await screen.findAllByRole('option', { hidden: true });
    expect(choices.map((o) => o.textContent)).toEqual([
      'Lycée Lointain (Centre ouvert)',
      'Collège Voisin (Réponse de l’établissement en attente)',
    ]);
  });

  it('admins see every centre directly, without the button', async () => {
    api.fetchCenterOptions.mockResolvedValue(options.map((o) => ({ ...o, extra: false })));
    api.fetchUserCenter.mockResolvedValue({ registration: null, center: null });
    renderWith(<CenterSelectionPanel chapterId={CHAPTER} />, { isAdmin: true });
    expect(await screen.findByText('marqueur Lycée Lointain')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Afficher d’autres possibilités/ })).toBeNull();
  });

  it('shows the chosen centre’s instructions, or the exact text when there are none', async () => {
    api.fetchCenterOptions.mockResolvedValue(options);
    api.fetchUserCenter.mockResolvedValue({
      registration: { institution: { _id: 'pole', name: 'Lycée Pôle' }, createdAt: '2026-01-01T00:00:00Z' },
      center: options[1],
    });
    const { unmount } = renderWith(<CenterSelectionPanel chapterId={CHAPTER} />);
    expect(await screen.findByText('Amphi A')).toBeTruthy();
    const field = screen.getAllByLabelText('Centre sélectionné').find((e) => e.tagName === 'INPUT') as HTMLInputElement;
    expect(field.value).toContain('Lycée Pôle');
    unmount();
    api.fetchUserCenter.mockResolvedValue({
      registration: { institution: { _id: 'far', name: 'Lycée Lointain' }, createdAt: '2026-01-01T00:00:00Z' },
      center: options[2],
    });
    renderWith(<CenterSelectionPanel chapterId={CHAPTER} />);
    expect(await screen.findByText(NO_INSTRUCTIONS_TEXT)).toBeTruthy();
  });
});

describe('CenterSelectionPanel after a refusal', () => {
  it('tells the pupil which centre turned them away', async () => {
    api.fetchCenterOptions.mockResolvedValue([option('c1', 'Collège Pascal', 'yes')]);
    api.fetchUserCenter.mockResolvedValue({
      registration: null,
      center: null,
      refusals: [{ institution: { _id: 'c1', name: 'Collège Pascal' }, at: '2026-11-24T13:05:00Z' }],
    });
    renderWith(<CenterSelectionPanel chapterId={CHAPTER} />);
    expect(await screen.findByText('Inscription refusée par le centre Collège Pascal')).toBeTruthy();
    expect(screen.getByText(folded(REFUSED_TEXT))).toBeTruthy();
  });
});

describe('CenterManagementPanel', () => {
  const center = (c: Partial<Center> = {}): Center => ({
    institution: { _id: 'own', name: 'Collège Pascal' },
    opened: null,
    instructions: '',
    nb_places: 0,
    isPole: false,
    status: 'unknown',
    members: [],
    details: {
      sittingAt: null,
      address: '1 rue des Écoles',
      room: '',
      bring: 'Stylo',
      defaults: { sittingAt: true, address: true, bring: true },
    },
    own: { sittingAt: null, address: null, room: '', bring: '' },
    stats: { registered: 0, present: 0, absent: 0, copies: 0, pagesSorted: 0 },
    ...c,
  });

  it('shows the exact empty texts and asks the yes/no question first', async () => {
    api.fetchCenter.mockResolvedValue(center());
    renderWith(<CenterManagementPanel chapterId={CHAPTER} userId="me" />, { isTeacher: true });
    expect(await screen.findByText(NO_OWN_PUPILS_TEXT)).toBeTruthy();
    expect(screen.getByText(NO_OUTSIDE_PUPILS_TEXT)).toBeTruthy();
    expect(await screen.findByText('Ouvrir les enveloppes à 9 h.')).toBeTruthy();
    expect(screen.queryByLabelText('Nombre de places pour les élèves extérieurs')).toBeNull();
    fireEvent.click(screen.getByLabelText('Oui'));
    const places = screen.getByLabelText('Nombre de places pour les élèves extérieurs') as HTMLInputElement;
    expect(places.value).toBe('0');
    expect(places.min).toBe('0');
    fireEvent.change(places, { target: { value: '12' } });
    fireEvent.change(screen.getByLabelText('Instructions pour les élèves'), { target: { value: 'Salle 3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() =>
      expect(api.saveCenter).toHaveBeenCalledWith(CHAPTER, {
        opened: true,
        instructions: 'Salle 3',
        nb_places: 12,
        sittingAt: null,
        address: null,
        room: '',
        bring: '',
      }),
    );
  });

  it('lists own and outside pupils separately', async () => {
    const pupil = (id: string, school: string) => ({
      _id: id,
      firstName: 'Ada',
      lastName: id,
      grade: '3eme' as const,
      institution: { _id: school, name: school },
    });
    api.fetchCenter.mockResolvedValue(center({ opened: true, nb_places: 5, members: [pupil('Own1', 'own'), pupil('Ext1', 'other')] }));
    renderWith(<CenterManagementPanel chapterId={CHAPTER} userId="me" />, { isTeacher: true });
    const ownTable = await screen.findByRole('table', { name: 'Élèves de votre établissement' });
    expect(ownTable.textContent).toContain('Own1');
    expect(ownTable.textContent).toContain('3ème');
    expect(screen.getByRole('table', { name: 'Élèves extérieurs' }).textContent).toContain('Ext1');
  });

  it('flags a pupil who moved to the school lately and turns them away after a confirmation', async () => {
    api.refuseRegistration.mockResolvedValue(undefined);
    const members = [
      { _id: 'p1', firstName: 'Ada', lastName: 'Fidèle', grade: '3eme' as const, institution: { _id: 'own', name: 'own' } },
      {
        _id: 'p2',
        firstName: 'Léo',
        lastName: 'Nouveau',
        grade: '3eme' as const,
        institution: { _id: 'own', name: 'own' },
        schoolChange: { at: '2026-11-24T13:05:00Z', previous: { _id: 'x', name: 'Collège Voisin' } },
      },
    ];
    api.fetchCenter.mockResolvedValue(center({ opened: true, nb_places: 0, members }));
    renderWith(<CenterManagementPanel chapterId={CHAPTER} userId="me" />, { isTeacher: true });
    const table = await screen.findByRole('table', { name: 'Élèves de votre établissement' });
    expect(table.textContent).toContain('Depuis le 24 novembre 2026 à 14 h 05 (avant : Collège Voisin)');
    const buttons = screen.getAllByRole('button', { name: 'Refuser' });
    expect(buttons).toHaveLength(1);
    fireEvent.click(buttons[0]);
    expect(api.refuseRegistration).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: 'Refuser l’inscription' }));
    await waitFor(() => expect(api.refuseRegistration).toHaveBeenCalledWith(CHAPTER, 'p2'));
  });

  it('ignores dropped non-PDF files and says which; lists copies with Visualiser', async () => {
    api.fetchCenter.mockResolvedValue(center());
    api.fetchUnlabeled.mockResolvedValue([
      {
        _id: 'u1',
        answer: 'pdfs/abc.pdf',
        institution: null,
        originalName: 'salle3.pdf',
        pages: 2,
        createdAt: '2026-05-01T08:00:00Z',
        labeled: false,
        droppedBlanks: null,
      },
      {
        _id: 'u2',
        answer: 'pdfs/def.pdf',
        institution: null,
        originalName: 'salle4.pdf',
        pages: 6,
        createdAt: '2026-05-01T08:05:00Z',
        labeled: true,
        droppedBlanks: 2,
      },
    ]);
    renderWith(<CenterManagementPanel chapterId={CHAPTER} userId="me" />, { isTeacher: true });
    const link = await screen.findByRole('link', { name: 'Visualiser salle3.pdf' });
    expect(link.getAttribute('href')).toBe('/viewer/pdfs/abc.pdf');
    expect(screen.getByText('À trier')).toBeTruthy();
    expect(screen.getByText('Triée, 2 pages blanches écartées')).toBeTruthy();
    const upload = screen.getByRole('button', { name: 'Téléverser' }) as HTMLButtonElement;
    expect(upload.disabled).toBe(true);
    const zone = screen.getByText(/Déposez ici les copies scannées/).closest('div')!.parentElement!;
    const pdf = new File(['%PDF-1.4'], 'copie.pdf', { type: 'application/pdf' });
    const doc = new File(['x'], 'notes.docx', { type: 'application/msword' });
    fireEvent.drop(zone, { dataTransfer: { files: [pdf, doc] } });
    expect(api.showNotice).toHaveBeenCalledWith('Fichier ignoré (PDF uniquement) : notes.docx', 'yellow');
    expect(screen.getByText('copie.pdf')).toBeTruthy();
    expect(screen.queryByText('notes.docx')).toBeNull();
    expect(upload.disabled).toBe(false);
  });
});
