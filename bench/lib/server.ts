import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** What the benches that run the real server in its own process share (pdf-bombs, archive-bombs, upload-flood). */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number) => Math.round(n);

/** Waits for `GET {base}/api/health` to answer 200 (at most a minute), or for the server to exit. */
export async function waitForHealth(base: string, child?: ChildProcess): Promise<void> {
  for (let i = 0; i < 600 && (child?.exitCode ?? null) === null; i++) {
    const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
      async (res) => (await res.arrayBuffer(), res.ok),
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error('Le serveur ne répond pas.');
}

/** SIGTERM, then SIGKILL after 20 s: a bench always ends. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.race([exited, sleep(5000)]);
}

/** The process's resident and peak memory in MB (/proc/<pid>/status); zeros once it is gone. */
export function processMemory(pid: number): { rssMb: number; hwmMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: round(kb('VmRSS') / 1024), hwmMb: round(kb('VmHWM') / 1024) };
  } catch {
    return { rssMb: 0, hwmMb: 0 };
  }
}
