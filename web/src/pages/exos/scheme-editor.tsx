import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { newSchemeItem, type SchemeDraft } from './plan-save';

/**
 * Decision 61: the marking scheme of one exercise (« Initialisation : 1 pt »…). The corrector ticks
 * items on the desk and the grade is their sum unless typed by hand; items keep their id so the
 * grades that ticked them still point at them after an edit.
 */
export function SchemeEditor({ n, scheme, onChange }: { n: number; scheme: SchemeDraft[]; onChange: (scheme: SchemeDraft[]) => void }) {
  const set = (key: string, patch: Partial<SchemeDraft>) => onChange(scheme.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  return (
    <Stack gap={6} role="group" aria-label={`Barème de l’exercice ${n}`}>
      <Text size="sm" fw={600}>
        Barème
      </Text>
      {scheme.length === 0 ? (
        <Text size="sm" c="gray.7">
          Aucun élément : la note se saisit directement.
        </Text>
      ) : null}
      {scheme.map((item, k) => (
        <Group key={item.key} gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={`Élément ${k + 1}`}
            aria-label={`Élément ${k + 1} du barème de l’exercice ${n}`}
            value={item.text}
            placeholder="ex. Initialisation"
            onChange={(e) => set(item.key, { text: e.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <TextInput
            label="Points"
            aria-label={`Points de l’élément ${k + 1} du barème de l’exercice ${n}`}
            value={item.points}
            inputMode="decimal"
            w={80}
            onChange={(e) => set(item.key, { points: e.currentTarget.value })}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mb={4}
            aria-label={`Retirer l’élément ${k + 1} du barème de l’exercice ${n}`}
            onClick={() => onChange(scheme.filter((i) => i.key !== item.key))}
          >
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconPlus size={14} aria-hidden="true" />}
        onClick={() => onChange([...scheme, newSchemeItem()])}
        aria-label={`Ajouter un élément au barème de l’exercice ${n}`}
        w="fit-content"
      >
        Ajouter un élément de barème
      </Button>
    </Stack>
  );
}
