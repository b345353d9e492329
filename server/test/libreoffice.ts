import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    await execFileAsync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'fods', '--outdir', dir, path.join(dir, 'classeur.xlsx')], {
      timeout: 90_000,
    });
    return readFileSync(path.join(dir, 'classeur.fods'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
