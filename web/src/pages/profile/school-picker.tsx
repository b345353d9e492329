import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Center, Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  matchSchoolPositions,
  normalizeText,
  refinesQuery,
  SCHOOL_FILTER_DEBOUNCE_MS,
  selectProfileMarkers,
  spreadSameLocation,
  withinBounds,
  type Bounds,
  type Institution,
} from '@olympe/contract';
import { useInstitutions, usePublicConfig, useSchoolIndex } from '../../api/institutions';
import { SchoolMap } from '../../components/SchoolMap';
import { MarkerLegend } from '../../components/SchoolMap/legend';

const SHOWN_RESULTS = 8;
const FOCUS_ZOOM = 16;

interface Props {
  value: { _id: string; name: string } | null;
  onChange: (institution: Institution) => void;
  required: boolean;
}

/**
 * SPEC §2 Profile: the school is chosen on a map with a filter box (name or address, accents and
 * case ignored, debounced 300 ms); markers only when 100 or fewer schools are in view.
 */
export function SchoolPicker({ value, onChange, required }: Props) {
  const { data: list, isPending } = useInstitutions();
  const { data: config } = usePublicConfig();
  const index = useSchoolIndex(list);
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SCHOOL_FILTER_DEBOUNCE_MS);
  const [bounds, setBounds] = useState<Bounds | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lng: number; zoom: number } | null>(null);

  // One more letter can only narrow the previous result: search within it (70,000 schools, < 50 ms a keystroke).
  const last = useRef<{ index: typeof index; query: string; positions: number[] } | null>(null);
  const filtered = useMemo(() => {
    if (!index) return [];
    const prev = last.current;
    const within = prev && prev.index === index && refinesQuery(prev.query, debounced) ? prev.positions : undefined;
    const positions = matchSchoolPositions(index, debounced, within);
    last.current = { index, query: debounced, positions };
    return positions.map((i) => index.items[i]);
  }, [index, debounced]);
  const inView = useMemo(() => (bounds ? withinBounds(filtered, bounds) : []), [filtered, bounds]);
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
    onChange(institution);
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
        description="Choisissez votre établissement sur la carte (cliquez sur son marqueur) ou dans les résultats de la recherche."
      />
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
      <TextInput
        label="Rechercher un établissement"
        description="Par nom ou par adresse (accents et majuscules ignorés)."
        type="search"
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
      />
      {debounced.trim() !== '' && index && (
        <Stack gap={2} aria-live="polite">
          <Text size="sm">
            {filtered.length === 0
              ? 'Aucun établissement ne correspond à la recherche.'
              : `${filtered.length} établissement${filtered.length > 1 ? 's' : ''} trouvé${filtered.length > 1 ? 's' : ''}${filtered.length > SHOWN_RESULTS ? ` (les ${SHOWN_RESULTS} premiers ci-dessous)` : ''}.`}
          </Text>
          <ul aria-label="Résultats de la recherche" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {filtered.slice(0, SHOWN_RESULTS).map((i) => (
              <li key={i._id}>
                <UnstyledButton onClick={() => choose(i)} py={4} style={{ textDecoration: 'underline' }}>
                  <Text size="sm" span fw={i._id === value?._id ? 700 : 400}>
                    {i.name}
                  </Text>
                  {i.address && (
                    <Text size="xs" span c="dimmed">
                      {' '}— {i.address}
                    </Text>
                  )}
                </UnstyledButton>
              </li>
            ))}
          </ul>
        </Stack>
      )}
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
