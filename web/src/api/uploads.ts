import type { DetailedError, HttpResponse, Upload } from 'tus-js-client';
import { createRateMeter } from '../lib/transfer';
import { API_BASE, ApiError, freshToken } from './client';

/**
 * Resumable uploads of big scans (decision 91): tus 1.0 through tus-js-client, the one place besides
 * api/client.ts that talks HTTP (it needs the upload progress of XMLHttpRequest, which fetch does not
 * give, and the tus protocol's resume). A file goes in chunks; a cut network pauses the upload, which
 * resumes by itself from the offset the server holds when the connection is back; a page reloaded
 * mid-way resumes the same file from where it stopped (its fingerprint is kept in localStorage).
 */

/** Each PATCH carries at most this much: a cut re-sends at most one chunk's unreceived part. */
export const UPLOAD_CHUNK_BYTES = 5 * 1024 * 1024;
/** Quick retries of a blip before the upload says it waits for the connection. */
const RETRY_DELAYS = [0, 1000, 3000, 5000];
/** While the connection is gone, another try this often (and at once when the browser is back online). */
export const OFFLINE_RETRY_MS = 15_000;

export interface UploadProgress {
  sent: number;
  total: number;
  /** Bytes per second over the last seconds; null until measured. */
  speed: number | null;
  /** Seconds left at that speed; null when unknown. */
  secondsLeft: number | null;
  /** The connection is cut: the upload resumes by itself when it is back. */
  waiting: boolean;
}

export interface ResumableTarget {
  /** The uploader's id: two accounts on one computer never resume each other's upload. */
  user: string;
  chapter?: string;
  exercise?: string;
}

/** Statuses after which tus-js-client may try again at once (the server's or the network's fault). */
const retriable = (status: number) => status === 0 || status >= 500 || status === 409 || status === 423;

function bodyOf(response: HttpResponse | null | undefined): unknown {
  try {
    return JSON.parse(response?.getBody() ?? '');
  } catch {
    return undefined;
  }
}

/** The stored path: the last answer says it; a HEAD that found the upload complete says nothing, and the path is the upload's id. */
function pathOf(response: HttpResponse, url: string | null): string {
  const body = bodyOf(response) as { path?: unknown } | undefined;
  if (typeof body?.path === 'string') return body.path;
  const id = url?.split('/').pop() ?? '';
  return `pdfs/${id}.pdf`;
}

type UploadOptions = ConstructorParameters<typeof Upload>[1];

/** What tus-js-client needs of an upload besides its events: where, in which chunks, under which name, with which token. */
function tusOptions(file: File, target: ResumableTarget): UploadOptions {
  return {
    endpoint: `${API_BASE}/uploads`,
    chunkSize: UPLOAD_CHUNK_BYTES,
    retryDelays: RETRY_DELAYS,
    metadata: {
      filename: file.name,
      filetype: file.type || 'application/pdf',
      ...(target.exercise ? { exercise: target.exercise } : { chapter: target.chapter ?? '' }),
    },
    fingerprint: async (f) =>
      ['olympe-upload', target.user, target.exercise ?? target.chapter ?? '', f.name, f.size, f.lastModified].join(':'),
    removeFingerprintOnSuccess: true,
    // The token is read at each request, renewed when it is about to expire (decision 136): a long upload
    // outlives nothing but the session itself.
    onBeforeRequest: async (req) => {
      const token = await freshToken();
      if (token) req.setHeader('Authorization', `Bearer ${token}`);
    },
    // Offline, quick retries would only burn out: the upload waits for the connection instead (onError).
    onShouldRetry: (error) => navigator.onLine !== false && retriable(error.originalResponse?.getStatus() ?? 0),
  };
}

/** How a failed upload ends: with the error to reject with, or null when it waits for the network (or the server) to come back. */
function endingError(error: Error): ApiError | null {
  const detailed = error as DetailedError;
  const response = detailed.originalResponse ?? null;
  const status = response?.getStatus() ?? 0;
  // No request behind it (a file the browser cannot read): nothing to wait for.
  if (!detailed.originalRequest) return new ApiError('network', undefined, { cause: error });
  if (!retriable(status)) return new ApiError('http', { status, data: bodyOf(response) ?? {} });
  return null;
}

/**
 * POST /uploads, then PATCH /uploads/{id} chunk by chunk (HEAD /uploads/{id} to resume). Resolves to
 * the stored path (`pdfs/<id>.pdf`, as POST /pdfs answers); rejects with an `ApiError`: `http` with the
 * server's French refusal (too large, not a PDF, not allowed), or `aborted` after `signal` cancels it
 * (the server then drops what it received).
 */
export async function sendResumable(
  file: File,
  target: ResumableTarget,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<string> {
  // The upload client (18 kB gzip) comes with the first upload, not with every screen that offers one: the
  // profile and chapter pages of a pupil import this module through the centres' API (decision 117).
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const meter = createRateMeter();
    let last: UploadProgress = { sent: 0, total: file.size, speed: null, secondsLeft: null, waiting: false };
    let retry: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const report = (patch: Partial<UploadProgress>) => {
      last = { ...last, ...patch };
      options.onProgress?.(last);
    };
    const stopWaiting = () => {
      clearTimeout(retry);
      window.removeEventListener('online', resume);
    };
    function resume() {
      stopWaiting();
      if (settled) return;
      meter.reset();
      report({ waiting: false, speed: null, secondsLeft: null });
      upload.start();
    }
    const finish = (run: () => void) => {
      if (settled) return;
      settled = true;
      stopWaiting();
      options.signal?.removeEventListener('abort', cancel);
      run();
    };
    function cancel() {
      finish(() => reject(new ApiError('aborted')));
      void upload.abort(true).catch(() => undefined);
    }

    const upload = new Upload(file, {
      ...tusOptions(file, target),
      onProgress: (sent, total) => {
        meter.add(sent);
        const speed = meter.rate();
        report({ sent, total, speed, secondsLeft: speed ? (total - sent) / speed : null, waiting: false });
      },
      onSuccess: ({ lastResponse }) => finish(() => resolve(pathOf(lastResponse, upload.url))),
      onError: (error) => {
        const ending = endingError(error);
        if (ending) {
          finish(() => reject(ending));
          return;
        }
        // The network (or the server) is gone: wait, then resume from the offset the server holds.
        report({ waiting: true, speed: null, secondsLeft: null });
        window.addEventListener('online', resume);
        retry = setTimeout(resume, OFFLINE_RETRY_MS);
      },
    });

    if (options.signal?.aborted) {
      cancel();
      return;
    }
    options.signal?.addEventListener('abort', cancel);
    report({});
    upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous.length > 0) upload.resumeFromPreviousUpload(previous[0]);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!settled) upload.start();
      });
  });
}
