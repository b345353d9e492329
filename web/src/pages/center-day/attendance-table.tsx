import { Checkbox, Table } from '@mantine/core';
import { GRADE_LABELS, type Center } from '@olympe/contract';
import type { Ticks } from './center-day';

/** The registered pupils, each with its « Présent » box. */
export function AttendanceTable({
  members,
  ticks,
  onTick,
}: {
  members: Center['members'];
  ticks: Ticks;
  onTick: (userId: string, present: boolean) => void;
}) {
  return (
    <Table striped className="center-day-table" aria-label="Élèves inscrits dans votre centre">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Nom</Table.Th>
          <Table.Th>Prénom</Table.Th>
          <Table.Th>Classe</Table.Th>
          <Table.Th>Établissement</Table.Th>
          <Table.Th>Présent</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((m) => (
          <Table.Tr key={m._id}>
            <Table.Td>{m.lastName}</Table.Td>
            <Table.Td>{m.firstName}</Table.Td>
            <Table.Td>{m.grade ? GRADE_LABELS[m.grade] : ''}</Table.Td>
            <Table.Td>{m.institution?.name ?? ''}</Table.Td>
            <Table.Td>
              <Checkbox
                aria-label={`Présent : ${m.firstName ?? ''} ${m.lastName ?? ''}`.trim()}
                checked={ticks[m._id] === true}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  onTick(m._id, checked);
                }}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
