import { useState } from 'react';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { AnswerSheetsButton } from './answer-sheets-button';
import { Alert, Anchor, Button, Group, Loader, Paper, Radio, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DateTimeField } from '../../../components/DateFields';
import { paths } from '../../../config/paths';
import {
  formatParisDateTime,
  GRADE_LABELS,
  isoToParisWallClock,
  NO_OUTSIDE_PUPILS_TEXT,
  NO_OWN_PUPILS_TEXT,
  type Center,
  type CenterMember,
} from '@olympe/contract';
import { useCenter, useRefuseRegistration, useSaveCenter } from '../../../api/centers';
import { useChapter } from '../../../api/chapters';
import { isRefusedKey } from '../chapter-view';
import { RichText } from '../rich-text';
import { parsePlaces, splitMembers } from './center-options';
import { ScansSection } from './scans-section';

export const OPEN_QUESTION = 'Votre établissement peut-il organiser l’épreuve ?';

/**
 * docs/product.md#spec-2 "Centre management panel" (school staff): the yes/no answer, instructions and places
 * when yes, the registered pupils (own school and others), and the scanned copies.
 */
export function CenterManagementPanel({ chapterId, userId }: { chapterId: string; userId: string }) {
  const query = useCenter(chapterId);
  if (query.isPending) return <Loader aria-label="Chargement du centre" />;
  if (query.isError) {
    return <Alert color="red">{serverMessage(query.error) ?? 'Impossible de charger le centre de votre établissement.'}</Alert>;
  }
  const center = query.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="center-management-title">
      <Stack>
        <Title order={2} size="h3" id="center-management-title">
          Centre d’examen : {center.institution.name}
        </Title>
        {/* Keyed by the saved values: a reload after saving starts the form from the server's state. */}
        <CentersHeader chapterId={chapterId} />
        <CenterForm
          key={JSON.stringify([center.opened, center.nb_places, center.instructions, center.own])}
          chapterId={chapterId}
          center={center}
        />
        {center.opened && (
          <Anchor component={Link} to={paths.centerDay(chapterId)} w="fit-content">
            Jour de l’épreuve : liste des inscrits, convocations, émargement et présences
          </Anchor>
        )}
        <Registered center={center} chapterId={chapterId} />
        <Stack gap="xs" component="section" aria-labelledby="answer-sheets-title">
          <Title order={3} size="h4" id="answer-sheets-title">
            Feuilles réponses à QR code
          </Title>
          <AnswerSheetsButton chapterId={chapterId} />
        </Stack>
        <ScansSection chapterId={chapterId} userId={userId} institutionId={center.institution._id} />
      </Stack>
    </Paper>
  );
}

/** The chapter's instructions for exam centres (edited by admins on /exos), when there are some. */
function CentersHeader({ chapterId }: { chapterId: string }) {
  const chapter = useChapter(chapterId);
  const text = chapter.data?.headerCenters?.trim();
  if (!text) return null;
  return (
    <Stack gap={4} component="section" aria-labelledby="centers-header-title">
      <Title order={3} size="h4" id="centers-header-title">
        Instructions pour les centres d’examen
      </Title>
      <RichText content={chapter.data!.headerCenters!} />
    </Stack>
  );
}

