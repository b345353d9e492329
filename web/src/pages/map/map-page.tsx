import { Suspense, useMemo, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { spreadSameLocation } from '@olympe/contract';
import { LoginRedirect } from '../../components/login-gate';
import { useInstitutionsInView, usePublicConfig, useSchoolSearch, type MapView } from '../../api/institutions';
import { SchoolMap } from '../../components/SchoolMap';
import { SchoolSearch } from '../../components/school-search';
import { MarkerLegend } from '../../components/SchoolMap/legend';
import { useSession } from '../../session/session-context';
import { PageHeading } from '../../components/page-heading';
import { positionOf } from './draft';
import { mapStatus } from './map-status';
import { useInstitutionEditor, type InstitutionEditor } from './use-institution-editor';
import { PositionForm } from './position-form';
import { AddressSearch } from './address-search';
import { InstitutionForm } from './institution-form';
import { MoveDialog } from './move-dialog';

const mapLoader = (
  <Center h={480}>
    <Loader role="status" aria-label="Chargement de la carte" />
  </Center>
);

/** docs/product.md#spec-2 "Institutions map (/map)": click to add or move, a popup per marker, a form, save and cancel. */
export function MapPage() {
  const { token, roles } = useSession();
  const { data: config } = usePublicConfig();
  const [view, setView] = useState<MapView | null>(null);
  // The schools of the view (decision 89): at most 500 markers, clusters for the rest.
  const inView = useInstitutionsInView(view, 'institutions');
  const data = inView.data;
  const schoolSearch = useSchoolSearch();
  const isAdmin = roles.isAdmin;
  const editor = useInstitutionEditor(isAdmin);
  const { draft } = editor;
  const placed = useMemo(() => spreadSameLocation(data?.schools ?? []), [data]);

  if (!token) return <LoginRedirect />;

  return (
    <Stack>
      <PageHeading>Établissements</PageHeading>
      <Text size="sm">
        Cliquez sur la carte pour ajouter un établissement, ou sur un marqueur pour le sélectionner ; un clic sur la carte déplace alors
        l’établissement sélectionné. Sans souris, ajoutez-le avec le bouton ci-dessous puis saisissez sa latitude et sa longitude.
      </Text>
      <Group>
        <Button variant="light" onClick={editor.addByKeyboard}>
          Ajouter un établissement
        </Button>
      </Group>
      <SchoolSearch search={schoolSearch} onChoose={editor.found} selectedId={draft?._id ?? null} />
      <Text size="sm" aria-live="polite">
        {mapStatus(data, inView.isError, placed.length, isAdmin)}
      </Text>
      <MarkerLegend clusters={(data?.clusters.length ?? 0) > 0} />
      <Suspense fallback={mapLoader}>
        <SchoolMap
          label="Carte des établissements"
          height={480}
          tileUrl={config?.tileUrl ?? ''}
          markers={placed}
          clusters={data?.clusters}
          selectedId={draft?._id ?? null}
          draft={draft ? positionOf(draft) : null}
          onBoundsChange={(bounds, zoom) => setView({ ...bounds, zoom })}
          onSelect={editor.select}
          onMapClick={editor.clickMap}
          focus={editor.focus}
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
        <SelectedInstitution editor={editor} isAdmin={isAdmin} geocoder={config?.geocoder ?? false} />
      ) : (
        <Alert variant="light" color="gray">
          Aucun établissement sélectionné.
        </Alert>
      )}
      <MoveDialog editor={editor} />
    </Stack>
  );
}

/** The selected (or new) school: where it is, an address search when the server has a geocoder, its fields. */
function SelectedInstitution({ editor, isAdmin, geocoder }: { editor: InstitutionEditor; isAdmin: boolean; geocoder: boolean }) {
  return (
    <Stack maw={560}>
      <Title order={2} size="h3">
        {editor.draft?._id ? 'Établissement sélectionné' : 'Nouvel établissement'}
      </Title>
      <PositionForm editor={editor} />
      {geocoder && <AddressSearch editor={editor} />}
      <InstitutionForm editor={editor} isAdmin={isAdmin} />
    </Stack>
  );
}
