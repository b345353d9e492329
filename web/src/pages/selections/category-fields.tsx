import { ActionIcon, Button, Fieldset, Group, MultiSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { GENDER_LABELS, GENDERS, GRADE_LABELS, GRADES, SELECTION_CATEGORIES_MAX } from '@olympe/contract';
import { DateField } from '../../components/DateFields';
import { newCategory, type SelectionForm } from './use-selection-form';

const GENDER_OPTIONS = GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] }));
const GRADE_OPTIONS = GRADES.map((g) => ({ value: g, label: GRADE_LABELS[g] }));

/** One category: its name and its filter (genders, grades, birth dates; empty means any), moved up or down, removed. */
function CategoryFieldset({ form, index, count }: { form: SelectionForm; index: number; count: number }) {
  const name = form.values.categories[index]!.name || `Catégorie ${index + 1}`;
  const path = (field: string) => `categories.${index}.${field}`;
  const date = (field: 'birthDateMin' | 'birthDateMax') => ({
    value: form.values.categories[index]![field] ?? '',
    onChange: (value: string) => form.setFieldValue(path(field), value === '' ? null : value),
    error: form.errors[path(field)],
  });
  return (
    <Fieldset legend={`Catégorie ${index + 1}`}>
      <Stack gap="sm">
        <TextInput label="Nom de la catégorie" withAsterisk {...form.getInputProps(path('name'))} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <MultiSelect label="Genres" description="Vide : tous." data={GENDER_OPTIONS} {...form.getInputProps(path('genders'))} />
          <MultiSelect label="Classes" description="Vide : toutes." data={GRADE_OPTIONS} {...form.getInputProps(path('grades'))} />
          <DateField label="Né(e) le ou après" description="Vide : pas de limite." {...date('birthDateMin')} />
          <DateField label="Né(e) le ou avant" description="Vide : pas de limite." {...date('birthDateMax')} />
        </SimpleGrid>
        <Group gap="xs">
          <ActionIcon
            variant="default"
            aria-label={`Monter la catégorie « ${name} »`}
            disabled={index === 0}
            onClick={() => form.reorderListItem('categories', { from: index, to: index - 1 })}
          >
            <IconArrowUp size={16} aria-hidden="true" />
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label={`Descendre la catégorie « ${name} »`}
            disabled={index === count - 1}
            onClick={() => form.reorderListItem('categories', { from: index, to: index + 1 })}
          >
            <IconArrowDown size={16} aria-hidden="true" />
          </ActionIcon>
          <Button
            variant="subtle"
            color="red.9"
            leftSection={<IconTrash size={16} aria-hidden="true" />}
            disabled={count === 1}
            onClick={() => form.removeListItem('categories', index)}
          >
            Retirer la catégorie « {name} »
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/** The ordered categories (decision 155): a pupil may be in several; the order is the board's and the exports'. */
export function CategoryFields({ form }: { form: SelectionForm }) {
  const count = form.values.categories.length;
  return (
    <Stack>
      {form.values.categories.map((c, index) => (
        <CategoryFieldset key={c._id ?? `new-${index}`} form={form} index={index} count={count} />
      ))}
      {typeof form.errors.categories === 'string' && (
        <Stack c="red.9" fz="sm" role="alert">
          {form.errors.categories}
        </Stack>
      )}
      <Button
        variant="light"
        w="fit-content"
        disabled={count >= SELECTION_CATEGORIES_MAX}
        onClick={() => form.insertListItem('categories', newCategory())}
      >
        Ajouter une catégorie
      </Button>
    </Stack>
  );
}
