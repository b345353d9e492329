import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NAME_FORBIDDEN_CHARACTER_MESSAGE,
  normalizeText,
  withinBounds,
  type GroupSummary,
  type Institution,
  type InViewResponse,
  type User,
} from '@olympe/contract';
import type { RequestOptions } from '../../api/client';
import { api } from '../../api/client';
import { computeRoles } from '../../session/roles';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { makeUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { ProfilePage } from './profile-page';
import { PENDING_CONFIRMATION, STAFF_SCHOOL_HINT } from './profile-fields';
import { requiredFields, updateOf, valuesOf } from './profile-form';
import { folded } from '../../test/text';

vi.mock('../../api/client', () => ({ api: { get: vi.fn(), put: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn() } }));

const SCHOOLS: Institution[] = [
  {
    _id: '00000000-0000-4000-8000-000000000010',
    name: 'Instruction en famille',
    address: '',
    email: null,
    latitude: null,
    longitude: null,
    confirmed: true,
  },
  {
    _id: 'i1',
    name: 'Collège Pascal',
    address: '1 rue Pascal, 63000 Clermont-Ferrand',
    email: null,
    latitude: 45.77,
    longitude: 3.08,
    confirmed: true,
  },
  {
    _id: 'i2',
    name: 'Collège Émile Zola',
    address: '12 rue de la Paix, 75002 Paris',
    email: null,
    latitude: 48.86,
    longitude: 2.33,
    confirmed: true,
  },
  {
    _id: 'i3',
    name: 'Lycée Sainte-Hélène',
    address: '3 avenue Foch, 69006 Lyon',
    email: null,
    latitude: 45.76,
    longitude: 4.84,
    confirmed: false,
  },
];

/** What GET /institution/in-view answers next, given the view asked for (by default: the schools in it). */
let inViewAnswer: (params: Record<string, number | string>) => InViewResponse;
const inViewCalls = () =>
  vi
    .mocked(api.get)
    .mock.calls.filter(([url]) => url === '/institution/in-view')
    .map(([, config]) => config?.params as Record<string, number>);

beforeEach(() => {
  vi.mocked(api.get).mockClear();
  inViewAnswer = (params) => {
    const schools = withinBounds(SCHOOLS, params as never);
    return { total: schools.length, schools, clusters: [], tooMany: false };
  };
  vi.mocked(api.get).mockImplementation(async (url: string, config?: RequestOptions) => {
    if (url === '/institution/in-view') return { data: inViewAnswer(config?.params as Record<string, number>) };
    const one = /^\/institution\/([\w-]+)$/.exec(url);
    if (one && one[1] !== 'search') {
      const school = SCHOOLS.find((i) => i._id === one[1]);
      if (!school) throw new Error('404');
      return { data: school };
    }
    if (url === '/institution/search') {
      // The server's search, as far as these tests need it: every word in the name or the address.
      const words = normalizeText(String((config?.params as { q?: string } | undefined)?.q ?? ''))
        .split(' ')
        .filter(Boolean);
      const results = SCHOOLS.filter((i) => words.every((w) => normalizeText(`${i.name} ${i.address}`).includes(w))).map((i) => ({
        ...i,
        uai: null,
      }));
      return { data: { results, more: false } };
    }
    if (url === '/config') return { data: { contactEmail: 'c@olympe.test', tileUrl: '' } };
    throw new Error(`unexpected GET ${url}`);
  });
  vi.mocked(api.put).mockImplementation(async (_url: string, body: unknown) => ({ data: { ...makeUser(), ...(body as object) } }));
});

function renderProfile(user: User, groups: GroupSummary[] = [], reload = vi.fn(async () => {})) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', user, groups, roles: computeRoles(user, groups), reload }}>
      <ProfilePage />
    </SessionContext.Provider>,
  );
  return { reload };
}

const isMarkedRequired = (label: string) =>
  !!screen.getByText(label, { selector: 'label, label *' }).closest('label')?.textContent?.includes('*');

