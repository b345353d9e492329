import { ConfirmDialog } from '../../components/confirm-dialog';
import { distanceMetres, formatDistance } from './coordinates';
import { positionOf } from './draft';
import type { InstitutionEditor } from './use-institution-editor';

/** « Déplacer l’établissement « Collège X » de 412 km ? » (the name carries no article we could agree with). */
export function moveQuestion(name: string, metres: number): string {
  return `Déplacer l’établissement «\u202f${name}\u202f» de ${formatDistance(metres)}\u202f?`;
}

/** Moving a verified school asks first (decision 88): a stray click must not send it far away. */
export function MoveDialog({ editor }: { editor: InstitutionEditor }) {
  const { draft, moves } = editor;
  const from = draft ? positionOf(draft) : null;
  return (
    <ConfirmDialog
      opened={moves.pending !== null}
      title="Déplacer un établissement vérifié"
      message={moves.pending && draft && from ? moveQuestion(draft.name, distanceMetres(from, moves.pending.to)) : ''}
      confirmLabel="Déplacer"
      onCancel={moves.cancel}
      onConfirm={moves.confirm}
    />
  );
}
