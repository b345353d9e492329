import type { LiveChapter } from '@olympe/contract';

/** Poll period of the live page: fresh enough to follow a start, cheap for the server. */
export const LIVE_REFRESH_MS = 5000;

export interface LiveFigure {
  label: string;
  value: number;
  hint?: string;
  /** Draws attention (errors, sudden blur peaks). */
  alert?: boolean;
}

/** The tiles of the live page, in reading order. */
export function liveFigures(live: LiveChapter): LiveFigure[] {
  return [
    { label: 'Élèves ayant commencé', value: live.started },
    { label: 'En cours', value: live.inProgress },
    { label: 'Terminé', value: live.finished },
    { label: 'Avec temps supplémentaire', value: live.extraTimePupils, hint: 'parmi les élèves ayant commencé' },
    { label: 'Enregistrent (dernière minute)', value: live.savingLastMinute, hint: `${live.answersLastMinute} réponses` },
    { label: 'Pertes de focus', value: live.blurEvents, hint: `${live.blurEventsLastMinute} dans la dernière minute` },
    {
      label: 'Erreurs serveur (5 dernières minutes)',
      value: live.serverErrorsLastFiveMinutes,
      hint: 'sur ce serveur',
      alert: live.serverErrorsLastFiveMinutes > 0,
    },
  ];
}

/** "il y a N min" labels for the saves-per-minute bars, oldest first (the last is the current minute). */
export function minuteLabels(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const ago = count - 1 - i;
    return ago === 0 ? 'minute en cours' : `il y a ${ago} min`;
  });
}
