import { Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import type { SchoolSearchResponse, SchoolSearchResult } from '@olympe/contract';

interface Props {
  /** The box's state, from the page (useSchoolSearch of api/institutions). */
  search: { query: string; setQuery: (q: string) => void; data: SchoolSearchResponse | null; loading: boolean };
  onChoose: (school: SchoolSearchResult) => void;
  selectedId?: string | null;
}

/**
 * The school search box of the profile and of /map (decision 67): by name, town, postcode or UAI, accents
 * and case ignored, answered by the server (GET /institution/search) so nobody downloads the whole
 * directory to search it. Choosing a result hands the school to the page, whose map then follows it.
 */
export function SchoolSearch({ search, onChoose, selectedId }: Props) {
  const results = search.data?.results ?? [];

  return (
    <Stack gap="xs">
      <TextInput
        label="Rechercher un établissement"
        description="Par nom, ville, code postal ou code UAI (accents et majuscules ignorés)."
        type="search"
        value={search.query}
        onChange={(e) => search.setQuery(e.currentTarget.value)}
        rightSection={search.loading ? <Loader size="xs" aria-hidden /> : null}
      />
      {search.data && (
        <Stack gap={2}>
          <Text size="sm" aria-live="polite">
            {results.length === 0
              ? 'Aucun établissement ne correspond à la recherche.'
              : search.data.more
                ? `Plus de ${results.length} établissements trouvés : les ${results.length} premiers ci-dessous, précisez la recherche (ville, code postal…).`
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
