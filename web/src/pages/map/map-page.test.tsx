import { useEffect } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { selectInstitutionMarkers, withinBounds, type Institution, type InViewResponse } from '@olympe/contract';
import { api, type RequestOptions } from '../../api/client';
import type { SchoolMapProps } from '../../components/SchoolMap';
import { computeRoles } from '../../session/roles';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { makeUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { MapPage } from './map-page';

vi.mock('../../api/client', () => ({ api: { get: vi.fn(), put: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn() } }));

// Leaflet needs a laid-out page (jsdom has none): a stand-in map shows the markers it is given as
// buttons, reports the whole world as the view, and offers a "click on the map" at 45, 3.
vi.mock('../../components/SchoolMap', () => ({
  SchoolMap: (props: SchoolMapProps) => {
    useEffect(() => props.onBoundsChange({ south: -90, west: -180, north: 90, east: 180 }, 2), []);
    return (
      <div>
        <p>{props.markers.length} marqueurs</p>
        <p>{`${props.clusters?.reduce((n, c) => n + c.count, 0) ?? 0} dans des groupes`}</p>
        {props.markers.slice(0, 5).map((m) => (
          <button key={m.item._id} type="button" onClick={() => props.onSelect(m.item)}>
            {`marqueur ${m.item.name}`}
          </button>
        ))}
        <button type="button" onClick={() => props.onMapClick?.(45, 3)}>
          clic sur la carte
        </button>
        {props.draft && <p>{`brouillon ${props.draft.lat},${props.draft.lng}`}</p>}
      </div>
    );
  },
}));

const school = (i: number, confirmed = true): Institution => ({
  _id: `i${i}`,
  name: `Collège ${i}`,
  address: `${i} rue Haute`,
  email: null,
  latitude: 46 + i / 1000,
  longitude: 2,
  confirmed,
});
let list: Institution[] = [];
let geocoderOn = false;
let asAdmin = false;

/** GET /institution/in-view as the server answers it for /map: its 500 rule, the rest in one cluster here. */
function inViewOf(params: Record<string, number | string>): InViewResponse {
  const inView = withinBounds(list, params as never);
  const { markers, tooMany } = selectInstitutionMarkers(inView, asAdmin);
  const rest = inView.length - markers.length;
  const clusters = tooMany && rest > 0 ? [{ latitude: 46, longitude: 2, count: rest, south: 46, west: 2, north: 47, east: 2 }] : [];
  return { total: inView.length, schools: markers, clusters, tooMany };
}
const getCalls = (path: string) => vi.mocked(api.get).mock.calls.filter(([url]) => url === path);

beforeEach(() => {
  vi.clearAllMocks();
  list = [school(1), school(2, false)];
  geocoderOn = false;
  vi.mocked(api.get).mockImplementation(async (url: string, config?: RequestOptions) => {
    if (url === '/institution/in-view') return { data: inViewOf(config!.params as Record<string, number>) };
    if (url === '/config') return { data: { contactEmail: 'c@olympe.test', tileUrl: '', geocoder: geocoderOn } };
    if (url === '/institution/geocode')
      return { data: { results: [{ label: '1 Rue de la République 69001 Lyon', latitude: 45.764, longitude: 4.8357 }] } };
    throw new Error(`unexpected GET ${url}`);
  });
  // The server's list changes with each save, as the next views will show.
  vi.mocked(api.post).mockImplementation(async (_url: string, body: any) => {
    const saved = { ...school(9, false), ...body, _id: 'new' };
    list = [...list, saved];
    return { data: { message: 'ok', institution: saved } };
  });
  vi.mocked(api.patch).mockImplementation(async (url: string, body: any) => {
    const saved = { ...list.find((i) => url.endsWith(i._id))!, ...body };
    list = list.map((i) => (i._id === saved._id ? saved : i));
    return { data: { message: 'ok', institution: saved } };
  });
  vi.mocked(api.delete).mockImplementation(async (url: string) => {
    list = list.filter((i) => !url.endsWith(i._id));
    return { data: { message: 'ok' } };
  });
});

function renderMap(admin: boolean) {
  asAdmin = admin;
  const user = makeUser({ isAdmin: admin });
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', user, roles: computeRoles(user, []) }}>
      <MapPage />
    </SessionContext.Provider>,
  );
}

