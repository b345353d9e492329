import { useState } from 'react';
import { useForm } from '@mantine/form';
import { Alert, Button, Group, Loader, Modal, Stack, Switch, Text } from '@mantine/core';
import type { ChapterDetail, GradingOptions } from '@olympe/contract';
import { useChapter } from '../../api/chapters';
import { useSaveGradingOptions } from '../../api/grading';
import { DecimalField } from '../../components/decimal-field';

/**
 * Decision 62: a chapter's grading options, set by an admin from /chapters: anonymous correction (the
 * correctors see « Copie 0042 », never a name) and double correction with its tolerance in points.
 */
export function GradingOptionsDialog({ chapterId, name, onClose }: { chapterId: string; name: string; onClose: () => void }) {
  const query = useChapter(chapterId);
  return (
    <Modal opened onClose={onClose} title={`Correction : ${name}`} closeButtonProps={{ 'aria-label': 'Fermer' }}>
      {query.isPending ? (
        <Loader role="status" aria-label="Chargement des options de correction" />
      ) : query.isError ? (
        <Alert color="red">Impossible de charger ce chapitre.</Alert>
      ) : (
        <OptionsForm chapterId={chapterId} chapter={query.data} onClose={onClose} />
      )}
    </Modal>
  );
}

function OptionsForm({ chapterId, chapter, onClose }: { chapterId: string; chapter: ChapterDetail; onClose: () => void }) {
  const form = useForm<GradingOptions>({
    initialValues: {
      anonymousGrading: chapter.anonymousGrading ?? false,
      doubleGrading: chapter.doubleGrading ?? false,
      gradingTolerance: chapter.gradingTolerance ?? 0,
    },
  });
  const options = form.values;
  const [toleranceError, setToleranceError] = useState<string | null>(null);
  const save = useSaveGradingOptions(chapterId);
  return (
    <Stack>
      <Switch
        label="Correction anonyme"
        description="Les correcteurs voient « Copie 0042 » au lieu du nom, sans e-mail ni établissement. Les administrateurs voient les noms."
        {...form.getInputProps('anonymousGrading', { type: 'checkbox' })}
      />
      <Switch
        label="Double correction"
        description="Chaque copie est corrigée par deux correcteurs différents, sans voir la note de l’autre. Dans la tolérance, la note finale est la moyenne ; au-delà, un administrateur arbitre."
        {...form.getInputProps('doubleGrading', { type: 'checkbox' })}
      />
      <DecimalField
        label="Tolérance (points)"
        description="Écart au-delà duquel les deux notes vont à l’arbitrage."
        min={0}
        maxDecimals={2}
        unit="points"
        disabled={!options.doubleGrading}
        value={options.gradingTolerance}
        onChange={(value, error) => {
          setToleranceError(error);
          if (value !== null) form.setFieldValue('gradingTolerance', value);
        }}
        maw={200}
      />
      {save.isError ? <Text c="red.9">Les options n’ont pas été enregistrées.</Text> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Annuler
        </Button>
        <Button
          loading={save.isPending}
          disabled={options.doubleGrading && !!toleranceError}
          onClick={() => save.mutate(options, { onSuccess: onClose })}
        >
          Enregistrer les options
        </Button>
      </Group>
    </Stack>
  );
}
