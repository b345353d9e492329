import { ActionIcon, MultiSelect, NumberInput, ScrollArea, Select, Table, TextInput, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { GENDERS, GRADE_LABELS, GRADES, type Gender, type Grade } from '@olympe/contract';
import { DateField, DateTimeField } from '../../components/DateFields';
import type { AccessFormRow } from './access-form';

const GENDER_LABELS: Record<Gender, string> = { male: 'Garçon', female: 'Fille', other: 'Autre' };
const genderOptions = GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] }));
const gradeOptions = GRADES.map((g) => ({ value: g, label: GRADE_LABELS[g] }));

type Update = (key: string, changes: Partial<AccessFormRow>) => void;
/** The selections a group may require (decision 157), as the select offers them. */
export type SelectionOption = { value: string; label: string };

/** « Aucune sélection »: Mantine's select needs a value; the row holds null. */
const NO_SELECTION = 'none';

/** The chapter's access groups, one row each, in the order that decides. */
export function AccessTable({
  rows,
  selections,
  onUpdate,
  onRemove,
}: {
  rows: AccessFormRow[];
  selections: SelectionOption[];
  onUpdate: Update;
  onRemove: (row: AccessFormRow) => void;
}) {
  // The wide table scrolls sideways: its viewport is focusable so the keyboard can scroll it.
  return (
    <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Tableau des groupes d’accès' }}>
      {/* Paired fields share a column, one above the other, each with its visible label: the table
          fits the 968 px a 1280 px screen leaves beside the sidebar, « Début » and « Fin » included
          (it was 1,200 px wide, the test window behind a scrollbar). A phone still scrolls sideways. */}
      <Table striped aria-label="Groupes d’accès" miw={760} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Nom et sélection</Table.Th>
            <Table.Th>Genres et classes</Table.Th>
            <Table.Th>Date de naissance</Table.Th>
            <Table.Th w={110}>Durée (minutes)</Table.Th>
            <Table.Th>Accès (heure de Paris)</Table.Th>
            <Table.Th w={70}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={6}>Aucun groupe d’accès : aucun élève ne voit ce chapitre.</Table.Td>
            </Table.Tr>
          )}
          {rows.map((row, i) => (
            <AccessRow
              key={row.key}
              row={row}
              n={`du groupe ${i + 1}`}
              index={i + 1}
              selections={selections}
              onUpdate={onUpdate}
              onRemove={onRemove}
            />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** One group: `n` names it in every field's label (« du groupe 2 »). */
function AccessRow(props: {
  row: AccessFormRow;
  n: string;
  index: number;
  selections: SelectionOption[];
  onUpdate: Update;
  onRemove: (row: AccessFormRow) => void;
}) {
  const { row, n, index, selections, onUpdate, onRemove } = props;
  return (
    <Table.Tr>
      <Table.Td miw={180}>
        <TextInput aria-label={`Nom ${n}`} value={row.name} onChange={(e) => onUpdate(row.key, { name: e.currentTarget.value })} mb={6} />
        <RequiredSelection row={row} n={n} selections={selections} onUpdate={onUpdate} />
      </Table.Td>
      <AudienceCells row={row} n={n} onUpdate={onUpdate} />
      <Table.Td>
        <NumberInput
          aria-label={`Durée en minutes ${n}`}
          min={0}
          allowNegative={false}
          allowDecimal={false}
          placeholder="Illimitée"
          value={row.duration}
          onChange={(v) => onUpdate(row.key, { duration: typeof v === 'number' ? v : v === '' ? '' : Number(v) })}
        />
      </Table.Td>
      <WindowCell row={row} n={n} onUpdate={onUpdate} />
      <Table.Td>
        <Tooltip label="Supprimer">
          <ActionIcon variant="subtle" color="red" aria-label={`Supprimer le groupe ${index} (${row.name})`} onClick={() => onRemove(row)}>
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
}

/** Decision 157: only the pupils qualified in the latest published version of this selection match the group. */
function RequiredSelection({
  row,
  n,
  selections,
  onUpdate,
}: {
  row: AccessFormRow;
  n: string;
  selections: SelectionOption[];
  onUpdate: Update;
}) {
  const known = row.requiredSelectionId === null || selections.some((s) => s.value === row.requiredSelectionId);
  const data = [
    { value: NO_SELECTION, label: 'Aucune sélection' },
    ...selections,
    // A selection the list does not hold (not loaded yet, or refused) stays chosen rather than silently dropped.
    ...(known ? [] : [{ value: row.requiredSelectionId!, label: 'Sélection enregistrée' }]),
  ];
  return (
    <Select
      label="Réservé aux qualifiés de"
      size="xs"
      aria-label={`Réservé aux qualifiés de ${n}`}
      data={data}
      value={row.requiredSelectionId ?? NO_SELECTION}
      onChange={(v) => onUpdate(row.key, { requiredSelectionId: v === null || v === NO_SELECTION ? null : v })}
      allowDeselect={false}
    />
  );
}

/** Who the group is: genders and grades, then the range of birth dates. */
function AudienceCells({ row, n, onUpdate }: { row: AccessFormRow; n: string; onUpdate: Update }) {
  return (
    <>
      <Table.Td miw={200}>
        <MultiSelect
          aria-label={`Genres ${n}`}
          data={genderOptions}
          value={row.genders}
          onChange={(v) => onUpdate(row.key, { genders: v as Gender[] })}
          mb={6}
        />
        <MultiSelect
          aria-label={`Classes ${n}`}
          data={gradeOptions}
          value={row.grades}
          onChange={(v) => onUpdate(row.key, { grades: v as Grade[] })}
        />
      </Table.Td>
      <Table.Td miw={150}>
        <DateField
          label="Au plus tôt"
          size="xs"
          aria-label={`Au plus tôt : date de naissance minimale ${n}`}
          value={row.birthDateMin}
          onChange={(v) => onUpdate(row.key, { birthDateMin: v })}
          mb={6}
        />
        <DateField
          label="Au plus tard"
          size="xs"
          aria-label={`Au plus tard : date de naissance maximale ${n}`}
          value={row.birthDateMax}
          onChange={(v) => onUpdate(row.key, { birthDateMax: v })}
        />
      </Table.Td>
    </>
  );
}

/** When the group may take the test (Paris time). */
function WindowCell({ row, n, onUpdate }: { row: AccessFormRow; n: string; onUpdate: Update }) {
  return (
    <Table.Td miw={190}>
      <DateTimeField
        label="Début"
        size="xs"
        aria-label={`Début de l’accès ${n} (heure de Paris)`}
        value={row.start}
        onChange={(v) => onUpdate(row.key, { start: v })}
        mb={6}
      />
      <DateTimeField
        label="Fin"
        size="xs"
        aria-label={`Fin de l’accès ${n} (heure de Paris)`}
        value={row.end}
        onChange={(v) => onUpdate(row.key, { end: v })}
      />
    </Table.Td>
  );
}
