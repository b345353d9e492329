import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * What a French school secretary's spreadsheet makes of a workbook: Debian's LibreOffice, headless, reads
 * the bytes and writes them back as a flat OpenDocument sheet (.fods), whose cells say their type
 * (`office:value-type="float"`, `"date"`, `"string"`) and whether they hold a formula. A headless conversion
 * keeps no view settings: a frozen header row is checked in the workbook's own XML.
 */
export async function readBackWithLibreOffice(workbook: Buffer): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-lo-'));
  try {
    writeFileSync(path.join(dir, 'classeur.xlsx'), workbook);
    await execFileAsync(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        path.join(dir, 'classeur.xlsx'),
      ],
      {
        timeout: 90_000,
      },
    );
    return readFileSync(path.join(dir, 'classeur.fods'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A file saved again by LibreOffice, headless, as a secretary's spreadsheet would save it: `filter` is
 * the export filter with its options, e.g. `csv:Text - txt - csv (StarCalc):59,34,1,1` (semicolons,
 * double quotes, Windows-1252, from the first line) or `xlsx`. Returns the bytes written.
 */
export async function saveWithLibreOffice(bytes: Buffer, fromExtension: string, filter: string): Promise<Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-lo-'));
  try {
    mkdirSync(path.join(dir, 'out'));
    writeFileSync(path.join(dir, `fichier.${fromExtension}`), bytes);
    await execFileAsync(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--convert-to',
        filter,
        '--outdir',
        path.join(dir, 'out'),
        path.join(dir, `fichier.${fromExtension}`),
      ],
      { timeout: 90_000 },
    );
    const [written] = readdirSync(path.join(dir, 'out'));
    return readFileSync(path.join(dir, 'out', written));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
