import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadPdf, uploadPhotos } from '../api/files';
import type { SaveState } from './answer-queue';
import { classifySaveError, saveAnswer } from './requests';

/** While a copy could not be sent for want of network, it is tried again this often (and when the browser says it is back online). */
export const PDF_RETRY_MS = 5_000;

/** A copy: a PDF, or photos of its pages in order, which the server makes into one PDF (decision 140). */
type Copy = { kind: 'pdf'; file: File } | { kind: 'photos'; photos: File[] };

interface PendingCopy {
  copy: Copy;
  /** Taken when the pupil asked: a copy chosen later wins even if this one arrives last. */
  seq: number;
  /** Set once the file is stored, so that a failed answer save does not upload it again. */
  path?: string;
}

/**
 * A PDF answer of the chapter page (docs/product.md#design-4, "never lose an answer"): the file is uploaded, then
 * recorded as the answer. Without network (no response, 5xx, 429, 401) the copy is kept in memory
 * and sent again every PDF_RETRY_MS and when the network returns, with "Hors ligne — …" shown and a
 * warning before leaving the page; a refusal (deadline, not a PDF, too large) is shown and stops.
 * A new copy sent meanwhile replaces the waiting one. Photos of the copy (decision 140) go the same way, made
 * into one PDF by the server.
 */
export function usePdfUpload({ userId, exerciseId, onUploaded }: { userId: string; exerciseId: string; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [photos, setPhotos] = useState<File[]>([]);
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const pending = useRef<PendingCopy | null>(null);
  const running = useRef(false);

  const attempt = useCallback(
    async (quiet: boolean) => {
      const job = pending.current;
      if (!job || running.current) return;
      running.current = true;
      setState((s) => (s.kind === 'offline' ? s : { kind: 'saving' }));
      try {
        const { copy } = job;
        job.path ??=
          copy.kind === 'pdf'
            ? await uploadPdf(copy.file, { user: userId, exercise: exerciseId }, quiet)
            : await uploadPhotos(copy.photos, { exercise: exerciseId }, quiet);
        await saveAnswer({ exerciseId, answer: job.path, seq: job.seq }, quiet);
        if (pending.current === job) {
          pending.current = null;
          if (job.copy.kind === 'pdf') {
            const sent = job.copy.file;
            setFile((chosen) => (chosen === sent ? null : chosen));
          } else {
            const sent = job.copy.photos;
            setPhotos((chosen) => (chosen === sent ? [] : chosen));
          }
          setState({ kind: 'saved' });
          onUploaded();
        }
      } catch (error) {
        if (pending.current === job) {
          const failure = classifySaveError(error);
          if (failure.retry) setState({ kind: 'offline' });
          else {
            pending.current = null;
            setState({ kind: 'refused', message: failure.message });
          }
        }
      } finally {
        running.current = false;
      }
      // A newer copy asked for while this one was on its way.
      if (pending.current && pending.current !== job) void attempt(quiet);
    },
    [userId, exerciseId, onUploaded],
  );

  const send = useCallback(() => {
    if (!file) return;
    pending.current = { copy: { kind: 'pdf', file }, seq: Date.now() };
    // Not quiet: an explicit upload shows the server's reason in the red notification.
    void attempt(false);
  }, [file, attempt]);

  const sendPhotos = useCallback(() => {
    if (photos.length === 0) return;
    pending.current = { copy: { kind: 'photos', photos }, seq: Date.now() };
    void attempt(false);
  }, [photos, attempt]);

  useRetryWhileOffline(state.kind === 'offline', attempt);

  return { file, setFile, photos, setPhotos, state, send, sendPhotos };
}

/** While a copy waits for the network: tried again every PDF_RETRY_MS and when the browser is back online, with a warning before leaving the page. */
function useRetryWhileOffline(waiting: boolean, attempt: (quiet: boolean) => Promise<void>) {
  useEffect(() => {
    if (!waiting) return;
    const retry = () => void attempt(true);
    const timer = setInterval(retry, PDF_RETRY_MS);
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('online', retry);
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', retry);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [waiting, attempt]);
}
