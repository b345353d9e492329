import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Plugin, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { markComputedConstantsPure } from '../../vite-pure-contract';

const CONTRACT = `import { z } from 'zod';
export const LABELS = ['un', 'deux'] as const;
const instant = z.string().nullable();
export const unusedSchema = z.object({ at: instant.optional(), kind: z.enum(LABELS) });
export const usedSchema = z.object({ n: z.number().int() });
export const later = () => z.string();
export function label(i: number): string {
  return LABELS[i];
}
`;

describe('markComputedConstantsPure (decision 121)', () => {
  it('wraps the constants computed by a call, and only those', () => {
    const out = markComputedConstantsPure(CONTRACT);
    expect(out).toContain('const instant = /* @__PURE__ */ (() => (z.string().nullable()))();');
    expect(out).toContain(
      'export const unusedSchema = /* @__PURE__ */ (() => (z.object({ at: instant.optional(), kind: z.enum(LABELS) })))();',
    );
    expect(out).toContain("export const LABELS = ['un', 'deux'] as const;");
    expect(out).toContain('export const later = () => z.string();');
    expect(out).toContain('export function label(i: number): string {');
  });

  /** Bundles an entry against the contract fixture, with or without the wrapping, and returns the code. */
  async function bundle(entry: string, wrap: boolean): Promise<string> {
    const dir = mkdtempSync(path.join(tmpdir(), 'olympe-pure-'));
    writeFileSync(path.join(dir, 'contract.ts'), CONTRACT);
    writeFileSync(path.join(dir, 'entry.ts'), entry);
    const plugin: Plugin = {
      name: 'test-pure',
      enforce: 'pre',
      transform: (code, id) => (wrap && id.endsWith('contract.ts') ? { code: markComputedConstantsPure(code, id), map: null } : null),
    };
    const result = (await build({
      configFile: false,
      logLevel: 'silent',
      root: dir,
      plugins: [plugin],
      resolve: { alias: { zod: path.dirname(createRequire(import.meta.url).resolve('zod/package.json')) } },
      build: { write: false, minify: false, lib: { entry: path.join(dir, 'entry.ts'), formats: ['es'], fileName: 'out' } },
    })) as Rollup.RollupOutput[];
    const code = result[0].output.map((o) => (o.type === 'chunk' ? o.code : '')).join('\n');
    writeFileSync(path.join(dir, 'out.mjs'), code);
    return code;
  }

  it('lets the bundler drop the schemas a screen does not read, zod with them', async () => {
    const entry = `import { label } from './contract';\nexport const shown = label(1);\n`;
    expect(await bundle(entry, false)).toContain('_zod');
    const wrapped = await bundle(entry, true);
    expect(wrapped).not.toContain('_zod');
    expect(wrapped).toContain('"deux"');
  }, 60_000);

  it('keeps a schema that is read, with the same checks', async () => {
    const entry = `import { usedSchema } from './contract';\nexport const ok = usedSchema.safeParse({ n: 2 }).success;\nexport const refused = usedSchema.safeParse({ n: 2.5 }).success;\n`;
    const code = await bundle(entry, true);
    expect(code).not.toContain('unusedSchema');
    // The bundle run as it is (zod inside it): its closing `export { … }` becomes the function's result.
    expect(code).not.toMatch(/^import /m);
    const mod = new Function(code.replace(/^export \{([^}]*)\};?\s*$/m, 'return {$1};'))() as { ok: boolean; refused: boolean };
    expect(mod).toMatchObject({ ok: true, refused: false });
  }, 60_000);
});
