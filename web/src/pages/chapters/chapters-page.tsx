import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { BIN_DAYS, NEW_CHAPTER_TITLE } from '@olympe/contract';
import { chapterKeys, createChapter, deleteChapter, updateChapter, useChapters } from '../../api/chapters';
import { TitledLoader } from '../../components/TitledLoader';
import { useEditableTable } from '../../hooks/use-editable-table';
import { useSession } from '../../session/session-context';
import { planChapterSave, rowOf, runChapterSave, type ChapterRow, type ChapterSavePlan } from './plan-save';
import { PageHeading } from '../../components/page-heading';
import { ChaptersTable, type ChapterTarget } from './chapters-table';
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
  const [optionsOf, setOptionsOf] = useState<ChapterTarget | null>(null);
  // Decision 69: publication in a dialog; a saved chapter's deletion confirmed with what goes with it.
  const [publicationOf, setPublicationOf] = useState<ChapterTarget | null>(null);
  const [deleting, setDeleting] = useState<{ row: ChapterRow; name: string } | null>(null);
  const impact = useDeletionImpact('chapter', deleting?.row._id ?? null);

  const paperIds = new Set((query.data ?? []).filter((c) => c.offline).map((c) => c._id));
  const title = 'Gestion des chapitres';
  if (query.isPending) return <TitledLoader title={title} label="Chargement des chapitres" />;

  function addChapter() {
    add({ key: `new-${Date.now()}-${rows.length}`, title: NEW_CHAPTER_TITLE, analysis: false, offline: false });
  }

  const saveChapters = () => save(chapterSaveSteps(() => session.reload()));

  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      {query.isError && <Text>Impossible de charger les chapitres.</Text>}
      <ChaptersTable
        rows={rows}
        paperIds={paperIds}
        onUpdate={update}
        onDelete={(r, name) => (r._id ? setDeleting({ row: r, name }) : remove(r))}
        onOptions={setOptionsOf}
        onPublication={setPublicationOf}
      />
      {optionsOf ? <GradingOptionsDialog chapterId={optionsOf.id} name={optionsOf.name} onClose={() => setOptionsOf(null)} /> : null}
      {publicationOf ? (
        <PublicationDialog
          chapterId={publicationOf.id}
          name={publicationOf.name}
          initialMode={publicationOf.mode}
          onClose={() => setPublicationOf(null)}
        />
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

/** What « Enregistrer » sends for the chapter list; `reload` refreshes the session afterwards. */
function chapterSaveSteps(reload: () => Promise<void>) {
  return {
    plan: planChapterSave,
    // docs/product.md#spec-7: deletions first, then creations and updates, then the list reloads. Calls are
    // quiet; one notification tells the outcome.
    run: (plan: ChapterSavePlan) =>
      runChapterSave(plan, {
        remove: (id) => deleteChapter(id, true),
        create: (fields) => createChapter(fields, true),
        update: (id, changes) => updateChapter(id, changes, true),
      }),
    queryKey: chapterKeys.all,
    // The sidebar's test lists come from the session.
    after: reload,
  };
}
