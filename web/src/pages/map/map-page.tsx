import { Suspense, useMemo, useState, type FormEvent } from 'react';
import { Alert, Button, Center, Group, Loader, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { distanceMetres, formatCoordinate, formatDistance, inFrance, parseCoordinate } from './coordinates';
import { LoginRedirect } from '../../components/login-gate';
import { spreadSameLocation, INSTITUTION_MAP_MAX_MARKERS, type Institution } from '@olympe/contract';
import {
  useDeleteInstitution,
  useGeocode,
  useInstitutionsInView,
  usePublicConfig,
  useSaveInstitution,
  useSchoolSearch,
  type MapView,
} from '../../api/institutions';
import { SchoolMap } from '../../components/SchoolMap';
import { SchoolSearch } from '../../components/school-search';
import { MarkerLegend } from '../../components/SchoolMap/legend';
import { useSession } from '../../session/session-context';
import { PageHeading } from '../../components/page-heading';
import { frenchNumber } from '@olympe/contract/typography';

/** The form of the selected institution; `_id` null: a new one, not yet saved. */
/** How close the map goes to a school found by the search. */
const FOCUS_ZOOM = 16;

interface Draft {
  _id: string | null;
  name: string;
  address: string;
  email: string;
  confirmed: boolean;
  /** Verified as saved (not the form's « Vérifié »): moving it asks first (decision 88). */
  savedConfirmed: boolean;
  /** Null: a new school added with the keyboard, not placed yet. */
  lat: number | null;
  lng: number | null;
  /** The « Latitude » / « Longitude » fields as typed. */
  latText: string;
  lngText: string;
}

interface Position {
  lat: number;
  lng: number;
}

/** The last move of a placed school, which « Annuler le déplacement » reverts (saved again if the move was). */
interface Undo {
  id: string | null;
  from: Position;
  saved: boolean;
}

const textOf = (v: number | null) => (v === null ? '' : formatCoordinate(v));

const draftOf = (i: Institution): Draft => ({
  _id: i._id,
  name: i.name,
  address: i.address,
  email: i.email ?? '',
  confirmed: i.confirmed,
  savedConfirmed: i.confirmed,
  lat: i.latitude,
  lng: i.longitude,
  latText: textOf(i.latitude),
  lngText: textOf(i.longitude),
});

const newDraft = (at: Position | null): Draft => ({
  _id: null,
  name: '',
  address: '',
  email: '',
  confirmed: false,
  savedConfirmed: false,
  lat: at?.lat ?? null,
  lng: at?.lng ?? null,
  latText: textOf(at?.lat ?? null),
  lngText: textOf(at?.lng ?? null),
});

const positionOf = (d: Draft): Position | null => (d.lat === null || d.lng === null ? null : { lat: d.lat, lng: d.lng });

/** docs/product.md#spec-2 "Institutions map (/map)": click to add or move, a popup per marker, a form, save and cancel. */
export function MapPage() {
  const { token, roles } = useSession();
  const { data: config } = usePublicConfig();
  const [view, setView] = useState<MapView | null>(null);
  // The schools of the view (decision 89): at most 500 markers, clusters for the rest.
  const inView = useInstitutionsInView(view, 'institutions');
  const data = inView.data;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [focus, setFocus] = useState<{ lat: number; lng: number; zoom?: number } | null>(null);
  const [coordinateErrors, setCoordinateErrors] = useState<{ lat?: string; lng?: string; position?: string }>({});
  /** A move of a verified school waiting for « Déplacer » in the dialog. */
  const [pendingMove, setPendingMove] = useState<{ to: Position; focus: boolean; extra?: Partial<Draft> } | null>(null);
  const [undo, setUndo] = useState<Undo | null>(null);
  const [address, setAddress] = useState('');
  const schoolSearch = useSchoolSearch();
  const geocoder = useGeocode();
  const isAdmin = roles.isAdmin;

  const placed = useMemo(() => spreadSameLocation(data?.schools ?? []), [data]);

  const save = useSaveInstitution((saved) => {
    setDraft(draftOf(saved));
    // A move now saved: undoing it saves the former position again.
    setUndo((u) => (u && (u.id === saved._id || u.id === null) ? { ...u, id: saved._id, saved: true } : u));
  });
  const remove = useDeleteInstitution({ onDeleted: () => setDraft(null), onSettled: () => setConfirmDelete(false) });

  if (!token) return <LoginRedirect />;

  const select = (i: Institution) => {
    setConfirmDelete(false);
    setCoordinateErrors({});
    setUndo(null);
    geocoder.reset();
    setDraft(draftOf(i));
  };
  // A school found by the search is selected and the map goes to it (decision 67).
  const found = (i: Institution) => {
    select(i);
    if (i.latitude !== null && i.longitude !== null) setFocus({ lat: i.latitude, lng: i.longitude, zoom: FOCUS_ZOOM });
  };
  /** Puts the selected school at `to`; the position it leaves can be restored. */
  const applyMove = (to: Position, follow: boolean, extra: Partial<Draft> = {}) => {
    if (!draft) return;
    const from = positionOf(draft);
    if (from) setUndo({ id: draft._id, from, saved: false });
    setCoordinateErrors({});
    setDraft({ ...draft, ...extra, lat: to.lat, lng: to.lng, latText: formatCoordinate(to.lat), lngText: formatCoordinate(to.lng) });
    if (follow) setFocus({ ...to });
  };
  /** Moving a verified school asks first (decision 88): a stray click must not send it far away. */
  const requestMove = (to: Position, follow: boolean, extra?: Partial<Draft>) => {
    if (!draft) return;
    const from = positionOf(draft);
    if (draft._id && draft.savedConfirmed && from && (from.lat !== to.lat || from.lng !== to.lng)) setPendingMove({ to, focus: follow, extra });
    else applyMove(to, follow, extra);
  };
  const revertMove = () => {
    if (!undo || !draft) return;
    const { from } = undo;
    setUndo(null);
    setCoordinateErrors({});
    setDraft({ ...draft, lat: from.lat, lng: from.lng, latText: formatCoordinate(from.lat), lngText: formatCoordinate(from.lng) });
    setFocus({ ...from });
    if (undo.saved && draft._id) save.mutate({ id: draft._id, body: { latitude: from.lat, longitude: from.lng } });
  };
  // A click adds a new institution there, or moves the selected one.
  const clickMap = (lat: number, lng: number) => {
    setConfirmDelete(false);
    if (draft) requestMove({ lat, lng }, false);
    else {
      setUndo(null);
      setDraft(newDraft({ lat, lng }));
    }
  };
  // Without the mouse: a new school whose position is typed or found by its address.
  const addByKeyboard = () => {
    setConfirmDelete(false);
    setCoordinateErrors({});
    setUndo(null);
    geocoder.reset();
    setDraft(newDraft(null));
  };
  const placeTyped = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    const lat = parseCoordinate(draft.latText, 'latitude');
    const lng = parseCoordinate(draft.lngText, 'longitude');
    if (!lat.ok || !lng.ok) {
      setCoordinateErrors({ lat: lat.ok ? undefined : lat.reason, lng: lng.ok ? undefined : lng.reason });
      return;
    }
    requestMove({ lat: lat.value, lng: lng.value }, true);
  };
  const searchAddress = (e: FormEvent) => {
    e.preventDefault();
    if (address.trim().length >= 3) geocoder.mutate(address.trim());
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    const at = positionOf(draft);
    if (!at) {
      setCoordinateErrors({ position: 'Placez d’abord l’établissement : cliquez sur la carte, ou saisissez sa latitude et sa longitude.' });
      return;
    }
    const fields = { name: draft.name, address: draft.address, email: draft.email, latitude: at.lat, longitude: at.lng };
    const body = isAdmin ? { ...fields, confirmed: draft.confirmed } : fields;
    save.mutate(draft._id === null ? { id: null, body } : { id: draft._id, body });
  };
  const cancel = () => {
    setConfirmDelete(false);
    setCoordinateErrors({});
    setUndo(null);
    setDraft(null);
  };
  const draftAt = draft ? positionOf(draft) : null;
  const undoable = undo && draft && undo.id === draft._id ? undo : null;

  const total = (data ? frenchNumber(data.total) : undefined);
  const status = !data
    ? inView.isError
      ? 'Les établissements de la carte n’ont pas pu être chargés : déplacez la carte pour réessayer.'
      : 'Chargement des établissements…'
    : data.tooMany
      ? isAdmin
        ? `${total} établissements dans la zone affichée : seuls les ${placed.length} premiers en attente de vérification sont affichés (${INSTITUTION_MAP_MAX_MARKERS} au plus). Zoomez pour voir les autres.`
        : `${total} établissements dans la zone affichée : zoomez pour voir les marqueurs (${INSTITUTION_MAP_MAX_MARKERS} au plus).`
      : `${placed.length} établissement${placed.length > 1 ? 's' : ''} affiché${placed.length > 1 ? 's' : ''} sur la carte.`;

  return (
    <Stack>
      <PageHeading>Établissements</PageHeading>
      <Text size="sm">
        Cliquez sur la carte pour ajouter un établissement, ou sur un marqueur pour le sélectionner ; un clic sur la carte
        déplace alors l’établissement sélectionné. Sans souris, ajoutez-le avec le bouton ci-dessous puis saisissez sa
        latitude et sa longitude.
      </Text>
      <Group>
        <Button variant="light" onClick={addByKeyboard}>
          Ajouter un établissement
        </Button>
      </Group>
      <SchoolSearch search={schoolSearch} onChoose={found} selectedId={draft?._id ?? null} />
      <Text size="sm" aria-live="polite">
        {status}
      </Text>
      <MarkerLegend clusters={(data?.clusters.length ?? 0) > 0} />
      <Suspense
        fallback={
          <Center h={480}>
            <Loader role="status" aria-label="Chargement de la carte" />
          </Center>
        }
      >
        <SchoolMap
          label="Carte des établissements"
          height={480}
          tileUrl={config?.tileUrl ?? ''}
          markers={placed}
          clusters={data?.clusters}
          selectedId={draft?._id ?? null}
          draft={draftAt}
          onBoundsChange={(bounds, zoom) => setView({ ...bounds, zoom })}
          onSelect={select}
          onMapClick={clickMap}
          focus={focus}
          renderPopup={(i) => (
            <>
              <strong>{i.name}</strong>
              {i.address && <div>{i.address}</div>}
              {i.email && <div>{i.email}</div>}
              <div>{i.confirmed ? 'Vérifié' : 'En attente de vérification'}</div>
            </>
          )}
        />
      </Suspense>
      {draft ? (
        <Stack maw={560}>
          <Title order={2} size="h3">
            {draft._id ? 'Établissement sélectionné' : 'Nouvel établissement'}
          </Title>
          <form onSubmit={placeTyped} aria-label="Position de l’établissement" noValidate>
            <Stack gap="xs">
              <Group align="flex-start" grow>
                <TextInput
                  label="Latitude"
                  description="Par exemple 48,8566"
                  inputMode="decimal"
                  autoComplete="off"
                  value={draft.latText}
                  error={coordinateErrors.lat}
                  onChange={(e) => setDraft({ ...draft, latText: e.currentTarget.value })}
                />
                <TextInput
                  label="Longitude"
                  description="Par exemple 2,3522"
                  inputMode="decimal"
                  autoComplete="off"
                  value={draft.lngText}
                  error={coordinateErrors.lng}
                  onChange={(e) => setDraft({ ...draft, lngText: e.currentTarget.value })}
                />
              </Group>
              <Group>
                <Button type="submit" variant="light">
                  Placer sur la carte
                </Button>
              </Group>
              <div aria-live="polite">
                {coordinateErrors.position && (
                  <Text size="sm" c="red.8">
                    {coordinateErrors.position}
                  </Text>
                )}
                {draftAt && !inFrance(draftAt.lat, draftAt.lng) && (
                  // orange.9 on white is 4.3:1, under AA for small text (axe, profile journey): the darkest red is 6:1.
                  <Text size="sm" c="red.9">
                    Cette position est hors de France et de ses territoires d’outre-mer : vérifiez la latitude et la
                    longitude (inversées ?).
                  </Text>
                )}
              </div>
              {undoable && (
                <Alert variant="light" color="blue" aria-live="polite">
                  <Group justify="space-between">
                    <Text size="sm">Établissement déplacé{undoable.saved ? ' et enregistré' : ''}.</Text>
                    <Button size="xs" variant="default" onClick={revertMove}>
                      Annuler le déplacement
                    </Button>
                  </Group>
                </Alert>
              )}
            </Stack>
          </form>
          {config?.geocoder && (
            <form onSubmit={searchAddress} aria-label="Recherche d’adresse">
              <Stack gap="xs">
                <Group align="flex-end">
                  <TextInput
                    label="Rechercher une adresse"
                    description="La position trouvée place l’établissement sur la carte."
                    style={{ flex: 1 }}
                    value={address}
                    onChange={(e) => setAddress(e.currentTarget.value)}
                  />
                  <Button type="submit" variant="light" loading={geocoder.isPending} disabled={address.trim().length < 3}>
                    Chercher
                  </Button>
                </Group>
                {geocoder.data && (
                  <div aria-live="polite">
                    {geocoder.data.results.length === 0 ? (
                      <Text size="sm">Aucune adresse trouvée.</Text>
                    ) : (
                      <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                        {geocoder.data.results.map((r) => (
                          <li key={`${r.label}:${r.latitude}:${r.longitude}`}>
                            <Button
                              variant="subtle"
                              size="compact-sm"
                              onClick={() => {
                                // An empty address takes the one found.
                                requestMove({ lat: r.latitude, lng: r.longitude }, true, draft.address.trim() ? {} : { address: r.label });
                              }}
                            >
                              {`Placer ici : ${r.label}`}
                            </Button>
                          </li>
                        ))}
                      </Stack>
                    )}
                  </div>
                )}
              </Stack>
            </form>
          )}
        <form onSubmit={submit} aria-label="Établissement sélectionné">
          <Stack>
            <TextInput label="Nom" required value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
            <TextInput
              label="Adresse postale"
              value={draft.address}
              onChange={(e) => setDraft({ ...draft, address: e.currentTarget.value })}
            />
            <TextInput
              label="E-mail"
              type="email"
              value={draft.email}
              onChange={(e) => setDraft({ ...draft, email: e.currentTarget.value })}
            />
            {isAdmin && draft._id && (
              <NativeSelect
                label="Vérifié"
                data={[
                  { value: 'true', label: 'Oui' },
                  { value: 'false', label: 'Non' },
                ]}
                value={String(draft.confirmed)}
                onChange={(e) => setDraft({ ...draft, confirmed: e.currentTarget.value === 'true' })}
              />
            )}
            <Group>
              <Button type="submit" loading={save.isPending}>
                Enregistrer
              </Button>
              <Button variant="default" onClick={cancel}>
                Annuler
              </Button>
              {isAdmin && draft._id && !confirmDelete && (
                <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
                  Supprimer
                </Button>
              )}
              {isAdmin && draft._id && confirmDelete && (
                <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(draft._id!)}>
                  Confirmer la suppression
                </Button>
              )}
            </Group>
          </Stack>
        </form>
        </Stack>
      ) : (
        <Alert variant="light" color="gray">
          Aucun établissement sélectionné.
        </Alert>
      )}
      <ConfirmDialog
        opened={pendingMove !== null}
        title="Déplacer un établissement vérifié"
        message={pendingMove && draft && draftAt ? moveQuestion(draft.name, distanceMetres(draftAt, pendingMove.to)) : ''}
        confirmLabel="Déplacer"
        onCancel={() => {
          setPendingMove(null);
          // The fields show where the school stays, not the refused coordinates.
          if (draft) setDraft({ ...draft, latText: textOf(draft.lat), lngText: textOf(draft.lng) });
        }}
        onConfirm={() => {
          if (pendingMove) applyMove(pendingMove.to, pendingMove.focus, pendingMove.extra);
          setPendingMove(null);
        }}
      />
    </Stack>
  );
}

/** « Déplacer l’établissement « Collège X » de 412 km ? » (the name carries no article we could agree with). */
export function moveQuestion(name: string, metres: number): string {
  return `Déplacer l’établissement «\u202f${name}\u202f» de ${formatDistance(metres)}\u202f?`;
}
