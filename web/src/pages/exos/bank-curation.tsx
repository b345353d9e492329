import { useState } from 'react';
import { ActionIcon, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconChevronDown, IconChevronRight, IconTrash } from '@tabler/icons-react';
import { useBank, useRetireBankComment, useUpdateBankComment } from '../../api/comment-bank';

/**
 * Decision 160: an exercise's comment bank as admins curate it (docs/product.md#returned-copies): each remark
 * reworded (saved when the field is left), moved up or down, retired (kept on the copies that applied it).
 * Read only when opened.
 */
export function BankCuration({ exerciseId, n }: { exerciseId: string; n: number }) {
  const [open, setOpen] = useState(false);
  const bank = useBank(exerciseId, open);
  const update = useUpdateBankComment(exerciseId);
  const retire = useRetireBankComment(exerciseId);
  const remarks = bank.data ?? [];
  const Chevron = open ? IconChevronDown : IconChevronRight;
  return (
    <Stack gap={6}>
      <UnstyledButton aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Group gap={4}>
          <Chevron size={14} aria-hidden="true" />
          <Text size="sm" fw={600}>
            Banque de remarques de l’exercice {n}
          </Text>
        </Group>
      </UnstyledButton>
      {open && bank.isSuccess && remarks.length === 0 ? (
        <Text size="sm" c="gray.7">
          Aucune remarque : les correcteurs en ajoutent depuis la copie (« Ajouter à la banque »).
        </Text>
      ) : null}
      {open
        ? remarks.map((remark, i) => (
            <Group key={remark._id} gap="xs" wrap="nowrap" align="flex-end">
              <TextInput
                label={`Remarque ${i + 1} (${remark.uses} utilisation${remark.uses > 1 ? 's' : ''})`}
                defaultValue={remark.text}
                style={{ flex: 1 }}
                onBlur={(e) => {
                  const text = e.currentTarget.value.trim();
                  if (text && text !== remark.text) update.mutate({ id: remark._id, text });
                }}
              />
              <ActionIcon
                variant="subtle"
                mb={4}
                aria-label={`Monter la remarque ${i + 1}`}
                disabled={i === 0}
                onClick={() => update.mutate({ id: remark._id, position: i - 1 })}
              >
                <IconArrowUp size={16} aria-hidden="true" />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                mb={4}
                aria-label={`Descendre la remarque ${i + 1}`}
                disabled={i === remarks.length - 1}
                onClick={() => update.mutate({ id: remark._id, position: i + 1 })}
              >
                <IconArrowDown size={16} aria-hidden="true" />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red.9"
                mb={4}
                aria-label={`Retirer la remarque ${i + 1}`}
                onClick={() => retire.mutate(remark._id)}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))
        : null}
    </Stack>
  );
}
