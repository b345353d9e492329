import { useState } from 'react';
import { formatPoints, type SchemeChangePreview } from '@olympe/contract';
import { frenchNumber } from '@olympe/contract/typography';
import { isApiError } from '../../api/client';
import { previewSchemeChange } from '../../api/comment-bank';
import { updateExercise, type ExercisePatch } from '../../api/exercises';
import { ConfirmDialog } from '../../components/confirm-dialog';

const signed = (n: number) => (n > 0 ? `+${formatPoints(n)}` : n < 0 ? `−${formatPoints(-n)}` : '0');

/** Decision 161: the preview in words, « 1 214 notes changent, de −1 à +0,5 », and the pupils who will be told. */
export function schemeChangeText(p: SchemeChangePreview): string {
  const notes = p.changed > 1 ? `${frenchNumber(p.changed)} notes changent` : `${frenchNumber(p.changed)} note change`;
  const told =
    p.publishedPupils > 0
      ? ` ${frenchNumber(p.publishedPupils)} élève${p.publishedPupils > 1 ? 's' : ''} d’un chapitre publié ${p.publishedPupils > 1 ? 'seront prévenus' : 'sera prévenu'} par courriel.`
      : '';
  return `${notes}, de ${signed(p.minDelta)} à ${signed(p.maxDelta)}.${told}`;
}

type Ask = (preview: SchemeChangePreview) => Promise<boolean>;

/**
 * PATCH /exos/{id} for an exercise whose scheme changed (decision 161): the grades it would move are previewed and
 * confirmed first; a 409 `scheme_recompute` (grades given meanwhile) asks again with the new count. False: not saved.
 */
export async function saveSchemeChange(id: string, changes: ExercisePatch, ask: Ask): Promise<boolean> {
  let confirmRecompute: number | undefined;
  if (changes.schemeItems) {
    const preview = await previewSchemeChange(id, changes.schemeItems);
    if (preview.changed > 0) {
      if (!(await ask(preview))) return false;
      confirmRecompute = preview.changed;
    }
  }
  try {
    await updateExercise(id, { ...changes, confirmRecompute }, true);
  } catch (error) {
    const preview =
      isApiError(error) && error.code === 'scheme_recompute'
        ? (error.response?.data as { preview?: SchemeChangePreview }).preview
        : undefined;
    if (!preview) throw error;
    if (!(await ask(preview))) return false;
    await updateExercise(id, { ...changes, confirmRecompute: preview.changed }, true);
  }
  return true;
}

/** The dialog of decision 161, asked while « Enregistrer » runs: resolves true when the recomputation is confirmed. */
export function useSchemeConfirm() {
  const [asking, setAsking] = useState<{ preview: SchemeChangePreview; resolve: (ok: boolean) => void } | null>(null);
  const ask: Ask = (preview) => new Promise((resolve) => setAsking({ preview, resolve }));
  const close = (ok: boolean) => {
    asking?.resolve(ok);
    setAsking(null);
  };
  const dialog = (
    <ConfirmDialog
      opened={asking !== null}
      title="Changer le barème"
      message={asking ? schemeChangeText(asking.preview) : ''}
      confirmLabel="Recalculer les notes"
      onCancel={() => close(false)}
      onConfirm={() => close(true)}
    />
  );
  return { ask, dialog };
}
