import { Suspense, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Center, Loader, Stack, Text, TextInput } from '@mantine/core';
import {
  normalizeText,
  selectProfileMarkers,
  spreadSameLocation,
  withinBounds,
  type Bounds,
  type Institution,
} from '@olympe/contract';
import { useInstitutions, usePublicConfig, useSchoolSearch } from '../../api/institutions';
import { SchoolSearch } from '../../components/school-search';
import { SchoolMap } from '../../components/SchoolMap';
import { MarkerLegend } from '../../components/SchoolMap/legend';

const FOCUS_ZOOM = 16;

interface Props {
  value: { _id: string; name: string } | null;
  onChange: (institution: Institution) => void;
  required: boolean;
  /** Pupils get the home-schooling entry; staff do not (issue 24). */
  pupil?: boolean;
  error?: string;
}

/**
 * docs/product.md#spec-2 Profile: the school is chosen on a map with a filter box (name or address, accents and
 * case ignored, debounced 300 ms); markers only when 100 or fewer schools are in view.
 */
export function SchoolPicker({ value, onChange, required, pupil = true, error }: Props) {
  const { data: list, isPending } = useInstitutions();
  const { data: config } = usePublicConfig();
  const schoolSearch = useSchoolSearch();
  const [bounds, setBounds] = useState<Bounds | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lng: number; zoom: number } | null>(null);

  const inView = useMemo(() => (bounds && list ? withinBounds(list, bounds) : []), [list, bounds]);
  const selection = useMemo(() => selectProfileMarkers(inView), [inView]);
  const placed = useMemo(() => spreadSameLocation(selection.markers), [selection]);
  const homeSchooling = useMemo(() => list?.find((i) => normalizeText(i.name) === 'instruction en famille'), [list]);

  // Show the pupil's current school when the list arrives.
  const currentId = value?._id;
  useEffect(() => {
    const current = list?.find((i) => i._id === currentId);
    if (current?.latitude != null && current.longitude != null) {
      setFocus({ lat: current.latitude, lng: current.longitude, zoom: FOCUS_ZOOM });
    }
    // Only on arrival of the list: later selections focus through choose().
  }, [list]);

  const choose = (institution: Institution) => {
    onChange({ _id: institution._id, name: institution.name, address: institution.address, email: institution.email, latitude: institution.latitude, longitude: institution.longitude, confirmed: institution.confirmed });
    if (institution.latitude != null && institution.longitude != null) {
      setFocus({ lat: institution.latitude, lng: institution.longitude, zoom: FOCUS_ZOOM });
    }
  };

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
            Les élèves instruits en famille choisissent l’entrée spéciale « Instruction en famille » au lieu d’un établissement.
          </Text>
          {homeSchooling && (
            <Button size="xs" variant="light" onClick={() => choose(homeSchooling)}>
              Choisir « Instruction en famille »
            </Button>
          )}
        </Stack>
      </Alert>
      )}
      <SchoolSearch search={schoolSearch} onChoose={choose} selectedId={value?._id} />
      <Text size="sm" aria-live="polite">
        {isPending
          ? 'Chargement des établissements…'
          : selection.tooMany
            ? `${inView.length} établissements dans la zone affichée : zoomez ou précisez la recherche pour voir les marqueurs (100 au plus).`
            : `${placed.length} établissement${placed.length > 1 ? 's' : ''} affiché${placed.length > 1 ? 's' : ''} sur la carte.`}
      </Text>
      <MarkerLegend />
      <Suspense
        fallback={
          <Center h={420}>
            <Loader role="status" aria-label="Chargement de la carte" />
          </Center>
        }
      >
        <SchoolMap
          label="Carte des établissements"
          tileUrl={config?.tileUrl ?? ''}
          markers={placed}
          selectedId={value?._id}
          onBoundsChange={setBounds}
          onSelect={choose}
          focus={focus}
          renderPopup={(i) => (
            <>
              <strong>{i.name}</strong>
              {i.address && <div>{i.address}</div>}
              {!i.confirmed && <div>En attente de vérification</div>}
            </>
          )}
        />
      </Suspense>
    </Stack>
  );
}
