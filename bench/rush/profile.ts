/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): share of the non-idle samples per package,
 * self and inclusive (a sample counts for every package on its stack), and the top functions.
 *   node --import tsx bench/rush/profile.ts /tmp/x/CPU.*.cpuprofile
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function packageOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:'))
    return url
      .replace(/^node:internal\//, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  const src = url.indexOf('/server/src/');
  if (src >= 0) return `app:${url.slice(src + 12).split('/')[0]}`;
  const contract = url.indexOf('/contract/src/');
  if (contract >= 0) return 'app:contract';
  return url.replace(/^file:\/\//, '');
}

export function summarise(file: string, top = 25) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const fnSelf = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    const leaf = byId.get(p.samples[i])!;
    if (leaf.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    busy += dt;
    const leafPkg = packageOf(leaf.callFrame.url, leaf.callFrame.functionName);
    self.set(leafPkg, (self.get(leafPkg) ?? 0) + dt);
    const key = `${leaf.callFrame.functionName || '(anonymous)'} ${leaf.callFrame.url.split('/').slice(-2).join('/')}:${leaf.callFrame.lineNumber}`;
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      seen.add(packageOf(n.callFrame.url, n.callFrame.functionName));
    }
    for (const pkg of seen) inclusive.set(pkg, (inclusive.get(pkg) ?? 0) + dt);
  }
  const pct = (v: number) => `${((v / busy) * 100).toFixed(1)} %`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  console.log(
    `Profile ${file}: busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s (${((busy / (busy + idle)) * 100).toFixed(0)} % busy)`,
  );
  console.log('\nInclusive share of busy time by package (a sample counts for every package on its stack):');
  for (const [k, v] of sorted(inclusive).slice(0, top)) console.log(`  ${pct(v).padStart(8)}  ${k}`);
  console.log('\nSelf time by package:');
  for (const [k, v] of sorted(self).slice(0, top)) console.log(`  ${pct(v).padStart(8)}  ${k}`);
  console.log('\nTop functions (self):');
  for (const [k, v] of sorted(fnSelf).slice(0, top)) console.log(`  ${pct(v).padStart(8)}  ${k}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const f of process.argv.slice(2)) summarise(f);
}
