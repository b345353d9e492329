import { BIN_DAYS } from '@olympe/contract';
import { useDeletionImpact } from '../../api/results';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';
import type { ExerciseDraft } from './plan-save';

/** A saved exercise's deletion, confirmed with the copies and grades that go with it. */
export function DeleteExerciseDialog(props: {
  deleting: ExerciseDraft | null;
  onCancel: () => void;
  onConfirm: (draft: ExerciseDraft) => void;
}) {
  const { deleting, onCancel, onConfirm } = props;
  const impact = useDeletionImpact('exercise', deleting?._id ?? null);
  return (
    <ConfirmDialog
      opened={deleting !== null}
      title="Supprimer cet exercice ?"
      message={
        deleting && impact.data
          ? `« ${deleting.title} » ira à la corbeille à l’enregistrement${impact.data.answers > 0 ? ` avec ${countOf(impact.data.answers, 'copie')} de ${countOf(impact.data.pupils, 'élève')} et ${countOf(impact.data.grades, 'note')}` : ' (aucune copie)'} ; un administrateur peut l’en sortir pendant ${BIN_DAYS} jours.`
          : null
      }
      confirmLabel="Supprimer"
      danger
      onCancel={onCancel}
      onConfirm={() => {
        if (deleting) onConfirm(deleting);
      }}
    />
  );
}
