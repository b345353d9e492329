import { useState } from 'react';
import { ActionIcon, Anchor, Button, Checkbox, Group, ScrollArea, Stack, Table, Text, Textarea, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BIN_DAYS, NEW_CHAPTER_TITLE } from '@olympe/contract';
import { chapterKeys, createChapter, deleteChapter, updateChapter, useChapters } from '../../api/chapters';
import { paths } from '../../config/paths';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';
import { TitledLoader } from '../../components/TitledLoader';
import { useEditableTable } from '../../hooks/use-editable-table';
import { useSession } from '../../session/session-context';
import { planChapterSave, rowOf, runChapterSave, type ChapterRow } from './plan-save';
import { PageHeading } from '../../components/page-heading';
import { GradingOptionsDialog } from './grading-options-dialog';
import { PublicationDialog } from './publication-dialog';
import { useDeletionImpact } from '../../api/results';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';
import type { DeletionImpact } from '@olympe/contract';

/** What deleting a chapter takes with it, said before (decision 69). */
export function chapterDeletionMessage(name: string, impact: DeletionImpact): string {
  const what =
    impact.answers === 0
      ? `ses ${countOf(impact.exercises, 'exercice')} (aucune copie)`
      : `ses ${countOf(impact.exercises, 'exercice')}, ${countOf(impact.answers, 'copie')} de ${countOf(impact.pupils, 'élève')} et ${countOf(impact.grades, 'note')}`;
  return `« ${name} » ira à la corbeille à l’enregistrement avec ${what} ; un administrateur peut l’en sortir pendant ${BIN_DAYS} jours.`;
}

/** docs/product.md#spec-2 "Chapter management (/chapters)": editable titles and flags, delete, add, links, save. */
export function ChaptersPage() {
  const session = useSession();
  const query = useChapters();
  const { rows, update, remove, add, save, saving } = useEditableTable({
    data: query.data,
    toRows: (chapters) => chapters.map(rowOf),
    deletedOf: (row) => row._id,
  });
  // Decision 63: the grading options (anonymous, double correction) of one saved chapter, in a dialog.
  const [optionsOf, setOptionsOf] = useState<{ id: string; name: string } | null>(null);
  // Decision 69: publication in a dialog; a saved chapter's deletion confirmed with what goes with it.
  const [publicationOf, setPublicationOf] = useState<{ id: string; name: string; mode?: 'now' | 'unpublished' } | null>(null);
  const [deleting, setDeleting] = useState<{ row: ChapterRow; name: string } | null>(null);
  const impact = useDeletionImpact('chapter', deleting?.row._id ?? null);

  const paperIds = new Set((query.data ?? []).filter((c) => c.offline).map((c) => c._id));
  const title = 'Gestion des chapitres';
  if (query.isPending) return <TitledLoader title={title} label="Chargement des chapitres" />;

  function addChapter() {
    add({ key: `new-${Date.now()}-${rows.length}`, title: NEW_CHAPTER_TITLE, analysis: false, offline: false });
  }

  const saveChapters = () =>
    save({
      plan: planChapterSave,
      // docs/product.md#spec-7: deletions first, then creations and updates, then the list reloads. Calls are
      // quiet; one notification tells the outcome.
      run: (plan) =>
        runChapterSave(plan, {
          remove: (id) => deleteChapter(id, true),
          create: (fields) => createChapter(fields, true),
          update: (id, changes) => updateChapter(id, changes, true),
        }),
      queryKey: chapterKeys.all,
      // The sidebar's test lists come from the session.
      after: () => session.reload(),
    });

  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      {query.isError && <Text>Impossible de charger les chapitres.</Text>}
      {/* docs/accessibility.md: on a phone the table scrolls sideways in a focusable region instead of squeezing the titles
          to two letters and pushing the page wider than the screen. */}
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
          {rows.map((row) => {
            const name = row.saved?.title ?? `${row.title} (nouveau)`;
            return (
              <Table.Tr key={row.key}>
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
                    onChange={(e) => update(row.key, { title: e.currentTarget.value.replace(/[\r\n]+/g, ' ') })}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Papier : ${name}`}
                    checked={row.offline}
                    onChange={(e) => update(row.key, { offline: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Notes publiées : ${name}`}
                    checked={row.analysis}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      // Decision 69: a saved chapter is published or withdrawn through its dialog, confirmed with counts.
                      if (row._id) setPublicationOf({ id: row._id, name, mode: checked ? 'now' : 'unpublished' });
                      else update(row.key, { analysis: checked });
                    }}
                  />
                </Table.Td>
                <Table.Td miw={300}>
                  <Group gap="sm" wrap="wrap">
                    <Tooltip label="Supprimer">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Supprimer le chapitre ${name}`}
                        onClick={() => (row._id ? setDeleting({ row, name }) : remove(row))}
                      >
                        <IconTrash size={18} aria-hidden="true" />
                      </ActionIcon>
                    </Tooltip>
                    {row._id ? (
                      <>
                        <Anchor component={Link} to={paths.exos(row._id)} aria-label={`Exercices du chapitre ${name}`}>
                          Exercices
                        </Anchor>
                        <Anchor component="button" type="button" onClick={() => setOptionsOf({ id: row._id!, name })} aria-label={`Options de correction du chapitre ${name}`}>
                          Correction
                        </Anchor>
                        <Anchor component="button" type="button" onClick={() => setPublicationOf({ id: row._id!, name })} aria-label={`Publication des résultats du chapitre ${name}`}>
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
                        {paperIds.has(row._id) && (
                          <Anchor component={Link} to={paths.registrations(row._id)} aria-label={`Inscriptions au chapitre ${name}`}>
                            Inscriptions
                          </Anchor>
                        )}
                      </>
                    ) : (
                      <Text size="sm" c="gray.7">
                        À enregistrer
                      </Text>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      </ScrollArea>
      {optionsOf ? <GradingOptionsDialog chapterId={optionsOf.id} name={optionsOf.name} onClose={() => setOptionsOf(null)} /> : null}
      {publicationOf ? (
        <PublicationDialog chapterId={publicationOf.id} name={publicationOf.name} initialMode={publicationOf.mode} onClose={() => setPublicationOf(null)} />
      ) : null}
      <ConfirmDialog
        opened={deleting !== null}
        title="Supprimer ce chapitre ?"
        message={deleting && impact.data ? chapterDeletionMessage(deleting.name, impact.data) : null}
        confirmLabel="Supprimer"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove(deleting.row);
          setDeleting(null);
        }}
      />
      <Group>
        <Button variant="default" onClick={addChapter}>
          Ajouter un chapitre
        </Button>
        <Button onClick={saveChapters} loading={saving}>
          Enregistrer
        </Button>
      </Group>
    </Stack>
  );
}
