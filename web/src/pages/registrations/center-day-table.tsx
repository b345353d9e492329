import { Stack, Table, Text, Title } from '@mantine/core';
import { MAIL_KIND_LABELS, type CenterOverview } from '@olympe/contract';
import { useMailStats } from '../../api/exam-day';

/** What the admins must chase for one centre (issue 22): no answer yet, or no copy uploaded once present pupils were recorded. */
export function followUpOf(c: CenterOverview['members'][number]): string {
  const todo: string[] = [];
  if (c.opened === null && !c.isPole) todo.push('n’a pas répondu');
  if (c.stats.copies === 0) todo.push('aucune copie déposée');
  if (c.stats.present + c.stats.absent === 0) todo.push('présences non saisies');
  return todo.join(', ');
}

/**
 * Issue 22: the exam day per centre — registered, present, absent, copies received, pages sorted —
 * and which centres have not answered or not uploaded yet; with the notification mails' counts.
 */
export function CenterDayTable({ overview }: { overview: CenterOverview }) {
  const mail = useMailStats();
  const centres = [...overview.members].sort((a, b) => a.institution.name.localeCompare(b.institution.name, 'fr'));
  return (
    <Stack gap="xs" component="section" aria-labelledby="center-day-title">
      <Title order={2} size="h4" id="center-day-title">
        Jour de l’épreuve par centre
      </Title>
      {centres.length === 0 ? (
        <Text size="sm">Aucun centre n’a encore d’inscrit.</Text>
      ) : (
        <Table.ScrollContainer minWidth={720} maxHeight={360}>
          <Table striped stickyHeader aria-label="Jour de l’épreuve par centre">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Centre</Table.Th>
                <Table.Th>Inscrits</Table.Th>
                <Table.Th>Présents</Table.Th>
                <Table.Th>Absents</Table.Th>
                <Table.Th>Copies reçues</Table.Th>
                <Table.Th>Pages triées</Table.Th>
                <Table.Th>À relancer</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {centres.map((c) => (
                <Table.Tr key={c.institution._id}>
                  <Table.Td>{c.institution.name}</Table.Td>
                  <Table.Td>{c.stats.registered}</Table.Td>
                  <Table.Td>{c.stats.present}</Table.Td>
                  <Table.Td>{c.stats.absent}</Table.Td>
                  <Table.Td>{c.stats.copies}</Table.Td>
                  <Table.Td>{c.stats.pagesSorted}</Table.Td>
                  <Table.Td>{followUpOf(c) || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {mail.data && (
        <Text size="sm" role="status">
          E-mails de notification : {mail.data.total.sent} envoyé{mail.data.total.sent > 1 ? 's' : ''}, {mail.data.total.pending} en attente,{' '}
          {mail.data.total.failed} en échec, {mail.data.total.skipped} non envoyé{mail.data.total.skipped > 1 ? 's' : ''} (désabonnés).
          {mail.data.kinds.length > 0 && ` Détail : ${mail.data.kinds.map((k) => `${MAIL_KIND_LABELS[k.kind] ?? k.kind} ${k.sent}`).join(' ; ')}.`}
        </Text>
      )}
    </Stack>
  );
}
