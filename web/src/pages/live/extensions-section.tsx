import { Button, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { extensionSchema, formatParisDateTime, type LiveChapter } from '@olympe/contract';
import { useAddExtension } from '../../api/ops';

/**
 * Incidents during a timed chapter (a power cut, a crashed computer): an admin gives one pupil more
 * minutes, even after their end (the session reopens). Every extension is listed with who and why.
 */
export function ExtensionsSection({ chapterId, extensions }: { chapterId: string; extensions: LiveChapter['extensions'] }) {
  const form = useForm({
    initialValues: { email: '', minutes: 10 as number | string, reason: '' },
    // The contract's rules, on the body as it is sent.
    validate: (values) => schemaResolver(extensionSchema, { sync: true })({ ...values, minutes: Number(values.minutes) }),
  });
  const add = useAddExtension(chapterId);
  const submit = form.onSubmit(({ email, minutes, reason }) =>
    add.mutate(
      { email, minutes: Number(minutes), reason },
      {
        onSuccess: () => form.setValues({ email: '', reason: '' }),
        // The client already showed the server's French message.
        onError: (error) => console.error(error),
      },
    ),
  );

  return (
    <Stack gap="sm" component="section" aria-labelledby="extensions-title">
      <Title order={2} size="h3" id="extensions-title">
        Prolongations après un incident
      </Title>
      <form onSubmit={submit}>
        <Group align="flex-end" wrap="wrap">
          <TextInput label="E-mail de l’élève" type="email" required {...form.getInputProps('email')} w={280} />
          <NumberInput
            label="Minutes ajoutées"
            required
            min={1}
            max={600}
            allowDecimal={false}
            {...form.getInputProps('minutes')}
            w={150}
          />
          <TextInput
            label="Raison"
            placeholder="Panne de courant, ordinateur bloqué…"
            required
            maxLength={500}
            {...form.getInputProps('reason')}
            w={320}
          />
          <Button type="submit" loading={add.isPending}>
            Ajouter la prolongation
          </Button>
        </Group>
      </form>
      {extensions.length === 0 ? <Text>Aucune prolongation pour ce chapitre.</Text> : <ExtensionsTable extensions={extensions} />}
    </Stack>
  );
}

/** Every extension of the chapter: who, how many minutes, why, by whom and when. */
function ExtensionsTable({ extensions }: { extensions: LiveChapter['extensions'] }) {
  // On a phone the table scrolls sideways: the scrolling box takes the focus so a keyboard can scroll it (axe).
  return (
    <Table.ScrollContainer
      minWidth={640}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Prolongations (défilement horizontal)' } }}
    >
      <Table striped aria-label="Prolongations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Élève</Table.Th>
            <Table.Th scope="col">Minutes</Table.Th>
            <Table.Th scope="col">Raison</Table.Th>
            <Table.Th scope="col">Par</Table.Th>
            <Table.Th scope="col">Le</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {extensions.map((x) => (
            <Table.Tr key={`${x.user._id}-${x.at}`}>
              <Table.Td>{`${x.user.firstName ?? ''} ${x.user.lastName ?? ''}`.trim() || x.user.email}</Table.Td>
              <Table.Td>{x.minutes}</Table.Td>
              <Table.Td>{x.reason}</Table.Td>
              <Table.Td>{x.by ?? ''}</Table.Td>
              <Table.Td>{formatParisDateTime(x.at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
