import { useState, type DragEvent } from 'react';
import { Anchor, Button, CloseButton, FileButton, Group, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatParisDateTime, type UnlabeledAnswer } from '@olympe/contract';
import { useUnlabeled, useUploadScans } from '../../../api/centers';
import { showNotice } from '../../../api/notify';
import { paths } from '../../../config/paths';
import { partitionPdfs } from './center-options';

export const NO_COPIES_TEXT = 'Aucune copie déposée pour l’instant.';

const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`;

/** docs/product.md#spec-5: dropped or chosen files that are not PDFs are ignored, and the user is told which. */
export function ignoredFilesMessage(names: readonly string[]): string {
  return `${names.length > 1 ? 'Fichiers ignorés' : 'Fichier ignoré'} (PDF uniquement) : ${names.join(', ')}`;
}

/**
 * docs/product.md#spec-2: upload of scanned PDF answer sheets (several at once, PDF only) and the list of the
 * school's uploaded copies, each with "Visualiser". Each file goes through POST /pdfs, then is
 * filed for sorting with POST /answer/unlabeled.
 */
export function ScansSection({ chapterId, userId, institutionId }: { chapterId: string; userId: string; institutionId: string }) {
  const copies = useUnlabeled(chapterId);
  const send = useUploadScans(chapterId, { user: userId, institution: institutionId });
  const [chosen, setChosen] = useState<File[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [dragging, setDragging] = useState(false);

  function add(files: readonly File[]) {
    const { pdfs, ignored } = partitionPdfs(files);
    if (ignored.length > 0) showNotice(ignoredFilesMessage(ignored.map((f) => f.name)), 'yellow');
    if (pdfs.length > 0) setChosen((list) => [...list, ...pdfs.filter((f) => !list.some((c) => c.name === f.name && c.size === f.size))]);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    add(Array.from(event.dataTransfer.files));
  }

  function upload() {
    const files = chosen;
    setProgress({ done: 0, total: files.length });
    send.mutate(
      { files, onProgress: (handled) => setProgress({ done: handled, total: files.length }) },
      {
        onSuccess: ({ done, failed }) => {
          setChosen(failed);
          if (done > 0) showNotice(`${plural(done, 'copie')} ${done > 1 ? 'déposées' : 'déposée'}.`, 'green');
        },
        onSettled: () => setProgress(null),
      },
    );
  }

  const busy = progress !== null || send.isPending;
  return (
    <Stack gap="sm" component="section" aria-labelledby="scans-title">
      <Title order={3} size="h4" id="scans-title">
        Copies scannées
      </Title>
      <Paper
        withBorder
        p="md"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{ borderStyle: 'dashed', background: dragging ? 'var(--mantine-color-blue-light)' : undefined }}
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Déposez ici les copies scannées (PDF uniquement, plusieurs fichiers possibles), ou :</Text>
          <FileButton multiple accept="application/pdf" onChange={(files) => add(files)} disabled={busy}>
            {(props) => (
              <Button variant="light" leftSection={<IconUpload size={16} aria-hidden="true" />} {...props}>
                Choisir des fichiers PDF
              </Button>
            )}
          </FileButton>
          {chosen.length > 0 && (
            <List size="sm" aria-label="Fichiers choisis">
              {chosen.map((f) => (
                <List.Item key={`${f.name}:${f.size}`}>
                  <Group gap={4} wrap="nowrap">
                    {f.name}
                    <CloseButton
                      size="sm"
                      aria-label={`Retirer ${f.name}`}
                      disabled={busy}
                      onClick={() => setChosen((list) => list.filter((c) => c !== f))}
                    />
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
          <Group>
            <Button onClick={upload} disabled={chosen.length === 0} loading={busy}>
              Téléverser
            </Button>
            {progress && (
              <Text size="sm" role="status">
                {progress.done} / {progress.total}
              </Text>
            )}
          </Group>
        </Stack>
      </Paper>
      <CopiesTable copies={copies.data} loading={copies.isPending} />
    </Stack>
  );
}

function CopiesTable({ copies, loading }: { copies: UnlabeledAnswer[] | undefined; loading: boolean }) {
  if (loading) return <Text size="sm">Chargement des copies…</Text>;
  if (!copies || copies.length === 0) return <Text>{NO_COPIES_TEXT}</Text>;
  return (
    <Table.ScrollContainer minWidth={400} maxHeight={360}>
      <Table striped aria-label="Copies déposées" stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fichier</Table.Th>
            <Table.Th>Déposée le</Table.Th>
            <Table.Th>Pages</Table.Th>
            <Table.Th>État</Table.Th>
            <Table.Th>Copie</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {copies.map((c) => (
            <Table.Tr key={c._id}>
              <Table.Td>{c.originalName || c.answer}</Table.Td>
              <Table.Td>{formatParisDateTime(c.createdAt)}</Table.Td>
              <Table.Td>{c.pages ?? ''}</Table.Td>
              <Table.Td>{c.labeled ? 'Triée' : 'À trier'}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.viewer(c.answer)} aria-label={`Visualiser ${c.originalName || c.answer}`}>
                  Visualiser
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
