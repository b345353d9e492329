import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import postcss from 'postcss';
import type { Plugin, Rollup } from 'vite';

/**
 * What the server needs to open a screen in one round trip (decision 96):
 * - `route-chunks.json`: for each route open to anyone (no role in routes.tsx), the lazy chunk of its
 *   screen, the chunks that chunk imports statically and their stylesheets. The server announces them in the
 *   page (`modulepreload`, `stylesheet`), so they download beside the entry instead of after it has run. A management screen
 *   (a role in routes.tsx) is never listed: its code stays out of a pupil's downloads.
 * - Mantine's stylesheets keep only the rules of the components the app's code uses (`purgeMantineCss`).
 * - a `.br` and a `.gz` beside every text file of the build, compressed once at the highest level and
 *   served as they are (`@fastify/static` `preCompressed`), instead of compressed again on each request.
 */
export function firstLoad(): Plugin {
  let outDir = '';
  return {
    name: 'olympe-first-load',
    // The client build only: the server's prerender bundle (dist/ssr, decision 117) is neither announced nor compressed.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    // After Vite has written the CSS assets into the bundle.
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      purgeMantineCss(bundle);
      const routes = readFileSync(path.join(import.meta.dirname, 'src/routes.tsx'), 'utf8');
      const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
      const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!.replace(/\.tsx?$/, ''), c]));
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry)!;
      const inEntry = new Set<string>();
      const walk = (fileName: string, into: Set<string>) => {
        if (into.has(fileName)) return;
        into.add(fileName);
        for (const i of byName.get(fileName)?.imports ?? []) walk(i, into);
      };
      walk(entry.fileName, inEntry);
      const cssOf = (files: Iterable<string>) => new Set([...files].flatMap((f) => [...(byName.get(f)?.viteMetadata?.importedCss ?? [])]));
      const entryCss = cssOf(inEntry);
      const manifest: Record<string, string[]> = {};
      // Each route of routes.tsx: `{ path: 'x', element: page(() => import('./pages/…'), 'Name'[, 'role']) }`.
      const route = /\{\s*(index: true|path: '([^']*)')[^{}]*?import\('(\.\/pages\/[^']+)'\), '\w+'(, '\w+')?\)/g;
      for (const m of routes.matchAll(route)) {
        if (m[4]) continue;
        const chunk = byModule.get(path.join(import.meta.dirname, 'src', m[3]));
        if (!chunk) throw new Error(`route-chunks: no chunk for ${m[3]}`);
        const files = new Set<string>();
        walk(chunk.fileName, files);
        const own = [...files].filter((f) => !inEntry.has(f));
        // The screen's stylesheets too (decision 119): linked in the page, they no longer wait for its script to run.
        const css = [...cssOf(own)].filter((f) => !entryCss.has(f));
        manifest[m[1] === 'index: true' ? '/' : `/${m[2]}`] = [...own, ...css].map((f) => `/${f}`);
      }
      if (!manifest['/'] || !manifest['/login']) throw new Error('route-chunks: routes.tsx no longer reads as expected');
      this.emitFile({ type: 'asset', fileName: 'route-chunks.json', source: `${JSON.stringify(manifest, null, 1)}\n` });
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        // index.html is rewritten by the server for each screen (server/src/web-app.ts), never sent as built.
        if (!/\.(js|mjs|css|json|svg|txt)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** Mantine's class names: `m_` and 8 hex digits, written in each component's JS and in its CSS rules. */
const MANTINE_CLASS = /\bm_[0-9a-f]{8}\b/g;

/**
 * The whole of Mantine's stylesheet is 36 kB (gzip) of render-blocking CSS, most of it for components the app
 * never draws. A rule is dropped when one of its selectors' Mantine classes appears in no JS chunk: that
 * component's code is not in the build, so nothing can carry the class. Order and everything else (variables,
 * global rules, keyframes, the app's own CSS) are kept as they are. bench/first-load/measure.ts checks that
 * every Mantine class the JS uses still has its rules.
 */
function purgeMantineCss(bundle: Rollup.OutputBundle) {
  const used = new Set<string>();
  for (const file of Object.values(bundle)) {
    if (file.type === 'chunk') for (const m of file.code.matchAll(MANTINE_CLASS)) used.add(m[0]);
  }
  for (const file of Object.values(bundle)) {
    if (file.type !== 'asset' || !file.fileName.endsWith('.css')) continue;
    const root = postcss.parse(String(file.source));
    root.walkRules((rule) => {
      const kept = rule.selectors.filter((selector) => (selector.match(MANTINE_CLASS) ?? []).every((c) => used.has(c)));
      if (kept.length === 0) rule.remove();
      else if (kept.length < rule.selectors.length) rule.selectors = kept;
    });
    root.walkAtRules((atRule) => {
      if (atRule.nodes && atRule.nodes.length === 0) atRule.remove();
    });
    file.source = root.toString();
  }
}
