import { Worker } from 'node:worker_threads';

/**
 * Caps of the drawing worker. A 100,000-character statement dense with formulas takes ~6 s to draw and gives
 * 9 MB of HTML; 200 nested fractions take ~1 s: such texts are left to the browser, as before decision 122.
 */
export const STATEMENT_HTML_LIMITS = { timeoutMs: 10_000, heapMb: 256, maxHtmlChars: 300_000, waitMs: 1_500 };
/** Texts drawn (or given up), by source: a chapter's statements are the same for thousands of pupils. */
const KEPT = 2000;

/** null: drawn once, not kept (too long, too slow, refused); the browser draws it. */
const drawn = new Map<string, string | null>();
const queued = new Set<string>();
let drawing: Promise<void> | undefined;

function keep(text: string, html: string | null) {
  drawn.delete(text);
  if (drawn.size >= KEPT) drawn.delete(drawn.keys().next().value!);
  drawn.set(text, html);
}

/** A text's HTML if drawn and kept (refreshed as most recently used), else undefined. */
function lookup(text: string): string | undefined {
  const html = drawn.get(text);
  if (html === undefined) return undefined;
  keep(text, html);
  return html ?? undefined;
}

/**
 * Decision 122: statements and instructions as sanitised HTML, in the order given. Texts not drawn yet go to the
 * drawing worker, off the event loop, and the call waits for them at most `waitMs` (asynchronously: other requests
 * go on meanwhile); one still not drawn then comes back undefined, the browser draws it, and the next readers get
 * the HTML. On the start-of-test rush, only the first readers of a chapter wait.
 */
export async function drawnStatements(texts: readonly string[], waitMs = STATEMENT_HTML_LIMITS.waitMs): Promise<(string | undefined)[]> {
  const missing = texts.filter((text) => !drawn.has(text));
  if (missing.length > 0) {
    for (const text of missing) queued.add(text);
    startDrawing();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([statementsDrawn(), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }
  return texts.map(lookup);
}

function startDrawing() {
  drawing ??= drawQueued().finally(() => {
    drawing = undefined;
    if (queued.size > 0) startDrawing();
  });
}

/** Resolves once the texts queued so far are drawn or given up. */
export async function statementsDrawn(): Promise<void> {
  while (drawing) await drawing;
}

async function drawQueued(): Promise<void> {
  const texts = [...queued];
  queued.clear();
  await new Promise<void>((resolve) => {
    const worker = new Worker(new URL('./statement-worker.mjs', import.meta.url), {
      workerData: { texts },
      resourceLimits: { maxOldGenerationSizeMb: STATEMENT_HTML_LIMITS.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    const pending = new Set(texts);
    const finish = () => {
      clearTimeout(timer);
      // Stopped by a cap: the text it was drawing (the first not answered, they come in order) is left to the
      // browser; the others are drawn by the next worker.
      const [stuck, ...rest] = pending;
      if (stuck !== undefined) keep(stuck, null);
      for (const text of rest) queued.add(text);
      void worker.terminate();
      resolve();
    };
    const timer = setTimeout(finish, STATEMENT_HTML_LIMITS.timeoutMs);
    worker.on('message', (out: { text: string; html: string | null } | { done: true }) => {
      if ('done' in out) return finish();
      pending.delete(out.text);
      keep(out.text, out.html !== null && out.html.length <= STATEMENT_HTML_LIMITS.maxHtmlChars ? out.html : null);
    });
    worker.once('error', finish);
  });
}
