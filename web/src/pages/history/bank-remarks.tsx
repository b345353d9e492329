import { useEffect, useRef } from 'react';
import { ActionIcon, Button, Group, Kbd, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconMapPin, IconPlus } from '@tabler/icons-react';
import type { BankComment } from '@olympe/contract';
import { useAddBankComment, useBank } from '../../api/comment-bank';
import { MARK_DRAG_TYPE } from '../../components/AnnotationLayer';
import type { GradeForm } from './use-grade-editor';

/** Alt + 1 … Alt + 9 apply the bank's first nine remarks. */
const SHORTCUTS = 9;

/** The form once `remark` is applied: its text appended to the comment, its id recorded once (decision 160). */
export function applyRemark(form: Pick<GradeForm, 'comment' | 'bankComments'>, remark: Pick<BankComment, '_id' | 'text'>) {
  const comment = form.comment.trim() === '' ? remark.text : `${form.comment.trimEnd()}\n\n${remark.text}`;
  const bankComments = form.bankComments.includes(remark._id) ? form.bankComments : [...form.bankComments, remark._id];
  return { comment, bankComments };
}

/** Alt + 1 … Alt + 9 from anywhere on the desk apply the bank's remark of that number. */
function useRemarkShortcuts(remarks: BankComment[], form: GradeForm, edit: (patch: Partial<GradeForm>) => void) {
  const latest = useRef({ form, remarks, edit });
  latest.current = { form, remarks, edit };

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      // `code` survives the layouts where Alt + a digit types another sign.
      const digit = /^(?:Digit|Numpad)([1-9])$/.exec(event.code)?.[1] ?? (/^[1-9]$/.test(event.key) ? event.key : undefined);
      const remark = digit ? latest.current.remarks[Number(digit) - 1] : undefined;
      if (!remark) return;
      event.preventDefault();
      latest.current.edit(applyRemark(latest.current.form, remark));
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * The exercise's comment bank under the comment (docs/product.md#returned-copies, decision 160): a remark applied in one
 * click or by Alt + its number, placed on the copy (click then touch the page, or drag it there), and « Ajouter à la
 * banque » for the comment typed.
 */
export function BankRemarks({
  exerciseId,
  form,
  edit,
  onPlace,
}: {
  exerciseId: string;
  form: GradeForm;
  edit: (patch: Partial<GradeForm>) => void;
  onPlace?: (remark: BankComment) => void;
}) {
  const bank = useBank(exerciseId);
  const add = useAddBankComment(exerciseId);
  const remarks = bank.data ?? [];
  useRemarkShortcuts(remarks, form, edit);

  const typed = form.comment.trim();
  return (
    <Stack gap={4} role="group" aria-labelledby="desk-bank">
      <Text fw={600} size="sm" id="desk-bank">
        Banque de remarques
      </Text>
      {bank.isError ? (
        <Text size="sm" c="red.9">
          Banque de remarques indisponible.
        </Text>
      ) : remarks.length === 0 && bank.isSuccess ? (
        <Text size="sm" c="gray.7">
          Aucune remarque pour cet exercice.
        </Text>
      ) : null}
      {remarks.map((remark, i) => (
        <RemarkRow
          key={remark._id}
          remark={remark}
          n={i + 1}
          applied={form.bankComments.includes(remark._id)}
          onApply={() => edit(applyRemark(form, remark))}
          onPlace={onPlace}
        />
      ))}
      {remarks.length > 0 ? (
        <Text size="xs" c="gray.7">
          Raccourci : <Kbd>Alt</Kbd> + <Kbd>1</Kbd> … <Kbd>9</Kbd> applique la remarque de ce numéro.
        </Text>
      ) : null}
      <Button
        variant="default"
        size="compact-sm"
        w="fit-content"
        leftSection={<IconPlus size={14} aria-hidden="true" />}
        disabled={typed === '' || remarks.some((r) => r.text === typed)}
        loading={add.isPending}
        onClick={() => add.mutate(typed)}
      >
        Ajouter à la banque
      </Button>
    </Stack>
  );
}

/** One remark: applied by a click (its number is its shortcut), placed on the copy by a click or a drag. */
function RemarkRow({
  remark,
  n,
  applied,
  onApply,
  onPlace,
}: {
  remark: BankComment;
  n: number;
  applied: boolean;
  onApply: () => void;
  onPlace?: (remark: BankComment) => void;
}) {
  return (
    <Group gap={4} wrap="nowrap" justify="space-between">
      <Button
        variant={applied ? 'light' : 'subtle'}
        size="compact-sm"
        justify="flex-start"
        styles={{ root: { height: 'auto', minHeight: 26 }, label: { whiteSpace: 'normal', textAlign: 'left' } }}
        onClick={onApply}
      >
        {/* The visible text is the name's end (axe: label-content-name-mismatch): « Appliquer la remarque 2 : … ». */}
        <VisuallyHidden>Appliquer la remarque </VisuallyHidden>
        {n <= SHORTCUTS ? <Kbd mr={6}>{n}</Kbd> : null}
        <VisuallyHidden> : </VisuallyHidden>
        {remark.text}
      </Button>
      {onPlace ? (
        <ActionIcon
          variant="subtle"
          aria-label={`Placer sur la copie : ${remark.text}`}
          draggable
          onDragStart={(e) =>
            e.dataTransfer.setData(MARK_DRAG_TYPE, JSON.stringify({ kind: 'bank', bankId: remark._id, text: remark.text }))
          }
          onClick={() => onPlace(remark)}
        >
          <IconMapPin size={16} aria-hidden="true" />
        </ActionIcon>
      ) : null}
    </Group>
  );
}
