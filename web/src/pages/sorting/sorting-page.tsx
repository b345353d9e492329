import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Checkbox,
  Grid,
  Group,
  Kbd,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconDeviceFloppy, IconQrcode, IconRotateClockwise } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import {
  ROTATIONS,
  SORTING_EMPTY_TEXT,
  SORTING_RESERVATION_MINUTES,
  SORTING_SAVE_LABEL,
  SORTING_SUGGESTION_TEXT,
  SORTING_TITLE,
  type Rotation,
  type SortingPupil,
  type SortingSelection,
} from '@olympe/contract';
import { useLabelCopy, useSortingSelection } from '../../api/sorting';
import { paths } from '../../config/paths';
import { usePdfDocument } from '../../components/PdfView/use-pdf';
import { PageView, PdfFailed } from './page-view';
import { PupilPicker, type PupilPickerHandle } from './pupil-picker';
import { ReadingSummary } from './reading-summary';
import { buildLabels, commandForKey, initSorting, pendingSuggestions, sortingReducer, type KeyTarget } from './sorting-state';
import { PageHeading } from '../../components/page-heading';

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

const ROTATION_OPTIONS = ROTATIONS.map((r) => ({ value: String(r), label: `${r}°` }));

function targetOf(element: EventTarget | null): KeyTarget | null {
  if (!(element instanceof HTMLElement)) return null;
  return {
    tagName: element.tagName,
    type: element instanceof HTMLInputElement ? element.type : undefined,
    role: element.getAttribute('role'),
    isContentEditable: element.isContentEditable,
  };
}

