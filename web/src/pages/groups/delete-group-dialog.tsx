import { useGroupImpact } from '../../api/results';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';
import type { GroupRow } from './plan-save';

/** A saved group's deletion is confirmed with its number of members. */
export function DeleteGroupDialog({
  deleting,
  onCancel,
  onConfirm,
}: {
  deleting: GroupRow | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const impact = useGroupImpact(deleting?._id ?? null);
  return (
    <ConfirmDialog
      opened={deleting !== null}
      title="Supprimer ce groupe ?"
      message={
        deleting && impact.data
          ? `Le groupe « ${deleting.savedName ?? deleting.name} » sera supprimé à l’enregistrement : ${countOf(impact.data.members, 'membre')} ${impact.data.members > 1 ? 'le quittent' : 'le quitte'}. Les comptes, les copies et les notes restent.`
          : null
      }
      confirmLabel="Supprimer"
      danger
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
