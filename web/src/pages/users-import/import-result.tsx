import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import type { ImportLine, ImportReport } from '@olympe/contract';
import { frenchNumber } from '@olympe/contract/typography';

const OUTCOME: Record<ImportLine['outcome'], { preview: string; done: string; color: string }> = {
  created: { preview: 'Sera créé', done: 'Créé', color: 'dark.9' },
  existing: { preview: 'Existe déjà', done: 'Existait déjà', color: 'blue.9' },
  rejected: { preview: 'Refusé', done: 'Refusé', color: 'red.9' },
};

const plural = (n: number, one: string, many: string) => `${frenchNumber(n)} ${n > 1 ? many : one}`;

/** The preview or the report of an import: a summary, the confirmation, and what became of each line. */
export function ImportResult({ report, pending, onConfirm }: { report: ImportReport; pending: boolean; onConfirm: () => void }) {
  const rejected = report.rejected.length;
  const summary = report.preview
    ? `Aperçu pour ${report.institution.name} : ${plural(report.created, 'compte sera créé', 'comptes seront créés')}, ${plural(report.existing, 'existe déjà', 'existent déjà')}, ${plural(rejected, 'ligne refusée', 'lignes refusées')}. Rien n’est encore enregistré.`
    : `Import terminé pour ${report.institution.name} : ${plural(report.created, 'compte créé', 'comptes créés')}, ${plural(report.existing, 'déjà présent', 'déjà présents')}, ${plural(rejected, 'ligne refusée', 'lignes refusées')}.${report.created > 0 ? ' Les courriels d’invitation partent dans les minutes qui viennent.' : ''}`;
  return (
    <Stack component="section" aria-label={report.preview ? 'Aperçu de l’import' : 'Rapport de l’import'}>
      <Alert color={report.preview ? 'blue' : 'green'} variant="light" role="status">
        <Text size="sm" c="dark.9">
          {summary}
        </Text>
      </Alert>
      {report.preview && report.created > 0 && (
        <Group>
          <Button onClick={onConfirm} loading={pending}>
            {`Créer ${plural(report.created, 'compte', 'comptes')}`}
          </Button>
        </Group>
      )}
      <Table striped withTableBorder>
        <Table.Caption>Chaque ligne du fichier et ce qu’elle devient</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Ligne</Table.Th>
            <Table.Th scope="col">Élève</Table.Th>
            <Table.Th scope="col">E-mail</Table.Th>
            <Table.Th scope="col">Résultat</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.lines.map((l) => (
            <Table.Tr key={l.line}>
              <Table.Td>{l.line}</Table.Td>
              <Table.Td>{`${l.firstName} ${l.lastName}`.trim() || '—'}</Table.Td>
              <Table.Td>{l.email || '—'}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={700} c={OUTCOME[l.outcome].color}>
                  {report.preview ? OUTCOME[l.outcome].preview : OUTCOME[l.outcome].done}
                </Text>
                {l.message && (
                  <Text size="xs" c="dark.7">
                    {l.message}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
