import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  regradePlaceText,
  formatParisDateTime,
  formatPoints,
  isoToParisWallClock,
  parisWallClockToIso,
  REGRADE_REPLY_MAX,
  REGRADE_STATUS_LABELS,
  type Person,
  type RegradeQueueItem,
} from '@olympe/contract';
import { Link, useParams } from 'react-router';
import { useAnswerRegrade, useRegradeQueue, useSaveRegradeWindow } from '../../api/regrade';
import { ChapterChooser } from '../../components/chapter-chooser';
import { PageHeading } from '../../components/page-heading';
import { TitledLoader } from '../../components/TitledLoader';
import { DateTimeField } from '../../components/DateFields';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';

const TITLE = 'Demandes de réexamen';

const nameOf = (p: Person) => p.pseudonym ?? ([p.firstName, p.lastName].filter(Boolean).join(' ') || 'Élève sans nom');
const gradeText = (grade: string | null) => (grade === null ? 'non notée' : formatPoints(Number(grade)));

/** The admin's closing date of the chapter's requests, entered in Paris time. */
function WindowForm({ chapterId, regradeUntil }: { chapterId: string; regradeUntil: string | null }) {
  const save = useSaveRegradeWindow(chapterId);
  const [value, setValue] = useState(regradeUntil ? isoToParisWallClock(regradeUntil) : '');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(value === '' ? null : parisWallClockToIso(value));
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <DateTimeField
          label="Date de clôture des réexamens (heure de Paris)"
          description="Vide : les élèves ne peuvent pas demander de réexamen."
          value={value}
          onChange={setValue}
        />
        <Button type="submit" loading={save.isPending}>
          Enregistrer la date
        </Button>
      </Group>
    </form>
  );
}

function RequestItem({ chapterId, request }: { chapterId: string; request: RegradeQueueItem }) {
  const who = nameOf(request.student);
  return (
    <Paper withBorder p="md" component="article" aria-label={`Demande de ${who}, ${request.exercise.title}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {who} — {request.exercise.title}
          </Title>
          <Badge color={request.status === 'open' ? 'blue.9' : request.status === 'accepted' ? 'teal.9' : 'gray.8'}>
            {REGRADE_STATUS_LABELS[request.status]}
          </Badge>
        </Group>
        <Text size="sm" c="gray.8">
          Demandé le {formatParisDateTime(request.createdAt)} · note actuelle : {gradeText(request.grade)} sur{' '}
          {formatPoints(request.exercise.maxPoints)}
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{request.message}</Text>
        {/* Decision 162: where on the copy the pupil points (« Page 2, zone marquée », or the mark's text). */}
        {regradePlaceText(request) && (
          <Text size="sm" fw={700}>
            {regradePlaceText(request)}
          </Text>
        )}
        <Anchor component={Link} to={paths.history(request.student._id, request.exercise._id)}>
          Voir la copie de {who}
        </Anchor>
        {request.status === 'open' ? <AnswerForm chapterId={chapterId} request={request} /> : <RequestOutcome request={request} />}
      </Stack>
    </Paper>
  );
}

/** An open request's answer: the new grade and the reply to the pupil, then accept or decline. */
function AnswerForm({ chapterId, request }: { chapterId: string; request: RegradeQueueItem }) {
  const answer = useAnswerRegrade(chapterId);
  // Accepting and declining send different bodies: the server checks each with its own schema.
  const form = useForm({ initialValues: { grade: request.grade === null ? '' : formatPoints(Number(request.grade)), reply: '' } });
  const { reply } = form.values;
  const send = (accept: boolean) => answer.mutate({ id: request._id, accept, ...form.values });
  return (
    <Stack gap="xs">
      <TextInput
        label={`Nouvelle note (sur ${formatPoints(request.exercise.maxPoints)})`}
        inputMode="decimal"
        {...form.getInputProps('grade')}
        maw={220}
      />
      <Textarea label="Réponse à l’élève" autosize minRows={2} maxLength={REGRADE_REPLY_MAX} {...form.getInputProps('reply')} required />
      <Group>
        <Button onClick={() => send(true)} loading={answer.isPending && answer.variables?.accept === true} disabled={reply.trim() === ''}>
          Accepter avec cette note
        </Button>
        <Button
          variant="outline"
          color="red.9"
          onClick={() => send(false)}
          loading={answer.isPending && answer.variables?.accept === false}
          disabled={reply.trim() === ''}
        >
          Refuser
        </Button>
      </Group>
    </Stack>
  );
}

/** A handled request: the grade's change when accepted, and who replied what, when. */
function RequestOutcome({ request }: { request: RegradeQueueItem }) {
  return (
    <>
      {request.status === 'accepted' && (
        <Text fw={700}>
          Note passée de {gradeText(request.oldGrade)} à {gradeText(request.newGrade)}
        </Text>
      )}
      <Text style={{ whiteSpace: 'pre-wrap' }}>
        <Text span fw={700}>
          Réponse{request.handledBy ? ` de ${nameOf(request.handledBy)}` : ''}
          {request.handledAt ? ` le ${formatParisDateTime(request.handledAt)}` : ''} :
        </Text>{' '}
        {request.reply}
      </Text>
    </>
  );
}

/** /regrade/{chapterId} (correctors and admins, decision 74): a chapter's regrade requests, open ones first. */
export function RegradePage() {
  const { id = '' } = useParams();
  const { roles } = useSession();
  const query = useRegradeQueue(id);
  if (query.isPending) return <TitledLoader title={TITLE} label="Chargement des demandes" />;
  if (query.isError) {
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Alert color="red.9">Les demandes n’ont pas pu être chargées.</Alert>
      </Stack>
    );
  }
  const { chapter, requests } = query.data;
  const open = requests.filter((r) => r.status === 'open').length;
  return (
    <Stack>
      <PageHeading>{`${TITLE} — ${chapter.title}`}</PageHeading>
      <Text>
        {chapter.regradeUntil
          ? `Les élèves peuvent demander un réexamen jusqu’au ${formatParisDateTime(chapter.regradeUntil)}${chapter.published ? '' : ', une fois les notes publiées'}.`
          : 'Les demandes de réexamen ne sont pas ouvertes pour ce chapitre.'}{' '}
        {open === 0 ? 'Aucune demande en attente.' : open === 1 ? '1 demande en attente.' : `${open} demandes en attente.`}
      </Text>
      {roles.isAdmin && <WindowForm key={chapter.regradeUntil ?? ''} chapterId={chapter._id} regradeUntil={chapter.regradeUntil} />}
      {requests.map((r) => (
        <RequestItem key={r._id} chapterId={chapter._id} request={r} />
      ))}
    </Stack>
  );
}

/** /regrade from the menu: which chapter's requests to open. */
export function RegradeChooserPage() {
  return <ChapterChooser title={TITLE} to={paths.regrade} />;
}