/** The centre's answer and, when it opens, its details: the form starts from the saved values (docs/product.md#spec-2). */
function CenterForm({ chapterId, center }: { chapterId: string; center: Center }) {
  const saveCenter = useSaveCenter(chapterId);
  const form = useForm<CenterValues>({
    initialValues: {
      opened: center.opened,
      instructions: center.instructions,
      places: String(center.nb_places),
      // Decision 59: the sitting (Paris wall clock), address, room and what to bring; empty = the default shown below.
      sittingAt: center.own.sittingAt ? isoToParisWallClock(center.own.sittingAt) : '',
      address: center.own.address ?? '',
      room: center.own.room,
      bring: center.own.bring,
    },
  });
  const { opened, instructions, places, sittingAt, address, room, bring } = form.values;
  const parsed = parsePlaces(places);
  const placesError = 'error' in parsed ? parsed.error : null;

  function save() {
    if ('error' in parsed) return;
    saveCenter.mutate(
      opened
        ? { opened, instructions, nb_places: parsed.value, sittingAt: sittingAt || null, address: address.trim() || null, room, bring }
        : { opened },
      // docs/product.md#spec-8: a failed centre save is only logged (the client already showed the server's message).
      { onError: (error) => console.error(error) },
    );
  }

  return (
    <Stack>
      <Radio.Group
        label={OPEN_QUESTION}
        value={opened === null ? '' : opened ? 'yes' : 'no'}
        onChange={(value) => form.setFieldValue('opened', value === 'yes')}
      >
        <Group mt="xs">
          <Radio value="yes" label="Oui" />
          <Radio value="no" label="Non" />
        </Group>
      </Radio.Group>
      {opened && <CenterDetailsFields form={form} center={center} placesError={placesError} />}
      <Button w="fit-content" onClick={save} loading={saveCenter.isPending} disabled={opened === null || !!placesError}>
        Enregistrer
      </Button>
    </Stack>
  );
}

interface CenterValues {
  opened: boolean | null;
  instructions: string;
  /** As typed: read by parsePlaces, which says why it cannot be sent. */
  places: string;
  sittingAt: string;
  address: string;
  room: string;
  bring: string;
}

/** An open centre's instructions, places, sitting, address, room and what to bring, each empty field saying its default. */
function CenterDetailsFields({
  form,
  center,
  placesError,
}: {
  form: UseFormReturnType<CenterValues>;
  center: Center;
  placesError: string | null;
}) {
  return (
    <>
      <Textarea
        label="Instructions pour les élèves"
        description="Lieu, horaire, matériel : elles sont montrées aux élèves inscrits dans votre centre."
        autosize
        minRows={3}
        maxLength={20000}
        {...form.getInputProps('instructions')}
      />
      <TextInput
        label="Nombre de places pour les élèves extérieurs"
        description="Vos propres élèves ont toujours une place."
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        maw={320}
        {...form.getInputProps('places')}
        error={placesError}
        // docs/product.md#spec-5: only digits and the dot are accepted from the keyboard.
        onKeyDown={(e) => {
          if (isRefusedKey(e)) e.preventDefault();
        }}
      />
      <DateTimeField
        label="Date et heure de l’épreuve (heure de Paris)"
        description={center.details.defaults.sittingAt && center.details.sittingAt ? 'Vide : la date d’ouverture de l’épreuve.' : undefined}
        maw={320}
        value={form.values.sittingAt}
        onChange={(value) => form.setFieldValue('sittingAt', value)}
      />
      <TextInput
        label="Adresse du centre"
        description={`Vide : ${center.details.defaults.address ? center.details.address || 'l’adresse de l’établissement' : 'l’adresse de l’établissement'}.`}
        maxLength={500}
        {...form.getInputProps('address')}
      />
      <TextInput label="Salle" maxLength={200} maw={320} {...form.getInputProps('room')} />
      <Textarea
        label="À apporter"
        description="Vide : pièce d’identité, de quoi écrire, règle et compas."
        autosize
        minRows={2}
        maxLength={2000}
        {...form.getInputProps('bring')}
      />
    </>
  );
}

