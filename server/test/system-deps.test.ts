import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README's test command on a fresh machine (scripts/system-deps.sh, run by `npm test` before anything
 * else and by .ci/run): where it cannot install the Debian tools the tests use, it stops at once with
 * the one command to run, never a red run after minutes.
 */
const script = path.resolve(import.meta.dirname, '../../scripts/system-deps.sh');

/** A PATH with only a shell and the few commands the script itself uses: none of the tools, no apt-get. */
function barePath(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-bare-path-'));
  for (const command of ['bash', 'id', 'grep']) {
    symlinkSync(execFileSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim(), path.join(dir, command));
  }
  return dir;
}

describe('scripts/system-deps.sh', () => {
  it('stops at once with the install command when the tools are missing and apt-get is out of reach', () => {
    const started = Date.now();
    const run = spawnSync('bash', [script], { env: { PATH: barePath() }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Les tests lisent de vrais fichiers avec des outils Debian qui manquent ici');
    expect(run.stderr).toMatch(/apt-get install -y --no-install-recommends .*poppler-utils/);
    for (const pkg of ['qpdf', 'ocrmypdf', 'libopenjp2-tools', 'libreoffice-calc-nogui', 'texlive-luatex'])
      expect(run.stderr).toContain(pkg);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('passes silently on a machine that has them all (this one, after .ci/run or npm test installed them)', () => {
    const run = spawnSync('bash', [script], { env: process.env, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
