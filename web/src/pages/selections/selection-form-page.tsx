import { ActionIcon, Alert, Anchor, Button, Fieldset, Group, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { SELECTION_CHAPTERS_MAX, type Selection } from '@olympe/contract';
import { Link, useParams } from 'react-router';
import { useMyGroups } from '../../api/groups';
import { useSelection } from '../../api/selections';
import { DateField } from '../../components/DateFields';
import { PageHeading } from '../../components/page-heading';
import { TitledLoader } from '../../components/TitledLoader';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';
import { loadErrorText } from './load-error';
import { CategoryFields } from './category-fields';
import { useSelectionForm, type SelectionForm } from './use-selection-form';

const JURY_RIGHT_OPTIONS = [
  { value: 'read', label: 'Lecture' },
  { value: 'decide', label: 'Décision' },
];

/**
 * The chapters whose totals make the score, each with its weight. The shared chapter chooser lists links to
 * screens; here a chapter is picked in a field among those the session knows (every chapter for an admin).
 */
function ChapterFields({ form }: { form: SelectionForm }) {
  const { chapters } = useSession();
  const options = chapters.map((c) => ({ value: c._id, label: c.title }));
  const count = form.values.chapters.length;
  return (
    <Stack gap="sm">
      {form.values.chapters.map((_, index) => (
        <Group key={index} align="flex-start" wrap="wrap">
          <Select
            label={`Chapitre ${index + 1}`}
            withAsterisk
            searchable
            data={options}
            nothingFoundMessage="Aucun chapitre"
            miw={240}
            {...form.getInputProps(`chapters.${index}.chapterId`)}
          />
          <NumberInput
            label="Coefficient"
            decimalSeparator=","
            min={0}
            max={100}
            maw={120}
            {...form.getInputProps(`chapters.${index}.weight`)}
          />
          <ActionIcon
            variant="subtle"
            color="red.9"
            mt={26}
            aria-label={`Retirer le chapitre ${index + 1}`}
            disabled={count === 1}
            onClick={() => form.removeListItem('chapters', index)}
          >
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      ))}
      {typeof form.errors.chapters === 'string' && (
        <Text c="red.9" size="sm" role="alert">
          {form.errors.chapters}
        </Text>
      )}
      <Button
        variant="light"
        w="fit-content"
        disabled={count >= SELECTION_CHAPTERS_MAX}
        onClick={() => form.insertListItem('chapters', { chapterId: '', weight: 1 })}
      >
        Ajouter un chapitre
      </Button>
    </Stack>
  );
}

/** The next round the qualified go to, and the jury: a group and its right. */
function RoundAndJuryFields({ form }: { form: SelectionForm }) {
  const groups = useMyGroups();
  const groupOptions = (groups.data ?? []).map((g) => ({ value: g._id, label: g.name }));
  return (
    <>
      <Fieldset legend="Tour suivant">
        <Stack gap="sm">
          <TextInput
            label="Titre du tour suivant"
            description="Les élèves qualifiés lisent « Qualifié(e) pour … »."
            withAsterisk
            {...form.getInputProps('nextRoundTitle')}
          />
          <DateField
            label="Date du tour suivant"
            value={form.values.nextRoundDate ?? ''}
            onChange={(value) => form.setFieldValue('nextRoundDate', value === '' ? null : value)}
            error={form.errors.nextRoundDate}
          />
          <TextInput label="Lieu du tour suivant" {...form.getInputProps('nextRoundPlace')} />
        </Stack>
      </Fieldset>
      <Fieldset legend="Jury">
        <Group align="flex-start" wrap="wrap">
          <Select
            label="Groupe du jury"
            description="Ses membres voient le tableau du jury."
            clearable
            searchable
            data={groupOptions}
            nothingFoundMessage="Aucun groupe"
            miw={240}
            {...form.getInputProps('juryGroupId')}
          />
          <Select label="Droit du jury" data={JURY_RIGHT_OPTIONS} allowDeselect={false} {...form.getInputProps('juryRight')} />
        </Group>
      </Fieldset>
    </>
  );
}

function SelectionFormView({ selection }: { selection: Selection | null }) {
  const { form, submit, formError, saving } = useSelectionForm(selection);
  const title = selection ? `Modifier « ${selection.title} »` : 'Nouvelle sélection';
  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      <Anchor component={Link} to={selection ? paths.selection(selection._id) : paths.selections}>
        {selection ? 'Retour au tableau du jury' : 'Retour aux sélections'}
      </Anchor>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Titre de la sélection" withAsterisk {...form.getInputProps('title')} />
          <Title order={2}>Chapitres et coefficients</Title>
          <ChapterFields form={form} />
          <Title order={2}>Catégories</Title>
          <CategoryFields form={form} />
          <RoundAndJuryFields form={form} />
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <Button type="submit" loading={saving} w="fit-content">
            {selection ? 'Enregistrer' : 'Créer la sélection'}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

/** /selections/new (admins). */
export function NewSelectionPage() {
  return <SelectionFormView selection={null} />;
}

/** /selections/:id/edit (admins): the form once the selection is in. */
export function EditSelectionPage() {
  const { id = '' } = useParams();
  const query = useSelection(id);
  if (query.isError)
    return (
      <Stack>
        <PageHeading>Modifier la sélection</PageHeading>
        <Alert color="red">{loadErrorText(query.error)}</Alert>
      </Stack>
    );
  if (!query.data) return <TitledLoader title="Modifier la sélection" label="Chargement de la sélection" />;
  return <SelectionFormView key={query.data._id} selection={query.data} />;
}
