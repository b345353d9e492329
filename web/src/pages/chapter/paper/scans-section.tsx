import { useState, type DragEvent } from 'react';
import { Alert, Anchor, Button, CloseButton, FileButton, Group, List, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatParisDateTime, frenchNumberFormat, type UnlabeledAnswer } from '@olympe/contract';
import { countOf } from '../../../components/confirm-dialog';
import { useUnlabeled } from '../../../api/centers';
import { usePublicConfig } from '../../../api/institutions';
import type { UploadProgress } from '../../../api/uploads';
import { paths } from '../../../config/paths';
import { formatBytes, formatSpeed, formatTimeLeft } from '../../../lib/transfer';
import { useScanUpload, type Sending } from './use-scan-upload';

export const NO_COPIES_TEXT = 'Aucune copie déposée pour l’instant.';
export const WAITING_TEXT = 'Connexion interrompue : l’envoi reprendra tout seul là où il s’est arrêté dès son retour.';

/** « 42 % · 3,1 Mo sur 7,4 Mo · 12,4 Mo/s · environ 2 min restantes » (decision 92). */
export function progressLine(p: UploadProgress): string {
  const parts = [
    frenchNumberFormat({ style: 'percent', maximumFractionDigits: 0 }).format(p.total > 0 ? p.sent / p.total : 0),
    `${formatBytes(p.sent)} sur ${formatBytes(p.total)}`,
  ];
  if (p.speed !== null && p.speed > 0) parts.push(formatSpeed(p.speed));
  if (p.secondsLeft !== null) parts.push(formatTimeLeft(p.secondsLeft));
  return parts.join(' · ');
}

/**
 * docs/product.md#spec-2: upload of scanned PDF answer sheets (several at once, PDF only) and the list of the
 * school's uploaded copies, each with "Visualiser". Each file is sent as a resumable upload (decision 91:
 * a progress bar with speed and time left, a cut network resumes by itself, « Annuler l’envoi »), then
 * filed for sorting with POST /answer/unlabeled.
 */
export function ScansSection({ chapterId, userId, institutionId }: { chapterId: string; userId: string; institutionId: string }) {
  const copies = useUnlabeled(chapterId);
  const config = usePublicConfig();
  const maxScanMb = config.data?.maxScanMb;
  const { chosen, setChosen, refusals, sending, add, upload, cancel, pending } = useScanUpload(chapterId, {
    user: userId,
    institution: institutionId,
  });
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    add(Array.from(event.dataTransfer.files));
  }

  const busy = sending !== null || pending;
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
          <Text size="sm">
            Déposez ici les copies scannées (PDF uniquement, plusieurs fichiers possibles
            {maxScanMb ? `, ${formatBytes(maxScanMb * 1024 * 1024)} au plus par fichier` : ''}), ou :
          </Text>
          <FileButton multiple accept="application/pdf" onChange={(files) => add(files)} disabled={busy}>
            {(props) => (
              <Button variant="light" leftSection={<IconUpload size={16} aria-hidden="true" />} {...props}>
                Choisir des fichiers PDF
              </Button>
            )}
          </FileButton>
          <ChosenFiles chosen={chosen} refusals={refusals} busy={busy} onRemove={(f) => setChosen((list) => list.filter((c) => c !== f))} />
          {sending ? (
            <SendingStatus sending={sending} onCancel={cancel} />
          ) : (
            <Button onClick={upload} disabled={chosen.length === 0} loading={pending}>
              Téléverser
            </Button>
          )}
        </Stack>
      </Paper>
      <CopiesTable copies={copies.data} loading={copies.isPending} />
    </Stack>
  );
}

/** The files chosen and not sent yet, each with its remove button and the server's refusal of a former try. */
function ChosenFiles({
  chosen,
  refusals,
  busy,
  onRemove,
}: {
  chosen: File[];
  refusals: Map<File, string>;
  busy: boolean;
  onRemove: (file: File) => void;
}) {
  if (chosen.length === 0) return null;
  return (
    <List size="sm" aria-label="Fichiers choisis">
      {chosen.map((f) => (
        <List.Item key={`${f.name}:${f.size}`}>
          <Group gap={4} wrap="nowrap">
            {f.name}
            <CloseButton size="sm" aria-label={`Retirer ${f.name}`} disabled={busy} onClick={() => onRemove(f)} />
          </Group>
          {refusals.get(f) && (
            <Text size="sm" c="red.9">
              {refusals.get(f)}
            </Text>
          )}
        </List.Item>
      ))}
    </List>
  );
}

/** The file in hand: its progress bar, « 42 % · … · environ 2 min restantes », or the wait for the network. */
function SendingStatus({ sending, onCancel }: { sending: Sending; onCancel: () => void }) {
  const p = sending.progress;
  const value = p && p.total > 0 ? Math.round((p.sent / p.total) * 1000) / 10 : 0;
  return (
    <Stack gap={4} w="100%" maw={560}>
      <Text size="sm" fw={500} role="status">
        {sending.total > 1 ? `Fichier ${sending.index + 1} / ${sending.total} : envoi de ${sending.name}` : `Envoi de ${sending.name}`}
      </Text>
      <Progress value={value} size="lg" aria-label={`Envoi de ${sending.name}`} color={p?.waiting ? 'orange' : 'blue'} />
      <Text size="sm">{p ? progressLine(p.waiting ? { ...p, speed: null, secondsLeft: null } : p) : 'Préparation de l’envoi…'}</Text>
      {p?.waiting && (
        <Alert color="orange" p="xs">
          {WAITING_TEXT}
        </Alert>
      )}
      <Group>
        <Button variant="default" size="xs" onClick={onCancel}>
          Annuler l’envoi
        </Button>
      </Group>
    </Stack>
  );
}

/** « Triée », « Triée, 2 pages blanches écartées » (a duplex scan's backs, decision 109) or « À trier ». */
function copyState(c: UnlabeledAnswer): string {
  if (!c.labeled) return 'À trier';
  const n = c.droppedBlanks ?? 0;
  return n === 0 ? 'Triée' : `Triée, ${countOf(n, 'page blanche écartée', 'pages blanches écartées')}`;
}

function CopiesTable({ copies, loading }: { copies: UnlabeledAnswer[] | undefined; loading: boolean }) {
  if (loading) return <Text size="sm">Chargement des copies…</Text>;
  if (!copies || copies.length === 0) return <Text>{NO_COPIES_TEXT}</Text>;
  return (
    <Table.ScrollContainer
      minWidth={400}
      maxHeight={360}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Copies déposées (défilement)' } }}
    >
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
              <Table.Td>{copyState(c)}</Table.Td>
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
