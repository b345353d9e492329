import { Button, Group, Modal, NumberInput, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { EXTRA_TIME_MAX_PERCENT, extraTimeSchema } from '@olympe/contract';
import { useSaveExtraTime } from '../../api/ops';

export const EXTRA_TIME_HELP =
  'En pourcentage de la durée de chaque épreuve chronométrée ; un tiers-temps correspond à 33 %. La fin de la fenêtre de passage est repoussée d’autant pour cet élève seulement.';

/** An admin sets one pupil's extra time (tiers-temps); it applies at once, to sessions already running too. */
export function ExtraTimeDialog({
  uid,
  name,
  percent,
  onClose,
  onSaved,
}: {
  uid: string;
  name: string;
  percent: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  // The contract's rule, checked at each keystroke; the field says it in one sentence of its own.
  const form = useForm<{ percent: number | string }>({
    initialValues: { percent },
    validate: schemaResolver(extraTimeSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const save = useSaveExtraTime(uid);
  const valid = form.isValid();
  // The client already showed the server's French message.
  const submit = form.onSubmit(({ percent: value }) =>
    save.mutate(Number(value), { onSuccess: onSaved, onError: (error) => console.error(error) }),
  );
  return (
    <Modal opened onClose={onClose} title={`Temps supplémentaire de ${name}`} closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <Stack>
        <NumberInput
          label="Temps supplémentaire (%)"
          description={EXTRA_TIME_HELP}
          min={0}
          max={EXTRA_TIME_MAX_PERCENT}
          allowDecimal={false}
          allowNegative={false}
          suffix={'\u202f%'}
          {...form.getInputProps('percent')}
          error={valid ? null : `Un nombre entier de 0 à ${EXTRA_TIME_MAX_PERCENT}.`}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Annuler
          </Button>
          <Button onClick={() => submit()} loading={save.isPending} disabled={!valid}>
            Enregistrer
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The cell text: « 33 % » (a narrow no-break space before the sign, as Intl writes percents), or a dash when none. */
export const extraTimeLabel = (percent: number | undefined) => (percent ? `${percent}\u202f%` : '—');
