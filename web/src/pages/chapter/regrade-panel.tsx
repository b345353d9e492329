import { useState } from 'react';
import { Badge, Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  formatParisDateTime,
  formatPoints,
  REGRADE_MESSAGE_MAX,
  REGRADE_STATUS_LABELS,
  regradeCreateSchema,
  regradePlaceText,
  type MyRegrade,
  type RegradableAnswer,
  type RegradeCreate,
  type RegradeStatus,
} from '@olympe/contract';
import { useAskRegrade, useMyRegrades } from '../../api/regrade';
import { useResultsCard, useReturnedCopies } from '../../api/results';
import { NO_PLACE, PlaceFields, placeFields, type Place } from './regrade-place';

export const REGRADE_TITLE = 'Demandes de réexamen';
export const ASK_LABEL = 'Demander un réexamen';

const STATUS_COLORS: Record<RegradeStatus, string> = { open: 'blue.9', accepted: 'teal.9', declined: 'gray.8' };
const gradeText = (grade: string | null) => (grade === null ? 'non notée' : formatPoints(Number(grade)));

function RequestCard({ request }: { request: MyRegrade }) {
  const place = regradePlaceText(request);
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Réexamen : ${request.exercise.title}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={700}>{request.exercise.title}</Text>
        <Badge color={STATUS_COLORS[request.status]}>{REGRADE_STATUS_LABELS[request.status]}</Badge>
      </Group>
      <Text size="sm" c="gray.8">
        Demandé le {formatParisDateTime(request.createdAt)}
      </Text>
      {/* Decision 162: the place of the returned copy the pupil pointed at. */}
      {place && (
        <Text size="sm" fw={700} data-testid="regrade-place">
          {place}
        </Text>
      )}
      <Text mt="xs" style={{ whiteSpace: 'pre-wrap' }}>
        {request.message}
      </Text>
      {request.status === 'accepted' && (
        <Text mt="xs" fw={700}>
          Nouvelle note : {gradeText(request.newGrade)} (avant : {gradeText(request.oldGrade)})
        </Text>
      )}
      {request.reply !== null && (
        <Text mt="xs" style={{ whiteSpace: 'pre-wrap' }}>
          <Text span fw={700}>
            Réponse du correcteur :
          </Text>{' '}
          {request.reply}
        </Text>
      )}
    </Paper>
  );
}

/** The form asking about one answer; once the chapter returns its copies, it may point at a place of the copy (decision 162). */
function AskForm({ chapterId, answers, pending }: { chapterId: string; answers: RegradableAnswer[]; pending: Set<string> }) {
  const ask = useAskRegrade(chapterId);
  // The request's two fields; the message is checked by the contract's own schema (POST /regrade), the copy is one of the list's.
  const form = useForm({
    initialValues: { answerId: '', message: '' },
    validate: schemaResolver(regradeCreateSchema.pick({ message: true }), { sync: true }),
  });
  const [place, setPlace] = useState<Place>(NO_PLACE);
  const card = useResultsCard(chapterId, true);
  const copies = useReturnedCopies(chapterId, card.data?.copiesReturned === true);
  const choices = answers
    .filter((a) => !pending.has(a.exercise._id))
    .map((a) => ({ value: a.answerId, label: `${a.exercise.title} (${gradeText(a.grade)} sur ${formatPoints(a.exercise.maxPoints)})` }));
  if (choices.length === 0) return null;
  const chosen = answers.find((a) => a.answerId === form.values.answerId);
  const copy = chosen && copies.data?.exercises.find((e) => e._id === chosen.exercise._id);
  const pointable = copy && (copy.pdf !== null || copy.layers.some((l) => l.annotations.length > 0));
  const submit = (values: RegradeCreate) =>
    ask.mutate(
      { ...values, ...(pointable ? placeFields(place) : {}) },
      {
        onSuccess: () => {
          form.reset();
          setPlace(NO_PLACE);
        },
      },
    );
  return (
    <form onSubmit={form.onSubmit(submit)}>
      <Stack gap="xs">
        <Select
          label="Exercice"
          placeholder="Choisissez l’exercice"
          data={choices}
          {...form.getInputProps('answerId')}
          value={form.values.answerId || null}
          onChange={(value) => {
            form.setFieldValue('answerId', value ?? '');
            setPlace(NO_PLACE);
          }}
          required
        />
        {pointable && <PlaceFields copy={copy} place={place} onChange={setPlace} />}
        <Textarea
          label="Votre message"
          description="Dites ce qui, selon vous, n’a pas été vu ou compté."
          autosize
          minRows={3}
          maxLength={REGRADE_MESSAGE_MAX}
          {...form.getInputProps('message')}
          required
        />
        <Group>
          <Button type="submit" loading={ask.isPending} disabled={!form.values.answerId || form.values.message.trim() === ''}>
            {ASK_LABEL}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Decision 74, on a published chapter's page: the pupil's regrade requests with their status and the
 * corrector's reply, and while the window is open a form to ask about one of their answers.
 */
export function RegradePanel({ chapterId }: { chapterId: string }) {
  const query = useMyRegrades(chapterId);
  if (!query.isSuccess) return null;
  const { open, regradeUntil, answers, requests } = query.data;
  if (!open && requests.length === 0) return null;
  const pending = new Set(requests.filter((r) => r.status === 'open').map((r) => r.exercise._id));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="regrade-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="regrade-title">
          {REGRADE_TITLE}
        </Title>
        {open && regradeUntil && (
          <Text>
            Vous pouvez demander le réexamen d’une de vos réponses jusqu’au {formatParisDateTime(regradeUntil)}, en expliquant pourquoi.
          </Text>
        )}
        {!open && regradeUntil && <Text>Les demandes de réexamen sont closes depuis le {formatParisDateTime(regradeUntil)}.</Text>}
        {requests.map((r) => (
          <RequestCard key={r._id} request={r} />
        ))}
        {open && <AskForm chapterId={chapterId} answers={answers} pending={pending} />}
      </Stack>
    </Paper>
  );
}
