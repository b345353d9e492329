import { useState, type Dispatch, type SetStateAction } from 'react';
import type { useSaveInstitution } from '../../api/institutions';
import { placedAt, positionOf, textOf, type CoordinateErrors, type Draft, type Focus, type Position, type Undo } from './draft';

/** A move of a verified school waiting for « Déplacer » in the dialog. */
export interface PendingMove {
  to: Position;
  focus: boolean;
  extra?: Partial<Draft>;
}

interface Editor {
  draft: Draft | null;
  setDraft: Dispatch<SetStateAction<Draft | null>>;
  setFocus: (focus: Focus) => void;
  setErrors: (errors: CoordinateErrors) => void;
  undo: Undo | null;
  setUndo: (undo: Undo | null) => void;
  save: ReturnType<typeof useSaveInstitution>;
}

/**
 * Moving the selected school on /map (decision 88): by a click, typed coordinates or a found address. A verified
 * school asks first, as a stray click must not send it far away; the last move can be undone.
 */
export function useMoves({ draft, setDraft, setFocus, setErrors, undo, setUndo, save }: Editor) {
  const [pending, setPending] = useState<PendingMove | null>(null);

  /** Puts the selected school at `to`; the position it leaves can be restored. */
  const apply = (to: Position, follow: boolean, extra: Partial<Draft> = {}) => {
    if (!draft) return;
    const from = positionOf(draft);
    if (from) setUndo({ id: draft._id, from, saved: false });
    setErrors({});
    setDraft(placedAt({ ...draft, ...extra }, to));
    if (follow) setFocus({ ...to });
  };
  const request = (to: Position, follow: boolean, extra?: Partial<Draft>) => {
    if (!draft) return;
    const from = positionOf(draft);
    if (draft._id && draft.savedConfirmed && from && (from.lat !== to.lat || from.lng !== to.lng)) setPending({ to, focus: follow, extra });
    else apply(to, follow, extra);
  };
  const revert = () => {
    if (!undo || !draft) return;
    const { from } = undo;
    setUndo(null);
    setErrors({});
    setDraft(placedAt(draft, from));
    setFocus({ ...from });
    if (undo.saved && draft._id) save.mutate({ id: draft._id, body: { latitude: from.lat, longitude: from.lng } });
  };
  const confirm = () => {
    if (pending) apply(pending.to, pending.focus, pending.extra);
    setPending(null);
  };
  const cancel = () => {
    setPending(null);
    // The fields show where the school stays, not the refused coordinates.
    if (draft) setDraft({ ...draft, latText: textOf(draft.lat), lngText: textOf(draft.lng) });
  };
  const undoable = undo && draft && undo.id === draft._id ? undo : null;
  return { pending, request, revert, confirm, cancel, undoable };
}