describe('MapPage (/map)', () => {
  it('adds an institution where the map is clicked', async () => {
    renderMap(false);
    await screen.findByText('2 marqueurs');
    fireEvent.click(screen.getByRole('button', { name: 'clic sur la carte' }));
    expect(screen.getByRole('heading', { name: 'Nouvel établissement' })).toBeTruthy();
    expect(screen.queryByLabelText('Vérifié')).toBeNull();
    fireEvent.change(screen.getByLabelText(/^Nom/), { target: { value: 'Lycée Neuf' } });
    fireEvent.change(screen.getByLabelText('Adresse postale'), { target: { value: '1 place Neuve' } });
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).type).toBe('email');
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(api.post).toHaveBeenCalled());
    expect(vi.mocked(api.post).mock.calls[0]).toEqual([
      '/institution',
      { name: 'Lycée Neuf', address: '1 place Neuve', email: '', latitude: 45, longitude: 3 },
    ]);
    // The saved one is now the selected institution, among the markers at once; then the view is asked again.
    expect(await screen.findByText('3 marqueurs')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Établissement sélectionné' })).toBeTruthy();
    await waitFor(() => expect(getCalls('/institution/in-view')).toHaveLength(2));
    expect(getCalls('/institution/in-view')[0][1]).toEqual({
      params: { south: -90, west: -180, north: 90, east: 180, zoom: 2, map: 'institutions' },
    });
    expect(screen.getByText('3 marqueurs')).toBeTruthy();
    // Never the whole directory.
    expect(getCalls('/institution')).toHaveLength(0);
  });

  it('selects a marker, moves it with a click and saves; admins also set "Vérifié"', async () => {
    renderMap(true);
    fireEvent.click(await screen.findByRole('button', { name: 'marqueur Collège 2' }));
    expect((screen.getByLabelText(/^Nom/) as HTMLInputElement).value).toBe('Collège 2');
    const verified = screen.getByLabelText('Vérifié') as HTMLSelectElement;
    expect([...verified.options].map((o) => o.text)).toEqual(['Oui', 'Non']);
    expect(verified.value).toBe('false');
    fireEvent.change(verified, { target: { value: 'true' } });
    fireEvent.click(screen.getByRole('button', { name: 'clic sur la carte' }));
    expect(screen.getByText('brouillon 45,3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(api.patch).toHaveBeenCalled());
    expect(vi.mocked(api.patch).mock.calls[0]).toEqual([
      '/institution/i2',
      { name: 'Collège 2', address: '2 rue Haute', email: '', latitude: 45, longitude: 3, confirmed: true },
    ]);
  });

  it('lets admins delete after a confirmation, and cancel clears the selection', async () => {
    renderMap(true);
    fireEvent.click(await screen.findByRole('button', { name: 'marqueur Collège 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Supprimer' }));
    expect(api.delete).not.toHaveBeenCalled();
    // The confirmation is asked in a dialog (components/confirm-dialog), which opens after the click.
    fireEvent.click(await screen.findByRole('button', { name: 'Confirmer la suppression' }));
    await waitFor(() => expect(api.delete).toHaveBeenCalledWith('/institution/i1'));
    expect(await screen.findByText('1 marqueurs')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'marqueur Collège 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(screen.getByText('Aucun établissement sélectionné.')).toBeTruthy();
  });

  it('hides delete and "Vérifié" from non-admins', async () => {
    renderMap(false);
    fireEvent.click(await screen.findByRole('button', { name: 'marqueur Collège 1' }));
    expect(screen.queryByRole('button', { name: 'Supprimer' })).toBeNull();
    expect(screen.queryByLabelText('Vérifié')).toBeNull();
  });

  it('above 500 in view: admins get the first 500 unconfirmed, others none, and both are told', async () => {
    list = Array.from({ length: 1200 }, (_, i) => school(i, i % 2 === 0));
    renderMap(true);
    expect(await screen.findByText('500 marqueurs')).toBeTruthy();
    expect(
      screen.getByText(/1 200 établissements dans la zone affichée\s: seuls les 500 premiers en attente de vérification/),
    ).toBeTruthy();
    // The others are drawn as groups with their number (decision 89).
    expect(screen.getByText('700 dans des groupes')).toBeTruthy();
    expect(screen.getByText('Groupe d’établissements : cliquez sur son nombre pour zoomer')).toBeTruthy();
  });

  it('above 500 in view: non-admins see no marker', async () => {
    list = Array.from({ length: 501 }, (_, i) => school(i, false));
    renderMap(false);
    expect(await screen.findByText(/501 établissements dans la zone affichée\s: zoomez/)).toBeTruthy();
    expect(screen.getByText('0 marqueurs')).toBeTruthy();
    expect(screen.getByText('501 dans des groupes')).toBeTruthy();
  });

  it('places a new school with the keyboard : « Latitude » and « Longitude » with a decimal comma', async () => {
    renderMap(false);
    await screen.findByText('2 marqueurs');
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter un établissement' }));
    expect(screen.getByRole('heading', { name: 'Nouvel établissement' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Nom/), { target: { value: 'Lycée Clavier' } });
    // Not placed yet: saving says what to do first.
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(/Placez d’abord l’établissement/)).toBeTruthy();
    expect(api.post).not.toHaveBeenCalled();
    // A typo is refused in French, and nothing moves.
    fireEvent.change(screen.getByLabelText('Latitude'), { target: { value: '48,85,66' } });
    fireEvent.change(screen.getByLabelText('Longitude'), { target: { value: '2,3522' } });
    fireEvent.click(screen.getByRole('button', { name: 'Placer sur la carte' }));
    expect(screen.getByText('La latitude doit être un nombre entre -90 et 90, par exemple 48,8566.')).toBeTruthy();
    expect(screen.queryByText(/^brouillon/)).toBeNull();
    fireEvent.change(screen.getByLabelText('Latitude'), { target: { value: '48,8566' } });
    fireEvent.click(screen.getByRole('button', { name: 'Placer sur la carte' }));
    expect(screen.getByText('brouillon 48.8566,2.3522')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(api.post).toHaveBeenCalled());
    expect(vi.mocked(api.post).mock.calls[0]).toEqual([
      '/institution',
      { name: 'Lycée Clavier', address: '', email: '', latitude: 48.8566, longitude: 2.3522 },
    ]);
  });

  it('moving a verified school asks first, names it and the distance ; « Annuler » keeps it where it was', async () => {
    renderMap(true);
    fireEvent.click(await screen.findByRole('button', { name: 'marqueur Collège 1' }));
    expect((screen.getByLabelText('Latitude') as HTMLInputElement).value).toBe('46,001');
    fireEvent.click(screen.getByRole('button', { name: 'clic sur la carte' }));
    const dialog = await screen.findByRole('dialog', { name: 'Déplacer un établissement vérifié' });
    expect(dialog.textContent).toContain('Déplacer l’établissement «\u202fCollège 1\u202f» de 136\u00a0km\u202f?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('brouillon 46.001,2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Annuler le déplacement' })).toBeNull();
  });

  it('« Déplacer » moves it ; « Annuler le déplacement » puts it back, saving again once the move was saved', async () => {
    renderMap(true);
    fireEvent.click(await screen.findByRole('button', { name: 'marqueur Collège 1' }));
    // Typed coordinates of a verified school are confirmed too.
    fireEvent.change(screen.getByLabelText('Latitude'), { target: { value: '45' } });
    fireEvent.change(screen.getByLabelText('Longitude'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Placer sur la carte' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Déplacer' }));
    expect(await screen.findByText('brouillon 45,3')).toBeTruthy();
    // Undo before saving: back where it was, nothing sent.
    fireEvent.click(screen.getByRole('button', { name: 'Annuler le déplacement' }));
    expect(screen.getByText('brouillon 46.001,2')).toBeTruthy();
    expect((screen.getByLabelText('Latitude') as HTMLInputElement).value).toBe('46,001');
    expect(api.patch).not.toHaveBeenCalled();
    // Move, save, then undo: the former position is saved again.
    fireEvent.click(screen.getByRole('button', { name: 'clic sur la carte' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Déplacer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(api.patch).toHaveBeenCalledTimes(1));
    expect(vi.mocked(api.patch).mock.calls[0][1]).toMatchObject({ latitude: 45, longitude: 3 });
    fireEvent.click(await screen.findByRole('button', { name: 'Annuler le déplacement' }));
    await waitFor(() => expect(api.patch).toHaveBeenCalledTimes(2));
    expect(vi.mocked(api.patch).mock.calls[1]).toEqual(['/institution/i1', { latitude: 46.001, longitude: 2 }]);
    expect(screen.getByText('brouillon 46.001,2')).toBeTruthy();
  });

  it('the address search exists only when the server has a geocoder, and places the school', async () => {
    renderMap(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Ajouter un établissement' }));
    expect(screen.queryByLabelText('Rechercher une adresse')).toBeNull();
  });

  it('with a geocoder: a found address places the school and fills an empty address', async () => {
    geocoderOn = true;
    renderMap(false);
    await screen.findByText('2 marqueurs');
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter un établissement' }));
    fireEvent.change(await screen.findByLabelText('Rechercher une adresse'), { target: { value: 'rue de la République Lyon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Chercher' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Placer ici : 1 Rue de la République 69001 Lyon' }));
    expect(vi.mocked(api.get)).toHaveBeenCalledWith('/institution/geocode', { params: { q: 'rue de la République Lyon' } });
    expect(screen.getByText('brouillon 45.764,4.8357')).toBeTruthy();
    expect((screen.getByLabelText('Adresse postale') as HTMLInputElement).value).toBe('1 Rue de la République 69001 Lyon');
    expect((screen.getByLabelText('Longitude') as HTMLInputElement).value).toBe('4,8357');
  });
});
