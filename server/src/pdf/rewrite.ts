import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runCapped } from './render-page.js';

/** A file that needs a password to open: nobody but its author can read it. */
export class PasswordPdfError extends Error {}

/** qpdf could not make a PDF of it (not a PDF, damaged past repair, past a cap). */
export class RewriteError extends Error {}

/**
 * A PDF rewritten by qpdf (Debian package `qpdf`) in a capped child process (decision 105): the
 * encryption of an owner-password file removed (every viewer opens it without a password, so the
 * stored copy needs none), junk before `%PDF-` dropped and a damaged cross-reference table rebuilt
 * (decision 106). Streams are kept as they are (`--decode-level=none`): qpdf only decrypts them, so a
 * compression bomb stays a bomb for the inflate guard that reads the result.
 *
 * Like the renderer, qpdf runs through render-page.ts's runCapped (niced, bounded address space and
 * time): a hostile file costs one short-lived process, never the API's event loop (the caller is a PDF worker).
 */
export async function rewritePdf(bytes: Uint8Array): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-qpdf-'));
  try {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    await writeFile(input, bytes);
    const args = ['--decrypt', '--decode-level=none', '--object-streams=preserve', '--no-warn', input, output];
    const code = await runCapped('qpdf', args, 1 << 20);
    // 0: written; 3: written with warnings (a repaired file). 2: an error, nothing usable.
    if (/invalid password/i.test(code.stderr)) throw new PasswordPdfError('the PDF needs a password to open');
    if (code.status !== 0 && code.status !== 3) throw new RewriteError(`qpdf failed (${code.status}): ${code.stderr.split('\n')[0]}`);
    return new Uint8Array(await readFile(output));
  } catch (err) {
    if (err instanceof PasswordPdfError || err instanceof RewriteError) throw err;
    throw new RewriteError(`qpdf gave no file: ${(err as Error).message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where `%PDF-` starts: viewers accept up to 1 KB of junk before it; -1 when it is not there. */
export function headerOffset(bytes: Uint8Array): number {
  return head(bytes).indexOf('%PDF-', 0, 'latin1');
}

/**
 * Whether the file looks like a PDF to a viewer: its header in the first 1 KB, or, when the header is
 * missing, a PDF body there (an indirect object `1 0 obj`): poppler, qpdf and pdf.js open such a file
 * (pdf.js's `bug1606566`), so the worker rebuilds it with qpdf (decision 112). A picture, a text or an
 * office file named .pdf has neither.
 */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return headerOffset(bytes) >= 0 || /(?:^|\s)\d{1,10}\s+\d{1,5}\s+obj\b/.test(head(bytes).toString('latin1'));
}

const head = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