function Registered({ center, chapterId }: { center: Center; chapterId: string }) {
  const { own, outside } = splitMembers(center.members, center.institution._id);
  return (
    <>
      <Stack gap={4} component="section" aria-labelledby="own-pupils-title">
        <Title order={3} size="h4" id="own-pupils-title">
          Élèves inscrits de votre établissement ({own.length})
        </Title>
        {own.length > 0 && own.some((m) => m.schoolChange) && (
          <Text size="sm">
            Un élève qui a changé d’établissement depuis l’ouverture de l’épreuve est signalé : s’il n’est pas de votre établissement,
            refusez son inscription ; il en est prévenu et choisira un autre centre.
          </Text>
        )}
        {own.length === 0 ? (
          <Text>{NO_OWN_PUPILS_TEXT}</Text>
        ) : (
          <MembersTable members={own} label="Élèves de votre établissement" refusal={{ chapterId }} />
        )}
      </Stack>
      <Stack gap={4} component="section" aria-labelledby="outside-pupils-title">
        <Title order={3} size="h4" id="outside-pupils-title">
          Élèves extérieurs inscrits ({outside.length}
          {center.opened ? ` / ${center.nb_places} places` : ''})
        </Title>
        {outside.length === 0 ? (
          <Text>{NO_OUTSIDE_PUPILS_TEXT}</Text>
        ) : (
          <MembersTable members={outside} label="Élèves extérieurs" withSchool />
        )}
      </Stack>
    </>
  );
}

function MembersTable({
  members,
  label,
  withSchool = false,
  refusal,
}: {
  members: CenterMember[];
  label: string;
  withSchool?: boolean;
  /** Own-school pupils: those who moved to the school lately are flagged and may be turned away. */
  refusal?: { chapterId: string };
}) {
  const [refusing, setRefusing] = useState<CenterMember | null>(null);
  const flagged = !!refusal && members.some((m) => m.schoolChange);
  return (
    <>
      {/* Focusable so the keyboard can scroll it on a phone (axe: scrollable-region-focusable, decision 104). */}
      <Table.ScrollContainer
        minWidth={400}
        maxHeight={360}
        scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `${label} (défilement)` } }}
      >
        <Table striped aria-label={label} stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Prénom</Table.Th>
              <Table.Th>Nom</Table.Th>
              <Table.Th>Classe</Table.Th>
              {withSchool && <Table.Th>Établissement</Table.Th>}
              {flagged && <Table.Th>Changement d’établissement</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => (
              <Table.Tr key={m._id}>
                <Table.Td>{m.firstName}</Table.Td>
                <Table.Td>{m.lastName}</Table.Td>
                <Table.Td>{m.grade ? GRADE_LABELS[m.grade] : ''}</Table.Td>
                {withSchool && <Table.Td>{m.institution?.name ?? ''}</Table.Td>}
                {flagged && (
                  <Table.Td>
                    {m.schoolChange && (
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm">{schoolChangeText(m.schoolChange)}</Text>
                        <Button size="compact-sm" color="red" variant="light" onClick={() => setRefusing(m)}>
                          Refuser
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {refusal && refusing && <RefuseDialog chapterId={refusal.chapterId} member={refusing} onClose={() => setRefusing(null)} />}
    </>
  );
}

export function schoolChangeText(change: NonNullable<CenterMember['schoolChange']>): string {
  const from = change.previous ? ` (avant : ${change.previous.name})` : '';
  return `Depuis le ${formatParisDateTime(change.at)}${from}`;
}

function RefuseDialog({ chapterId, member, onClose }: { chapterId: string; member: CenterMember; onClose: () => void }) {
  const refuse = useRefuseRegistration(chapterId);
  const name = `${member.firstName ?? ''} ${member.lastName ?? ''}`.trim();
  return (
    <ConfirmDialog
      opened
      title="Refuser l’inscription"
      message={`${name} se déclare de votre établissement. S’il n’en est pas, son inscription dans votre centre est annulée : il en est prévenu sur la page de l’épreuve et devra choisir un autre centre. Il ne pourra plus s’inscrire dans le vôtre.`}
      confirmLabel="Refuser l’inscription"
      danger
      loading={refuse.isPending}
      onCancel={onClose}
      // The client already showed the server's message.
      onConfirm={() => refuse.mutate(member._id, { onSuccess: onClose, onError: (error) => console.error(error) })}
    />
  );
}

function serverMessage(error: unknown): string | null {
  const message = (error as { response?: { data?: { message?: unknown } } } | null)?.response?.data?.message;
  return typeof message === 'string' ? message : null;
}
