import { useState } from 'react';
import { Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SCHOOL_FILTER_DEBOUNCE_MS, schoolSearchWords, type SchoolSearchResult } from '@olympe/contract';
import { useSchoolSearch } from '../api/institutions';

/**
 * The school search box of the profile and of /map (issue 24): by name, town, postcode or UAI, accents
 * and case ignored, answered by the server (GET /institution/search) so nobody downloads the whole
 * directory to search it. Choosing a result hands the school to the page, whose map then follows it.
 */
export function SchoolSearch({ onChoose, selectedId }: { onChoose: (school: SchoolSearchResult) => void; selectedId?: string | null }) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SCHOOL_FILTER_DEBOUNCE_MS);
  const search = useSchoolSearch(debounced);
  const active = schoolSearchWords(debounced).length > 0;
  const results = search.data?.results ?? [];

  return (
    <Stack gap="xs">
      <TextInput
        label="Rechercher un établissement"
        description="Par nom, ville, code postal ou code UAI (accents et majuscules ignorés)."
        type="search"
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        rightSection={search.isFetching ? <Loader size="xs" aria-hidden /> : null}
      />
      {active && search.data && (
        <Stack gap={2}>
          <Text size="sm" aria-live="polite">
            {results.length === 0
              ? 'Aucun établissement ne correspond à la recherche.'
              : search.data.more
                ? `Plus de ${results.length} établissements trouvés : les ${results.length} premiers ci-dessous, précisez la recherche (ville, code postal…).`
                : `${results.length} établissement${results.length > 1 ? 's' : ''} trouvé${results.length > 1 ? 's' : ''}.`}
          </Text>
          <ul aria-label="Résultats de la recherche" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {results.map((school) => (
              <li key={school._id}>
                <UnstyledButton onClick={() => onChoose(school)} py={4} style={{ textDecoration: 'underline' }}>
                  <Text size="sm" span fw={school._id === selectedId ? 700 : 400}>
                    {school.name}
                  </Text>
                  <Text size="xs" span c="dark.6">
                    {school.address ? ` — ${school.address}` : ''}
                    {school.uai ? ` (UAI ${school.uai})` : ''}
                  </Text>
                </UnstyledButton>
              </li>
            ))}
          </ul>
        </Stack>
      )}
    </Stack>
  );
}
