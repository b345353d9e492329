import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { HOME_SCHOOLING_INSTITUTION_ID, type Institution } from '@olympe/contract';
import { useInstitution, useSchoolSearch } from '../../api/institutions';
import { SchoolSearch } from '../../components/school-search';
import { MarkerLegend } from '../../components/SchoolMap/legend';
import { PickerMap } from './picker-map';
import { usePickerMap } from './use-picker-map';

interface Props {
  value: { _id: string; name: string } | null;
  onChange: (institution: Institution) => void;
  required: boolean;
  /** Pupils get the home-schooling entry; staff do not (docs/product.md#spec-2-profile). */
  pupil?: boolean;
  error?: string;
}

/**
 * docs/product.md#spec-2 Profile: the school is chosen on a map or through the search (name, town, postcode or
 * UAI, answered by the server); markers only when 100 or fewer schools are in view. The map asks the server
 * for its view (decision 89): the schools, or clusters of them with their number, never the whole directory.
 */
export function SchoolPicker({ value, onChange, required, pupil = true, error }: Props) {
  const schoolSearch = useSchoolSearch();
  // The school named on arrival: the map opens on it. Later choices move the map through choose().
  const [startId] = useState(() => value?._id ?? null);
  const map = usePickerMap(startId);

  const choose = (institution: Institution) => {
    onChange({
      _id: institution._id,
      name: institution.name,
      address: institution.address,
      email: institution.email,
      latitude: institution.latitude,
      longitude: institution.longitude,
      confirmed: institution.confirmed,
    });
    map.follow(institution);
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
      {pupil && <HomeSchooling onChoose={choose} />}
      <SchoolSearch search={schoolSearch} onChoose={choose} selectedId={value?._id} />
      <Text size="sm" aria-live="polite">
        {map.status}
      </Text>
      <MarkerLegend clusters={(map.clusters?.length ?? 0) > 0} />
      <PickerMap map={map} selectedId={value?._id} onSelect={choose} />
    </Stack>
  );
}

/** Pupils taught at home choose the special entry (docs/product.md#spec-2-profile), offered as a button once it is loaded. */
function HomeSchooling({ onChoose }: { onChoose: (institution: Institution) => void }) {
  const homeSchooling = useInstitution(HOME_SCHOOLING_INSTITUTION_ID);
  return (
    <Alert color="blue" variant="light" title="Instruction en famille">
      <Stack gap={6} align="flex-start">
        <Text size="sm">
          Les élèves instruits en famille choisissent l’entrée spéciale « Instruction en famille » au lieu d’un établissement.
        </Text>
        {homeSchooling.data && (
          <Button size="xs" variant="light" onClick={() => onChoose(homeSchooling.data)}>
            Choisir « Instruction en famille »
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
