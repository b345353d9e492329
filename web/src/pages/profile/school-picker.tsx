import { Suspense, useMemo, useState } from 'react';
import { Alert, Button, Center, Loader, Stack, Text, TextInput } from '@mantine/core';
import { HOME_SCHOOLING_INSTITUTION_ID, PROFILE_MAP_MAX_MARKERS, spreadSameLocation, type Institution } from '@olympe/contract';
import { useInstitution, useInstitutionsInView, usePublicConfig, useSchoolSearch, type MapView } from '../../api/institutions';
import { SchoolSearch } from '../../components/school-search';
import { WhenNear } from '../../components/when-near';
import { SchoolMap } from '../../components/SchoolMap';
import { MarkerLegend } from '../../components/SchoolMap/legend';
import { frenchNumber } from '@olympe/contract/typography';

const FOCUS_ZOOM = 16;

interface Props {
  value: { _id: string; name: string } | null;
  onChange: (institution: Institution) => void;
  required: boolean;
  /** Pupils get the home-schooling entry; staff do not (docs/product.md#spec-2-profile). */
  pupil?: boolean;
  error?: string;
}

const plural = (n: number, word: string) => `${word}${n > 1 ? 's' : ''}`;

const mapLoader = (
  <Center h={420}>
    <Loader role="status" aria-label="Chargement de la carte" />
  </Center>
);

/**
 * docs/product.md#spec-2 Profile: the school is chosen on a map or through the search (name, town, postcode or
 * UAI, answered by the server); markers only when 100 or fewer schools are in view. The map asks the server
 * for its view (decision 89): the schools, or clusters of them with their number, never the whole directory.
 */
export function SchoolPicker({ value, onChange, required, pupil = true, error }: Props) {
  const { data: config } = usePublicConfig();
  const schoolSearch = useSchoolSearch();
  const [view, setView] = useState<MapView | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lng: number; zoom: number } | null>(null);
  // The school named on arrival: the map opens on it. Later choices move the map through choose().
  const [startId] = useState(() => value?._id ?? null);
  const start = useInstitution(startId);
  const homeSchooling = useInstitution(pupil ? HOME_SCHOOLING_INSTITUTION_ID : null);
  const inView = useInstitutionsInView(view, 'profile');
  const data = inView.data;
  const placed = useMemo(() => spreadSameLocation(data?.schools ?? []), [data]);

  const startView =
    start.data?.latitude != null && start.data.longitude != null
      ? { lat: start.data.latitude, lng: start.data.longitude, zoom: FOCUS_ZOOM }
      : null;
  // The map waits for the current school's position (one small answer) rather than open on France and jump.
  const mapReady = startId === null || !start.isPending;

  const choose = (institution: Institution) => {
    onChange({ _id: institution._id, name: institution.name, address: institution.address, email: institution.email, latitude: institution.latitude, longitude: institution.longitude, confirmed: institution.confirmed });
    if (institution.latitude != null && institution.longitude != null) {
      setFocus({ lat: institution.latitude, lng: institution.longitude, zoom: FOCUS_ZOOM });
    }
  };

  const status = !data
    ? view === null
      ? // The map is not placed yet (on a phone, not before the pupil scrolls near it): nothing is loading.
        ''
      : inView.isError
      ? 'Les établissements de la carte n’ont pas pu être chargés : déplacez la carte pour réessayer.'
      : 'Chargement des établissements…'
    : data.tooMany
      ? `${frenchNumber(data.total)} établissements dans la zone affichée : zoomez ou précisez la recherche pour voir les marqueurs (${PROFILE_MAP_MAX_MARKERS} au plus).`
      : `${placed.length} ${plural(placed.length, 'établissement')} ${plural(placed.length, 'affiché')} sur la carte.`;

  return (
    <Stack gap="xs">
      <TextInput
        label="Établissement"
        withAsterisk={required}
        readOnly
        value={value?.name ?? ''}
        placeholder="Aucun établissement choisi"
        error={error}
        description="Choisissez votre établissement sur la carte (cliquez sur son marqueur) ou dans les résultats de la recherche."
      />
      {pupil && (
      <Alert color="blue" variant="light" title="Instruction en famille">
        <Stack gap={6} align="flex-start">
          <Text size="sm">
            Les élèves instruits en famille choisissent l’entrée spéciale « Instruction en famille » au lieu d’un établissement.
          </Text>
          {homeSchooling.data && (
            <Button size="xs" variant="light" onClick={() => choose(homeSchooling.data)}>
              Choisir « Instruction en famille »
            </Button>
          )}
        </Stack>
      </Alert>
      )}
      <SchoolSearch search={schoolSearch} onChoose={choose} selectedId={value?._id} />
      <Text size="sm" aria-live="polite">
        {status}
      </Text>
      <MarkerLegend clusters={(data?.clusters.length ?? 0) > 0} />
      {/* Decisions 121–122: the map is below the form (a screen or two on a phone); Leaflet, its chunk, the schools in
          view and the tiles come when the pupil scrolls within 200 px of it, not with the page: its first draw is
          a 200 ms task on a phone's CPU, while the pupil starts filling in the form. */}
      <WhenNear minHeight={420} margin="200px">
      <Suspense fallback={mapLoader}>
        {mapReady ? (
          <SchoolMap
            label="Carte des établissements"
            tileUrl={config?.tileUrl ?? ''}
            markers={placed}
            clusters={data?.clusters}
            selectedId={value?._id}
            onBoundsChange={(bounds, zoom) => setView({ ...bounds, zoom })}
            onSelect={choose}
            focus={focus}
            initialView={startView}
            renderPopup={(i) => (
              <>
                <strong>{i.name}</strong>
                {i.address && <div>{i.address}</div>}
                {!i.confirmed && <div>En attente de vérification</div>}
              </>
            )}
          />
        ) : (
          mapLoader
        )}
      </Suspense>
      </WhenNear>
    </Stack>
  );
}
