import { Suspense, useMemo, useState, type FormEvent } from 'react';
import { Alert, Button, Center, Group, Loader, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { LoginRedirect } from '../../components/login-gate';
import {
  selectInstitutionMarkers,
  spreadSameLocation,
  withinBounds,
  INSTITUTION_MAP_MAX_MARKERS,
  type Bounds,
  type Institution,
} from '@olympe/contract';
import { useDeleteInstitution, useInstitutions, usePublicConfig, useSaveInstitution, useSchoolSearch } from '../../api/institutions';
import { SchoolMap } from '../../components/SchoolMap';
import { SchoolSearch } from '../../components/school-search';
import { MarkerLegend } from '../../components/SchoolMap/legend';
import { useSession } from '../../session/session-context';
import { PageHeading } from '../../components/page-heading';

/** The form of the selected institution; `_id` null: a new one, not yet saved. */
/** How close the map goes to a school found by the search. */
const FOCUS_ZOOM = 16;

interface Draft {
  _id: string | null;
  name: string;
  address: string;
  email: string;
  confirmed: boolean;
  lat: number;
  lng: number;
}

const draftOf = (i: Institution): Draft => ({
  _id: i._id,
  name: i.name,
  address: i.address,
  email: i.email ?? '',
  confirmed: i.confirmed,
  lat: i.latitude ?? 0,
  lng: i.longitude ?? 0,
});

/** docs/product.md#spec-2 "Institutions map (/map)": click to add or move, a popup per marker, a form, save and cancel. */
export function MapPage() {
  const { token, roles } = useSession();
  const { data: list, isPending } = useInstitutions();
  const { data: config } = usePublicConfig();
  const [bounds, setBounds] = useState<Bounds | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [focus, setFocus] = useState<{ lat: number; lng: number; zoom: number } | null>(null);
  const schoolSearch = useSchoolSearch();
  const isAdmin = roles.isAdmin;

  const inView = useMemo(() => (list && bounds ? withinBounds(list, bounds) : []), [list, bounds]);
  const selection = useMemo(() => selectInstitutionMarkers(inView, isAdmin), [inView, isAdmin]);
  const placed = useMemo(() => spreadSameLocation(selection.markers), [selection]);

  const save = useSaveInstitution((saved) => setDraft(draftOf(saved)));
  const remove = useDeleteInstitution({ onDeleted: () => setDraft(null), onSettled: () => setConfirmDelete(false) });

  if (!token) return <LoginRedirect />;

  const select = (i: Institution) => {
    setConfirmDelete(false);
    setDraft(draftOf(i));
  };
  // A school found by the search is selected and the map goes to it (issue 24).
  const found = (i: Institution) => {
    select(i);
    if (i.latitude !== null && i.longitude !== null) setFocus({ lat: i.latitude, lng: i.longitude, zoom: FOCUS_ZOOM });
  };
  // A click adds a new institution there, or moves the selected one.
  const clickMap = (lat: number, lng: number) => {
    setConfirmDelete(false);
    setDraft((d) => (d ? { ...d, lat, lng } : { _id: null, name: '', address: '', email: '', confirmed: false, lat, lng }));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    const fields = { name: draft.name, address: draft.address, email: draft.email, latitude: draft.lat, longitude: draft.lng };
    const body = isAdmin ? { ...fields, confirmed: draft.confirmed } : fields;
    save.mutate(draft._id === null ? { id: null, body } : { id: draft._id, body });
  };
  const cancel = () => {
    setConfirmDelete(false);
    setDraft(null);
  };

  const status = isPending
    ? 'Chargement des établissements…'
    : selection.tooMany
      ? isAdmin
        ? `${inView.length} établissements dans la zone affichée : seuls les ${selection.markers.length} premiers en attente de vérification sont affichés (${INSTITUTION_MAP_MAX_MARKERS} au plus). Zoomez pour voir les autres.`
        : `${inView.length} établissements dans la zone affichée : zoomez pour voir les marqueurs (${INSTITUTION_MAP_MAX_MARKERS} au plus).`
      : `${placed.length} établissement${placed.length > 1 ? 's' : ''} affiché${placed.length > 1 ? 's' : ''} sur la carte.`;

  return (
    <Stack>
      <PageHeading>Établissements</PageHeading>
      <Text size="sm">
        Cliquez sur la carte pour ajouter un établissement, ou sur un marqueur pour le sélectionner ; un clic sur la carte
        déplace alors l’établissement sélectionné.
      </Text>
      <SchoolSearch search={schoolSearch} onChoose={found} selectedId={draft?._id ?? null} />
      <Text size="sm" aria-live="polite">
        {status}
      </Text>
      <MarkerLegend />
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
          selectedId={draft?._id ?? null}
          draft={draft ? { lat: draft.lat, lng: draft.lng } : null}
          onBoundsChange={setBounds}
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
        <form onSubmit={submit} aria-label="Établissement sélectionné">
          <Stack maw={560}>
            <Title order={2} size="h3">
              {draft._id ? 'Établissement sélectionné' : 'Nouvel établissement'}
            </Title>
            <Text size="sm">
              Position : {draft.lat.toFixed(5)}, {draft.lng.toFixed(5)}
            </Text>
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
      ) : (
        <Alert variant="light" color="gray">
          Aucun établissement sélectionné.
        </Alert>
      )}
    </Stack>
  );
}
