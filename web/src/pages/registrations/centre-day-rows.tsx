import { Table } from '@mantine/core';
import type { centerDayRows } from '@olympe/contract';

/** One line per centre: registered, present, absent, copies received, pages sorted, who to remind. */
export function CentreDayRows({ centres }: { centres: ReturnType<typeof centerDayRows> }) {
  return (
    // Focusable so the keyboard can scroll it on a phone (axe: scrollable-region-focusable, decision 104).
    <Table.ScrollContainer
      minWidth={720}
      maxHeight={360}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Jour de l’épreuve par centre (défilement)' } }}
    >
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
            <Table.Tr key={c.id}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{c.registered}</Table.Td>
              <Table.Td>{c.present}</Table.Td>
              <Table.Td>{c.absent}</Table.Td>
              <Table.Td>{c.copies}</Table.Td>
              <Table.Td>{c.pagesSorted}</Table.Td>
              <Table.Td>{c.followUp || '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
