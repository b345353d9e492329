import { Piscina } from 'piscina';

/**
 * Caps of the drawing thread. A 100,000-character statement dense with formulas takes ~6 s to draw and gives
 * 9 MB of HTML; 200 nested fractions take ~1 s: such texts are left to the browser, as before decision 122.
 * `timeoutMs` is each text's, counted once the thread has started. Mutable for the tests.
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

/** The drawing thread and its first answer: true once its modules are loaded, false if they failed to load. */
interface Pool {
  thread: Piscina<string | null, string | null>;
  started: Promise<boolean>;
}
let current: Pool | null = null;
/** Threads started since the process began: one per pool, plus one after each text stopped by a cap. */
let threadsStarted = 0;

/**
 * One thread, kept between texts: it loads the Markdown and KaTeX code once (tsx compiling them, ~0.6 s), not for
 * every batch of new texts. One, because a chapter's first reader waits for few texts and a core stays for the API.
 */
function open(): Pool {
  if (!current) {
    const thread = new Piscina<string | null, string | null>({
      filename: new URL('./statement-worker.mjs', import.meta.url).href,
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      resourceLimits: { maxOldGenerationSizeMb: STATEMENT_HTML_LIMITS.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    thread.on('workerCreate', () => threadsStarted++);
    current = { thread, started: answered(thread) };
  }
  return current;
}

/** Resolves once a thread of the pool has loaded its modules (true), or failed to (false); never rejects. */
function answered(thread: Piscina<string | null, string | null>): Promise<boolean> {
  return thread.run(null).then(
    () => true,
    () => false,
  );
}

/** Starts the thread before the first chapter needs it (the server's start). */
export async function warmStatementPool(): Promise<void> {
  const pool = open();
  // A pool closed before its thread had loaded (a stop right after the start) did not fail.
  if (!(await pool.started) && pool === current) throw new Error('the statement drawing thread failed to load its modules');
}

/** Stops the thread (app close); texts it had not drawn stay undrawn, and the next reader asks for them again. */
export async function closeStatementPool(): Promise<void> {
  const closing = current;
  current = null;
  await closing?.thread.destroy();
}

/** For the tests: how many drawing threads have started in this process. */
export function statementThreadsStarted(): number {
  return threadsStarted;
}

/**
 * Decision 122: statements and instructions as sanitised HTML, in the order given. Texts not drawn yet go to the
 * drawing thread, off the event loop, and the call waits for them at most `waitMs` (asynchronously: other requests
 * go on meanwhile); one still not drawn then comes back undefined, the browser draws it, and the next readers get
 * the HTML. On the start-of-test rush, only the first readers of a chapter wait.
 */
export async function drawnStatements(texts: readonly string[], waitMs = STATEMENT_HTML_LIMITS.waitMs): Promise<(string | undefined)[]> {
  const missing = texts.filter((text) => !drawn.has(text));
  if (missing.length > 0) {
    for (const text of missing) queued.add(text);
    startDrawing();
    // A wait of 0 does not wait: a worker's answer could otherwise beat a late timer on a loaded event loop.
    if (waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([statementsDrawn(), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
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

/** Draws the queued texts one at a time, each within its time cap (a text waiting its turn is not timed). */
async function drawQueued(): Promise<void> {
  const texts = [...queued];
  queued.clear();
  const pool = open();
  let ready = pool.started;
  for (const text of texts) {
    const loaded = await ready;
    // Closed meanwhile (the app stops): the rest stay undrawn, and are asked for again by their next reader.
    if (pool !== current) return;
    if (!loaded) {
      // The thread cannot load its code: the browser draws these texts, as before decision 122.
      for (const rest of texts) if (!drawn.has(rest)) keep(rest, null);
      return;
    }
    try {
      const html = await pool.thread.run(text, { signal: AbortSignal.timeout(STATEMENT_HTML_LIMITS.timeoutMs) });
      keep(text, html !== null && html.length <= STATEMENT_HTML_LIMITS.maxHtmlChars ? html : null);
    } catch {
      // Past its time or heap cap, unless the pool was closed under it. Piscina replaces the thread: the next text
      // is timed once the new one has loaded its code.
      if (pool !== current) return;
      keep(text, null);
      ready = answered(pool.thread);
    }
  }
}
