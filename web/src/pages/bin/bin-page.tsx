import { Alert, Button, Center, Loader, Stack, Table, Text } from '@mantine/core';
import { BIN_DAYS, formatParisDateTime, type BinEntry } from '@olympe/contract';
import { useBin, useRestoreBinEntry } from '../../api/bin';
import { PageHeading } from '../../components/page-heading';
import { frenchNumber } from '@olympe/contract/typography';

const TITLE = 'Corbeille';

const what = (e: BinEntry) =>
  e.kind === 'chapter' ? `Chapitre « ${e.title} »` : `Exercice « ${e.title} » (chapitre « ${e.chapterTitle} »)`;
const answersText = (n: number) => (n === 0 ? 'aucune réponse' : n === 1 ? '1 réponse' : `${frenchNumber(n)} réponses`);

/** « Corbeille » (admins, decision 73): what was deleted in the last 30 days, each with « Restaurer ». */
export function BinPage() {
  const bin = useBin();
  const restore = useRestoreBinEntry();
  if (bin.isPending) {
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Center py="xl">
          <Loader role="status" aria-label="Chargement de la corbeille" />
        </Center>
      </Stack>
    );
  }
  if (bin.isError) {
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Alert color="red.9">La corbeille n’a pas pu être chargée.</Alert>
      </Stack>
    );
  }
  return (
    <Stack>
      <PageHeading>{TITLE}</PageHeading>
      <Text>
        Les chapitres et exercices supprimés restent ici {BIN_DAYS} jours, cachés partout, puis sont effacés définitivement avec leurs
        réponses et leurs notes. Les restaurer les remet en place tels quels.
      </Text>
      {bin.data.length === 0 ? (
        <Text c="gray.8">La corbeille est vide.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Élément</Table.Th>
                <Table.Th>Supprimé le</Table.Th>
                <Table.Th>Effacé après le</Table.Th>
                <Table.Th>Réponses</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bin.data.map((e) => (
                <Table.Tr key={e._id}>
                  <Table.Td>{what(e)}</Table.Td>
                  <Table.Td>{formatParisDateTime(e.deletedAt)}</Table.Td>
                  <Table.Td>{formatParisDateTime(e.purgeAfter)}</Table.Td>
                  <Table.Td>{answersText(e.answers)}</Table.Td>
                  <Table.Td>
                    {e.kind === 'exercise' && e.chapterDeleted ? (
                      <Text size="sm" c="gray.8">
                        Restaurez d’abord son chapitre.
                      </Text>
                    ) : (
                      <Button
                        size="xs"
                        variant="light"
                        loading={restore.isPending && restore.variables?._id === e._id}
                        onClick={() => restore.mutate(e)}
                        aria-label={`Restaurer : ${what(e)}`}
                      >
                        Restaurer
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
