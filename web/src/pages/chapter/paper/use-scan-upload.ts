import { useRef, useState } from 'react';
import { useUploadScans } from '../../../api/centers';
import { showNotice } from '../../../api/notify';
import type { UploadProgress } from '../../../api/uploads';
import { partitionPdfs } from './center-options';

export interface Sending {
  index: number;
  total: number;
  name: string;
  progress: UploadProgress | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`;

/** docs/product.md#spec-5: dropped or chosen files that are not PDFs are ignored, and the user is told which. */
function ignoredFilesMessage(names: readonly string[]): string {
  return `${names.length > 1 ? 'Fichiers ignorés' : 'Fichier ignoré'} (PDF uniquement) : ${names.join(', ')}`;
}

/**
 * The scans a school sends (decision 91): the PDFs chosen, the one in hand with its progress, the server's refusals
 * by file; `upload` sends them one after the other, `cancel` stops the one in hand and those after it.
 */
export function useScanUpload(chapterId: string, target: { user: string; institution: string }) {
  const send = useUploadScans(chapterId, target);
  const [chosen, setChosen] = useState<File[]>([]);
  const [refusals, setRefusals] = useState<Map<File, string>>(new Map());
  const [sending, setSending] = useState<Sending | null>(null);
  const controller = useRef<AbortController | null>(null);

  function add(files: readonly File[]) {
    const { pdfs, ignored } = partitionPdfs(files);
    if (ignored.length > 0) showNotice(ignoredFilesMessage(ignored.map((f) => f.name)), 'yellow');
    if (pdfs.length > 0) setChosen((list) => [...list, ...pdfs.filter((f) => !list.some((c) => c.name === f.name && c.size === f.size))]);
  }

  function upload() {
    const files = chosen;
    const abort = new AbortController();
    controller.current = abort;
    setRefusals(new Map());
    setSending({ index: 0, total: files.length, name: files[0]?.name ?? '', progress: null });
    send.mutate(
      {
        files,
        signal: abort.signal,
        onProgress: (index, progress) => setSending({ index, total: files.length, name: files[index].name, progress }),
      },
      {
        onSuccess: ({ done, failed, cancelled }) => {
          setChosen(failed.map((f) => f.file));
          setRefusals(new Map(failed.filter((f) => f.message).map((f) => [f.file, f.message!])));
          if (done > 0) showNotice(`${plural(done, 'copie')} ${done > 1 ? 'déposées' : 'déposée'}.`, 'green');
          if (cancelled) showNotice('Envoi annulé.', 'yellow');
        },
        onSettled: () => {
          setSending(null);
          controller.current = null;
        },
      },
    );
  }

  const cancel = () => controller.current?.abort();
  return { chosen, setChosen, refusals, sending, add, upload, cancel, pending: send.isPending };
}
