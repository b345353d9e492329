import { Alert, Button, Group, Loader, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { formatPoints, formatTotal, GRADE_LABELS } from '@olympe/contract';
import { downloadCertificate, downloadCopiesZip, downloadInstitutionXlsx, useInstitutionResults, useResultsCard } from '../../api/results';
import { isApiError } from '../../api/client';
import { downloadCsv } from '../../lib/csv';
import { DownloadButton } from '../../components/download-button';
import { institutionCsvRows } from './institution-results';
import { PupilQualifications } from './qualification-block';
import { rankText, ResultsCardView } from './results-card';
import { ReturnedCopies } from './returned-copies';

/** Decision 70: the pupil's results card once published, and their certificate. */
export function PupilResults({ chapterId, title }: { chapterId: string; title: string }) {
  const query = useResultsCard(chapterId, true);
  if (query.isPending) return <Loader size="sm" aria-label="Chargement des résultats" />;
  if (query.isError) {
    return isApiError(query.error) && query.error.code === 'forbidden' ? null : (
      <Alert color="red">Impossible de charger vos résultats.</Alert>
    );
  }
  // Decision 139: no « 0 / 8 » and no certificate for a pupil who did not take part.
  if (query.data.participated === false) {
    return (
      <Stack gap="sm" component="section" aria-labelledby="pupil-results">
        <Title order={2} size="h3" id="pupil-results">
          Vos résultats
        </Title>
        <Text>Vous n’avez pas participé à ce chapitre.</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <ResultsCardView card={query.data} />
      <DownloadButton label="Télécharger mon attestation" run={() => downloadCertificate(chapterId, title)} />
      {/* Decision 157: the published selections' outcome and letter, next to the certificate. */}
      <PupilQualifications />
      {query.data.copiesReturned && <ReturnedCopies chapterId={chapterId} title={title} />}
    </Stack>
  );
}

/** Decision 71: school staff see how their school's pupils did, with CSV and XLSX. */
export function SchoolResults({ chapterId, title }: { chapterId: string; title: string }) {
  const query = useInstitutionResults(chapterId, true);
  if (query.isPending) return <Loader size="sm" aria-label="Chargement des résultats de l’établissement" />;
  if (query.isError)
    return isApiError(query.error) && query.error.code === 'forbidden' ? null : (
      <Alert color="red">Impossible de charger les résultats.</Alert>
    );
  const results = query.data;
  const ranked = results.pupils.some((p) => p.rank !== undefined);
  return (
    <Stack gap="sm" component="section" aria-labelledby="school-results">
      <Title order={2} size="h3" id="school-results">
        Résultats de vos élèves ({results.institution.name})
      </Title>
      {results.pupils.length === 0 ? (
        <Text>Aucun élève de votre établissement n’a participé.</Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped aria-label="Résultats des élèves de l’établissement">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Élève</Table.Th>
                <Table.Th>Classe</Table.Th>
                {results.exercises.map((e) => (
                  <Table.Th key={e._id} ta="right">
                    {e.title} (sur {formatPoints(e.maxPoints)})
                  </Table.Th>
                ))}
                <Table.Th ta="right">Total</Table.Th>
                {ranked && <Table.Th>Rang</Table.Th>}
                {results.qualificationText !== undefined && <Table.Th>Qualifié(e)</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.pupils.map((p) => (
                <Table.Tr key={p._id}>
                  <Table.Td>
                    {p.lastName} {p.firstName}
                  </Table.Td>
                  <Table.Td>{p.grade ? GRADE_LABELS[p.grade] : ''}</Table.Td>
                  {p.grades.map((g, i) => (
                    <Table.Td key={results.exercises[i]._id} ta="right">
                      {g.excused ? 'X' : g.grade === null ? '—' : formatPoints(g.grade)}
                    </Table.Td>
                  ))}
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatTotal(p.total, results.maxTotal)}
                  </Table.Td>
                  {ranked && (
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {p.rank !== undefined && p.participants !== undefined ? rankText(p.rank, p.participants) : ''}
                    </Table.Td>
                  )}
                  {results.qualificationText !== undefined && <Table.Td>{p.qualified ? 'Oui' : 'Non'}</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      <Group>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          onClick={() => downloadCsv(`Résultats - ${title}.csv`, institutionCsvRows(results))}
        >
          Exporter en CSV
        </Button>
        <DownloadButton label="Exporter en XLSX" run={() => downloadInstitutionXlsx(chapterId, title)} />
        {/* Decision 162: the school's pupils' corrected copies, one folder per pupil (403 in words when not returned). */}
        {results.copiesReturned && (
          <DownloadButton label="Télécharger les copies corrigées (ZIP)" run={() => downloadCopiesZip(chapterId, title)} />
        )}
      </Group>
    </Stack>
  );
}