describe('ProfilePage', () => {
  it.each([
    ['Administrateur', { isAdmin: true, isMember: true }, []],
    ['Correcteur', {}, [{ _id: 'g', name: 'members' }]],
    ['Personnel scolaire', { isTeacher: true }, []],
  ] as const)('shows the tag "%s"', (tag, flags, groups) => {
    renderProfile(makeUser(flags), [...groups]);
    expect(screen.getByRole('heading', { name: 'Mon profil' })).toBeTruthy();
    expect(screen.getByText(tag)).toBeTruthy();
  });

  it('gives pupils no tag and shows the main e-mail read-only', () => {
    renderProfile(makeUser());
    for (const tag of ['Administrateur', 'Correcteur', 'Personnel scolaire']) expect(screen.queryByText(tag)).toBeNull();
    const email = screen.getByLabelText('E-mail principal') as HTMLInputElement;
    expect(email.value).toBe('eleve@example.fr');
    expect(email.readOnly).toBe(true);
    expect(screen.getByText(/uniquement à l’envoi des e-mails de réinitialisation/)).toBeTruthy();
  });

  it('sends logged-out visitors to /login', () => {
    renderWithProviders(<ProfilePage />, { targets: { '/login': 'Page de connexion' } });
    expect(screen.getByText('Page de connexion')).toBeTruthy();
  });

  it('marks pupil-only fields required for pupils, not for teachers or members', () => {
    const pupilOnly = ['Genre', 'Date de naissance', 'Classe', 'E-mail d’un parent', 'Choix par défaut du centre d’examen'];
    renderProfile(makeUser());
    for (const label of ['Prénom', 'Nom', 'Établissement', ...pupilOnly]) expect(isMarkedRequired(label), label).toBe(true);
    for (const label of ['E-mail de l’élève', 'E-mail de l’autre parent']) expect(isMarkedRequired(label), label).toBe(false);
  });

  it.each([
    ['teacher', { isTeacher: true }],
    ['member', { isMember: true }],
  ] as const)('marks only name and school required for a %s', (_role, flags) => {
    renderProfile(makeUser(flags));
    // A teacher's school is read-only (their staff rights follow it): only an admin changes it.
    const required = _role === 'teacher' ? ['Prénom', 'Nom'] : ['Prénom', 'Nom', 'Établissement'];
    for (const label of required) expect(isMarkedRequired(label), label).toBe(true);
    expect(!!screen.queryByText(folded(STAFF_SCHOOL_HINT))).toBe(_role === 'teacher');
    expect(isMarkedRequired('Genre')).toBe(false);
    // docs/product.md#spec-2-profile: pupil-only fields are not even shown to staff and correctors.
    for (const label of [
      'Date de naissance',
      'Classe',
      'E-mail d’un parent',
      'E-mail de l’autre parent',
      'Choix par défaut du centre d’examen',
    ]) {
      expect(screen.queryByLabelText(new RegExp(`^${label}`)), label).toBeNull();
    }
    expect(screen.queryByText(/instruits en famille/)).toBeNull();
  });

  it('says what is missing for the profile to be complete', () => {
    renderProfile(makeUser({ firstName: null, grade: null, emailParent: null }));
    expect(screen.getByText(/Pour accéder aux épreuves, complétez\s: Prénom, Classe, E-mail d’un parent\./)).toBeTruthy();
  });

  it('says « en attente de confirmation » beside a family address not confirmed yet, until it is changed (decision 134)', () => {
    renderProfile(makeUser({ emailParent: 'maman@exemple.fr', emailOtherParent: 'papa@exemple.fr', pendingEmails: ['maman@exemple.fr'] }));
    const parent = screen.getByLabelText(/^E-mail d’un parent/);
    expect(parent.getAttribute('aria-describedby') ?? '').not.toBe('');
    expect(screen.getAllByText(folded(PENDING_CONFIRMATION))).toHaveLength(1);
    expect(document.getElementById(parent.getAttribute('aria-describedby')!.split(' ')[0])?.textContent).toMatch(
      /En attente de confirmation/,
    );
    // The confirmed address has no such note; a new address being typed is not the pending one.
    fireEvent.change(parent, { target: { value: 'autre@exemple.fr' } });
    expect(screen.queryByText(folded(PENDING_CONFIRMATION))).toBeNull();
  });

  it('refuses a name with an invisible or control character, in French, without sending anything (decision 134)', async () => {
    renderProfile(makeUser());
    fireEvent.change(screen.getByLabelText(/^Prénom/), { target: { value: 'Ali\u202Ece' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(folded(NAME_FORBIDDEN_CHARACTER_MESSAGE))).toBeTruthy();
    expect(api.put).not.toHaveBeenCalled();
  });

  it('shows a refused field next to it, in French, without sending anything', async () => {
    renderProfile(makeUser());
    fireEvent.change(screen.getByLabelText(/^E-mail d’un parent/), { target: { value: 'pas-une-adresse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Adresse e-mail invalide.')).toBeTruthy();
    expect(screen.getByLabelText(/^E-mail d’un parent/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/emailParent/)).toBeNull();
    expect(api.put).not.toHaveBeenCalled();
  });

  it('shows the grades with their French labels and the saved values', () => {
    renderProfile(makeUser({ grade: 'Tale', gender: 'other' }));
    const grade = screen.getByLabelText(/Classe/) as HTMLSelectElement;
    expect([...grade.options].map((o) => o.text)).toEqual(['—', '5ème', '4ème', '3ème', '2nde', '1ère', 'Terminale', 'Autre']);
    expect(grade.value).toBe('Tale');
    expect((screen.getByLabelText(/Genre/) as HTMLSelectElement).value).toBe('other');
    expect((screen.getByLabelText(/Date de naissance/) as HTMLInputElement).value).toBe('01/05/2010');
  });

  it('saves every field through PUT /auth/me, empty ones as null, then reloads the session', async () => {
    const { reload } = renderProfile(makeUser({ emailStudent: null }));
    fireEvent.change(screen.getByLabelText(/^Prénom/), { target: { value: ' Ada ' } });
    fireEvent.change(screen.getByLabelText(/Classe/), { target: { value: '2nde' } });
    fireEvent.change(screen.getByLabelText(/E-mail de l’autre parent/), { target: { value: '' } });
    fireEvent.click(screen.getByLabelText('Recevoir les rappels par e-mail'));
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(api.put).toHaveBeenCalled());
    expect(vi.mocked(api.put).mock.calls[0].slice(0, 2)).toEqual([
      '/auth/me',
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        emailStudent: null,
        emailParent: 'parent@example.fr',
        emailOtherParent: null,
        birthDate: '2010-05-01',
        gender: 'female',
        grade: '2nde',
        defaultChoice: 'local',
        emailNotifications: false,
        institution: 'i1',
      },
    ]);
    await waitFor(() => expect(reload).toHaveBeenCalled());
  });

  it('filters schools by name or address ignoring accents and case, and selects one', async () => {
    renderProfile(makeUser({ institution: null }));
    const school = screen.getByLabelText(/^Établissement/) as HTMLInputElement;
    expect(school.value).toBe('');
    fireEvent.change(screen.getByLabelText('Rechercher un établissement'), { target: { value: 'EMILE' } });
    const results = await screen.findByRole('list', { name: 'Résultats de la recherche' }, { timeout: 2000 });
    expect(
      within(results)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Collège Émile Zola — 12 rue de la Paix, 75002 Paris']);
    fireEvent.click(within(results).getByRole('button'));
    expect(school.value).toBe('Collège Émile Zola');

    fireEvent.change(screen.getByLabelText('Rechercher un établissement'), { target: { value: 'lyon' } });
    await waitFor(() => expect(screen.getByText('Lycée Sainte-Hélène')).toBeTruthy(), { timeout: 2000 });
  });

  it('offers the home-schooling entry with its note, found by its id, not in a list of every school', async () => {
    renderProfile(makeUser({ institution: null }));
    expect(screen.getByText(/instruits en famille choisissent l’entrée spéciale «\sInstruction en famille\s»/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Choisir « Instruction en famille »' }));
    expect((screen.getByLabelText(/^Établissement/) as HTMLInputElement).value).toBe('Instruction en famille');
    expect(api.get).toHaveBeenCalledWith('/institution/00000000-0000-4000-8000-000000000010', { skipNotifications: true });
    expect(api.get).not.toHaveBeenCalledWith('/institution', expect.anything());
    expect(vi.mocked(api.get).mock.calls.map(([url]) => url)).not.toContain('/institution');
  });

  it('opens the map on the pupil’s school: it asks the server for that view only, at street zoom', async () => {
    renderProfile(makeUser());
    expect(await screen.findByText('1 établissement affiché sur la carte.', {}, { timeout: 5000 })).toBeTruthy();
    expect(api.get).toHaveBeenCalledWith('/institution/i1', { skipNotifications: true });
    const [first] = inViewCalls();
    expect(first).toMatchObject({ map: 'profile', zoom: 16 });
    expect(first.south).toBeLessThanOrEqual(45.77);
    expect(first.north).toBeGreaterThanOrEqual(45.77);
    expect(first.west).toBeLessThanOrEqual(3.08);
    expect(first.east).toBeGreaterThanOrEqual(3.08);
    // One view, one request: never France first, never the whole directory.
    expect(inViewCalls()).toHaveLength(1);
    expect(vi.mocked(api.get).mock.calls.map(([url]) => url)).not.toContain('/institution');
  });

  it('without a school the map opens on France; above 100 schools it says how many and draws clusters that zoom in', async () => {
    inViewAnswer = (params) =>
      Number(params.zoom) <= 5
        ? {
            total: 70_001,
            schools: [],
            clusters: [
              { latitude: 48.86, longitude: 2.35, count: 1240, south: 48.6, west: 2, north: 49, east: 2.7 },
              { latitude: 45.76, longitude: 4.84, count: 1, south: 45.76, west: 4.84, north: 45.76, east: 4.84 },
            ],
            tooMany: true,
          }
        : { total: 1, schools: [SCHOOLS[2]], clusters: [], tooMany: false };
    renderProfile(makeUser({ institution: null }));
    // Thousands apart by a narrow no-break space, which the text matcher reads as a space.
    expect(
      await screen.findByText(
        '70 001 établissements dans la zone affichée : zoomez ou précisez la recherche pour voir les marqueurs (100 au plus).',
        {},
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    expect(inViewCalls()[0]).toMatchObject({ map: 'profile', zoom: 5 });
    expect(screen.getByText('Groupe d’établissements : cliquez sur son nombre pour zoomer')).toBeTruthy();
    const cluster = await screen.findByRole('button', { name: '1\u202f240 établissements ici : zoomer' });
    expect(screen.getByRole('button', { name: '1 établissement ici : zoomer' })).toBeTruthy();
    fireEvent.keyDown(cluster, { key: 'Enter' });
    await waitFor(() => expect(inViewCalls().some((p) => Number(p.zoom) > 5)).toBe(true), { timeout: 2000 });
  });
});

describe('profile form helpers', () => {
  it('round-trips a user into the PUT /auth/me payload', () => {
    const user = makeUser({ emailOtherParent: 'autre@example.fr', birthDate: '2010-05-01' });
    expect(updateOf(valuesOf(user))).toMatchObject({ emailOtherParent: 'autre@example.fr', institution: 'i1', birthDate: '2010-05-01' });
    expect(updateOf({ ...valuesOf(user), gender: '', institution: null })).toMatchObject({ gender: null, institution: null });
  });

  it('requires pupil fields only from users neither teacher nor member', () => {
    expect(requiredFields({ isTeacher: false, isMember: false }).grade).toBe(true);
    expect(requiredFields({ isTeacher: true, isMember: false }).grade).toBe(false);
    expect(requiredFields({ isTeacher: false, isMember: true }).emailParent).toBe(false);
    expect(requiredFields({ isTeacher: true, isMember: true }).firstName).toBe(true);
  });
});
