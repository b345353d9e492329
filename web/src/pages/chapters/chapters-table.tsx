import { ActionIcon, Anchor, Checkbox, Group, ScrollArea, Table, Text, Textarea, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';
import type { ChapterRow } from './plan-save';

/** A saved chapter named in a dialog: its grading options, or its publication (`mode` when a checkbox asked for one). */
export interface ChapterTarget {
  id: string;
  name: string;
  mode?: 'now' | 'unpublished';
}

interface RowActions {
  onUpdate: (key: string, changes: Partial<ChapterRow>) => void;
  onDelete: (row: ChapterRow, name: string) => void;
  onOptions: (target: ChapterTarget) => void;
  onPublication: (target: ChapterTarget) => void;
}

/** The chapters: editable titles and flags, delete, and the links of a saved chapter. */
export function ChaptersTable({
  rows,
  paperIds,
  onUpdate,
  onDelete,
  onOptions,
  onPublication,
}: { rows: ChapterRow[]; paperIds: Set<string> } & RowActions) {
  // docs/accessibility.md: on a phone the table scrolls sideways in a focusable region instead of squeezing the titles
  // to two letters and pushing the page wider than the screen.
  return (
    <ScrollArea type="auto" offsetScrollbars="x" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Tableau des chapitres' }}>
      <Table striped aria-label="Chapitres">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Titre</Table.Th>
            <Table.Th w={90}>Papier</Table.Th>
            <Table.Th w={140}>Notes publiées</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={4}>Aucun chapitre.</Table.Td>
            </Table.Tr>
          )}
          {rows.map((row) => (
            <ChapterTableRow
              key={row.key}
              row={row}
              name={row.saved?.title ?? `${row.title} (nouveau)`}
              paper={!!row._id && paperIds.has(row._id)}
              onUpdate={onUpdate}
              onDelete={onDelete}
              onOptions={onOptions}
              onPublication={onPublication}
            />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function ChapterTableRow(props: { row: ChapterRow; name: string; paper: boolean } & RowActions) {
  const { row, name, paper, onUpdate, onDelete, onOptions, onPublication } = props;
  return (
    <Table.Tr>
      {/* Decision 141: the whole title shows, wrapped between words in a wider column, where a one-line field cut
          « Coupe Olympe 2026 — … » after its first words. A title stays one line: Enter and pasted line breaks
          give spaces. */}
      <Table.Td miw={280}>
        <Textarea
          aria-label={`Titre du chapitre ${name}`}
          title={row.title}
          value={row.title}
          autosize
          minRows={1}
          lang="fr"
          styles={{ input: WRAP_AT_SPACES }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
          onChange={(e) => onUpdate(row.key, { title: e.currentTarget.value.replace(/[\r\n]+/g, ' ') })}
        />
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label={`Papier : ${name}`}
          checked={row.offline}
          onChange={(e) => onUpdate(row.key, { offline: e.currentTarget.checked })}
        />
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label={`Notes publiées : ${name}`}
          checked={row.analysis}
          onChange={(e) => {
            const checked = e.currentTarget.checked;
            // Decision 69: a saved chapter is published or withdrawn through its dialog, confirmed with counts.
            if (row._id) onPublication({ id: row._id, name, mode: checked ? 'now' : 'unpublished' });
            else onUpdate(row.key, { analysis: checked });
          }}
        />
      </Table.Td>
      <Table.Td miw={300}>
        <Group gap="sm" wrap="wrap">
          <Tooltip label="Supprimer">
            <ActionIcon variant="subtle" color="red" aria-label={`Supprimer le chapitre ${name}`} onClick={() => onDelete(row, name)}>
              <IconTrash size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          <ChapterLinks row={row} name={name} paper={paper} onOptions={onOptions} onPublication={onPublication} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** A saved chapter's screens; a new one is « À enregistrer ». */
function ChapterLinks(props: {
  row: ChapterRow;
  name: string;
  paper: boolean;
  onOptions: (target: ChapterTarget) => void;
  onPublication: (target: ChapterTarget) => void;
}) {
  const { row, name, paper, onOptions, onPublication } = props;
  return row._id ? (
    <>
      <Anchor component={Link} to={paths.exos(row._id)} aria-label={`Exercices du chapitre ${name}`}>
        Exercices
      </Anchor>
      <Anchor
        component="button"
        type="button"
        onClick={() => onOptions({ id: row._id!, name })}
        aria-label={`Options de correction du chapitre ${name}`}
      >
        Correction
      </Anchor>
      <Anchor
        component="button"
        type="button"
        onClick={() => onPublication({ id: row._id!, name })}
        aria-label={`Publication des résultats du chapitre ${name}`}
      >
        Publication
      </Anchor>
      <Anchor component={Link} to={paths.access(row._id)} aria-label={`Accès au chapitre ${name}`}>
        Accès
      </Anchor>
      <Anchor component={Link} to={paths.analysis(row._id)} aria-label={`Analyse de la triche du chapitre ${name}`}>
        Analyse
      </Anchor>
      <Anchor component={Link} to={paths.live(row._id)} aria-label={`Suivi en direct du chapitre ${name}`}>
        Direct
      </Anchor>
      {/* Paper chapters (as saved): who registered in which centre, and the answer sheets. */}
      {paper && (
        <Anchor component={Link} to={paths.registrations(row._id)} aria-label={`Inscriptions au chapitre ${name}`}>
          Inscriptions
        </Anchor>
      )}
    </>
  ) : (
    <Text size="sm" c="gray.7">
      À enregistrer
    </Text>
  );
}