function SortingWorkbench({ chapterId, selection }: { chapterId: string; selection: NonNullable<SortingSelection> }) {
  const { copy, exercises, pupils, chapter, remaining } = selection;
  const [state, dispatch] = useReducer(sortingReducer, undefined, () =>
    initSorting({ pageCount: copy.pages, exerciseIds: exercises.map((e) => e._id), suggestions: copy.suggestions }),
  );
  const [known, setKnown] = useState(() => new Map(pupils.map((p) => [p._id, p])));
  const [problem, setProblem] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<PupilPickerHandle>(null);
  const { doc, failed } = usePdfDocument(copy.answer);

  const page = state.pages[state.current]!;
  const onLastPage = state.current === state.pageCount - 1;
  const pupil = page.user ? known.get(page.user) ?? null : null;

  // The shortcuts work as soon as the copy is on screen.
  // Without scrolling: the page's title stays in view under the header.
  useEffect(() => rootRef.current?.focus({ preventScroll: true }), []);

  const addFound = useCallback((found: SortingPupil[]) => {
    setKnown((current) => {
      if (found.every((p) => current.has(p._id))) return current;
      const next = new Map(current);
      for (const p of found) if (!next.has(p._id)) next.set(p._id, p);
      return next;
    });
  }, []);

  // Pending until the next copy is on screen, so a second press cannot send this one again.
  const save = useLabelCopy(chapterId, copy._id);

  function submit() {
    const built = buildLabels(state);
    if (!built.ok) {
      setProblem(built.message);
      dispatch({ type: 'goto', page: built.page });
      return;
    }
    setProblem(null);
    save.mutate(built.labels);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const command = commandForKey(event, targetOf(event.target), onLastPage);
    if (!command || (command.type === 'save' && save.isPending)) return;
    event.preventDefault();
    if (command.type === 'save') submit();
    else if (command.type === 'focusSearch') {
      searchRef.current?.startSearch();
    }
    else dispatch(command);
  }

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
        <ReadingSummary readings={copy.pageReadings} readError={copy.readError} current={state.current} onGoto={(p) => dispatch({ type: 'goto', page: p })} />
        {toConfirm > 0 ? (
          <Group>
            <Button variant="light" color="blue.9" onClick={confirmAll} loading={allSuggested && save.isPending} leftSection={<IconQrcode size={16} aria-hidden="true" />}>
              {`Confirmer ${toConfirm > 1 ? `les ${toConfirm} pages suggérées` : 'la page suggérée'}${allSuggested ? ' et sauvegarder' : ''}`}
            </Button>
          </Group>
        ) : null}
        <Grid gap="lg">
          {/* 7/5 rather than 8/4: at 1280 px the side panel was too narrow for the chosen pupil's name. */}
          <Grid.Col span={{ base: 12, md: 7 }}>
            {failed ? <PdfFailed /> : <PageView doc={doc} pageNumber={state.current + 1} rotation={page.rotation} label={`Copie scannée, ${pageLabel.toLowerCase()}`} />}
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Paper withBorder p="md">
              <Stack gap="md">
                <Group justify="space-between">
                  <Text fw={700} size="lg" aria-live="polite">
                    {pageLabel}
                  </Text>
                  {page.suggested ? (
                    <Badge color="blue.8" variant="filled" leftSection={<IconQrcode size={14} aria-hidden="true" />}>
                      {SORTING_SUGGESTION_TEXT}
                    </Badge>
                  ) : null}
                </Group>
                {page.suggested ? (
                  <Text size="sm" c="gray.8">
                    Vérifiez l’élève, les exercices et la rotation lus sur le QR code : corrigez-les au besoin, puis passez à la page suivante.
                  </Text>
                ) : null}

                <PupilPicker
                  ref={searchRef}
                  chapterId={chapterId}
                  registered={pupils}
                  known={known}
                  value={page.blank ? null : page.user}
                  disabled={page.blank}
                  onChange={(p) => dispatch({ type: 'setUser', user: p._id })}
                  onDone={() => rootRef.current?.focus()}
                  onFound={addFound}
                />
                <Checkbox
                  label="Page blanche"
                  description="Aucun élève : la page est ignorée."
                  checked={page.blank}
                  onChange={(e) => dispatch({ type: 'setBlank', blank: e.currentTarget.checked })}
                />

                <Checkbox.Group
                  label="Exercices"
                  value={page.blank ? [] : page.exercises}
                  onChange={(values) => dispatch({ type: 'setExercises', exercises: values })}
                >
                  <Stack gap={6} mt={6}>
                    {exercises.length === 0 ? <Text size="sm">Ce chapitre n’a aucun exercice à rendre en PDF.</Text> : null}
                    {exercises.map((e) => (
                      <Checkbox key={e._id} value={e._id} label={e.title} disabled={page.blank} />
                    ))}
                  </Stack>
                </Checkbox.Group>

                <div>
                  <Text size="sm" fw={500} id="sorting-rotation-label">
                    Rotation
                  </Text>
                  <Group gap="xs" wrap="nowrap">
                    <SegmentedControl
                      aria-labelledby="sorting-rotation-label"
                      data={ROTATION_OPTIONS}
                      value={String(page.rotation)}
                      onChange={(v) => dispatch({ type: 'setRotation', rotation: Number(v) as Rotation })}
                    />
                    <Button variant="subtle" size="compact-sm" onClick={() => dispatch({ type: 'rotate' })} aria-label="Tourner de 90°">
                      <IconRotateClockwise size={18} aria-hidden="true" />
                    </Button>
                  </Group>
                </div>

                {!page.blank && pupil ? (
                  <Text size="sm" c="gray.8">
                    Page {state.current + 1} : {pupil.lastName} {pupil.firstName}
                    {page.exercises.length ? ` — ${page.exercises.map((e) => exerciseTitles.get(e)).join(', ')}` : ''}
                  </Text>
                ) : null}

                {problem ? (
                  <Alert color="red" role="alert">
                    {problem}
                  </Alert>
                ) : null}

                <Group justify="space-between">
                  <Button
                    variant="default"
                    onClick={() => dispatch({ type: 'prev' })}
                    disabled={state.current === 0}
                    leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
                  >
                    Page précédente
                  </Button>
                  {!onLastPage ? (
                    <Button variant="default" onClick={() => dispatch({ type: 'next' })} rightSection={<IconArrowRight size={16} aria-hidden="true" />}>
                      Page suivante
                    </Button>
                  ) : null}
                </Group>
                {onLastPage ? (
                  // A Mantine button keeps its label on one line and cuts it: this one wraps instead.
                  <Button
                    onClick={submit}
                    loading={save.isPending}
                    leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
                    h="auto"
                    mih={36}
                    py={6}
                    styles={{ label: { whiteSpace: 'normal', textAlign: 'center', overflow: 'visible' } }}
                  >
                    {SORTING_SAVE_LABEL}
                  </Button>
                ) : null}

                <KeyHelp />
              </Stack>
            </Paper>
          </Grid.Col>
        </Grid>
      </Stack>
    </Box>
  );
}

function KeyHelp() {
  const rows: Array<[string[], string]> = [
    [['→', '←'], 'page suivante, précédente'],
    [['↑', '↓'], 'exercice précédent, suivant'],
    // A focused box or button keeps Space for itself, as a keyboard user expects (sorting-state.ts).
    [['Espace'], 'tourner de 90° (sauf sur une case à cocher, un bouton ou un champ, où Espace garde son rôle)'],
    [['/'], 'chercher un élève (Entrée pour choisir)'],
    [['B'], 'page blanche'],
    [['Entrée'], 'sur la dernière page : sauvegarder'],
  ];
  return (
    <Stack gap={4} aria-label="Raccourcis clavier" role="group">
      <Text size="sm" fw={500}>
        Raccourcis clavier
      </Text>
      {rows.map(([keys, text]) => (
        <Text size="sm" key={text} c="gray.8">
          {keys.map((k, i) => (
            <span key={k}>
              {i > 0 ? ' / ' : null}
              <Kbd>{k}</Kbd>
            </span>
          ))}{' '}
          : {text}
        </Text>
      ))}
    </Stack>
  );
}
