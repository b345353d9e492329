import { useMemo, useState } from 'react';
import { Alert, Box, Button, Center, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconQrcode } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { SORTING_EMPTY_TEXT, SORTING_RESERVATION_MINUTES, SORTING_TITLE, type SortingSelection } from '@olympe/contract';
import { useSortingSelection } from '../../api/sorting';
import { paths } from '../../config/paths';
import { usePdfDocument } from '../../components/PdfView/use-pdf';
import { PageView, PdfFailed } from './page-view';
import { ReadingSummary } from './reading-summary';
import { pendingSuggestions } from './sorting-state';
import { PageHeading } from '../../components/page-heading';
import { SortingPanel } from './sorting-panel';
import { useSortingWorkbench } from './use-sorting-workbench';

const RESERVATION_RENEW_MS = 4 * 60_000;
export const SORTING_START_LABEL = 'Commencer le tri';

/** docs/product.md#spec-2 "Triage" (/sorting/{id}): one unlabelled scanned copy at a time, sorted page by page. */
export function SortingPage() {
  const { id = '' } = useParams();
  // Asking for a copy reserves it: a link alone (the URL holds the chapter) must not do that, the
  // corrector starts with a click (decisions.md §31).
  const [started, setStarted] = useState(false);
  // Asked again every few minutes while the page is open: the server hands the same copy back
  // and renews the 10-minute reservation, so a long scan is not given to another sorter.
  const query = useSortingSelection(id, started, RESERVATION_RENEW_MS);

  let body;
  if (!started) {
    body = (
      <Stack align="flex-start">
        <Text>{`Commencer le tri réserve une copie à votre nom pendant ${SORTING_RESERVATION_MINUTES} minutes : aucun autre correcteur ne la triera pendant ce temps.`}</Text>
        <Button onClick={() => setStarted(true)} leftSection={<IconArrowRight size={16} aria-hidden="true" />}>
          {SORTING_START_LABEL}
        </Button>
      </Stack>
    );
  } else if (query.isPending) {
    body = (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement de la copie à trier" />
      </Center>
    );
  } else if (query.isError) {
    body = <Alert color="red">Impossible de charger la copie à trier.</Alert>;
  } else if (!query.data) {
    body = (
      <Stack align="flex-start">
        <Text>{SORTING_EMPTY_TEXT}</Text>
        <Button component={Link} to={paths.grader(id)} variant="light" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
          Retour à la correction
        </Button>
      </Stack>
    );
  } else {
    // Keyed by the copy: the next copy starts on page 1 with fresh choices.
    body = <SortingWorkbench key={query.data.copy._id} chapterId={id} selection={query.data} />;
  }
  return (
    <Stack>
      <PageHeading>{SORTING_TITLE}</PageHeading>
      {body}
    </Stack>
  );
}

function SortingWorkbench({ chapterId, selection }: { chapterId: string; selection: NonNullable<SortingSelection> }) {
  const { copy, exercises, chapter, remaining } = selection;
  const workbench = useSortingWorkbench(chapterId, selection);
  const { state, dispatch, save, submit, onKeyDown, page, rootRef } = workbench;
  const { doc, failed } = usePdfDocument(copy.answer);

  const pageLabel = `Page ${state.current + 1} sur ${state.pageCount}`;
  const toConfirm = pendingSuggestions(state);
  const allSuggested = state.suggestions.every((s) => s !== null);
  // Every page labelled by the reader: confirming is saving; otherwise the sorter goes on with the others.
  const confirmAll = () => (allSuggested ? submit() : dispatch({ type: 'confirmSuggested' }));
  const exerciseTitles = useMemo(() => new Map(exercises.map((e) => [e._id, e.title])), [exercises]);

  return (
    <Box ref={rootRef} tabIndex={-1} onKeyDown={onKeyDown} style={{ outline: 'none' }} aria-label="Copie à trier" role="region">
      <Stack gap="sm">
        <Text c="gray.8">
          {chapter.title} — {copy.institution?.name ?? 'établissement non précisé'} — {copy.originalName || 'copie scannée'} —{' '}
          {remaining > 1 ? `${remaining} fichiers à trier` : 'dernier fichier à trier'}
        </Text>
        <ReadingSummary
          readings={copy.pageReadings}
          readError={copy.readError}
          current={state.current}
          onGoto={(p) => dispatch({ type: 'goto', page: p })}
        />
        {toConfirm > 0 ? (
          <Group>
            <Button
              variant="light"
              color="blue.9"
              onClick={confirmAll}
              loading={allSuggested && save.isPending}
              leftSection={<IconQrcode size={16} aria-hidden="true" />}
            >
              {`Confirmer ${toConfirm > 1 ? `les ${toConfirm} pages suggérées` : 'la page suggérée'}${allSuggested ? ' et sauvegarder' : ''}`}
            </Button>
          </Group>
        ) : null}
        <Grid gap="lg">
          {/* 7/5 rather than 8/4: at 1280 px the side panel was too narrow for the chosen pupil's name. */}
          <Grid.Col span={{ base: 12, md: 7 }}>
            {failed ? (
              <PdfFailed />
            ) : (
              <PageView
                doc={doc}
                pageNumber={state.current + 1}
                rotation={page.rotation}
                label={`Copie scannée, ${pageLabel.toLowerCase()}`}
              />
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <SortingPanel
              chapterId={chapterId}
              selection={selection}
              workbench={workbench}
              pageLabel={pageLabel}
              exerciseTitles={exerciseTitles}
            />
          </Grid.Col>
        </Grid>
      </Stack>
    </Box>
  );
}
