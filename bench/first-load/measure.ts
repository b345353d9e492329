/**
 * First load of the web app: the files a first visit to the home page downloads before anything runs.
 * Run after `npm run build`: `node --import tsx bench/first-load/measure.ts` (README.md beside this file).
 *
 * « First load » = what web/dist/index.html loads (its module script, its modulepreload links, its
 * stylesheets), checked against the static import graph of the entry chunk (they must agree: a static
 * import missing from the preload list would be fetched late, one missing from the graph would be waste).
 * The home route's own lazy chunk (and the static imports it adds) is reported on a second line.
 * Sizes are gzip level 9, as decision 52 measured the baseline.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '../../web/dist');
if (!existsSync(join(dist, 'index.html'))) {
  console.error('web/dist/index.html is missing: run `npm run build` first.');
  process.exit(1);
}
const html = readFileSync(join(dist, 'index.html'), 'utf8');

const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const entry = tags.filter((t) => t.startsWith('<script') && t.includes('type="module"')).map((t) => attr(t, 'src')!);
const preloads = tags.filter((t) => t.includes('rel="modulepreload"')).map((t) => attr(t, 'href')!);
// web/public/boot.js (decision 97): a classic script, counted in the first load, outside the module graph.
const classic = tags.filter((t) => t.startsWith('<script') && !t.includes('type="module"')).map((t) => attr(t, 'src')!);
const styles = tags.filter((t) => t.includes('rel="stylesheet"')).map((t) => attr(t, 'href')!);

const file = (url: string) => readFileSync(join(dist, url.replace(/^\//, '')));
const gz = (url: string) => gzipSync(file(url), { level: 9 }).length;

/** Static imports of a built chunk (`import … from"./x.js"`, `export … from"./x.js"`, `import"./x.js"`), transitively. */
function staticGraph(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const walk = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    const code = file(url).toString('utf8');
    const dir = url.slice(0, url.lastIndexOf('/') + 1);
    for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.\/[^"']+\.js)["']/g)) walk(dir + m[1].slice(2));
  };
  roots.forEach(walk);
  return seen;
}

const js = [...entry, ...preloads, ...classic];
const graph = staticGraph(entry);
const notPreloaded = [...graph].filter((u) => !js.includes(u));
const notImported = js.filter((u) => !graph.has(u) && !classic.includes(u));

const kB = (n: number) => (n / 1000).toFixed(1);
const rows = js.map((u) => ({ file: u.replace('/assets/', ''), gzip: gz(u), raw: file(u).length })).sort((a, b) => b.gzip - a.gzip);
const jsTotal = rows.reduce((s, r) => s + r.gzip, 0);
const cssTotal = styles.reduce((s, u) => s + gz(u), 0);

console.log('First load (web/dist/index.html), gzip -9:');
for (const r of rows) console.log(`  ${r.file.padEnd(40)} ${kB(r.gzip).padStart(6)} kB   (raw ${kB(r.raw)} kB)`);
console.log(`  JS ${kB(jsTotal)} kB in ${rows.length} files + CSS ${kB(cssTotal)} kB = ${kB(jsTotal + cssTotal)} kB`);
if (notPreloaded.length) console.log(`  static imports not preloaded: ${notPreloaded.join(', ')}`);
if (notImported.length) console.log(`  preloaded but not statically imported: ${notImported.join(', ')}`);
// zod 4 keeps its internals under `_zod`: any first-load file carrying it pulled in the schemas (decision 56).
const withZod = js.filter((u) => file(u).includes('_zod'));
console.log(`  zod in the first load: ${withZod.length ? `yes (${withZod.join(', ')})` : 'no'}`);

// The home route: its lazy chunk, plus what it statically imports beyond the first load.
// The import may sit in any file of the entry's graph (decision 119: the entry file is then a facade).
const entryCode = [...graph].map((u) => file(u).toString('utf8')).join('\n');
const home = /["'](?:\.\/|\/assets\/|assets\/)(home-page-[\w-]+\.js)["']/.exec(entryCode)?.[1];
if (home) {
  const extra = [...staticGraph([`/assets/${home}`])].filter((u) => !graph.has(u));
  const homeTotal = extra.reduce((s, u) => s + gz(u), 0);
  console.log(
    `Home route (lazy, ${extra.length} more files): JS ${kB(homeTotal)} kB — first visit to / in all: ${kB(jsTotal + cssTotal + homeTotal)} kB`,
  );
  const big = extra
    .map((u) => ({ u, g: gz(u) }))
    .sort((a, b) => b.g - a.g)
    .slice(0, 5);
  for (const { u, g } of big) console.log(`  ${u.replace('/assets/', '').padEnd(40)} ${kB(g).padStart(6)} kB`);
}

// Decision 121: a screen open without a role never downloads a management screen's code. The management screens are
// the routes of routes.tsx given a role; their own chunks must be neither in the first load nor among the chunks
// the server announces for an open screen (route-chunks.json, written by web/vite-first-load.ts).
const routesSource = readFileSync(join(import.meta.dirname, '../../web/src/routes.tsx'), 'utf8');
const managed = [...routesSource.matchAll(/import\('\.\/pages\/[^']+\/([\w-]+)'\), '\w+', '(?:admin|member|teacher)'\)/g)].map((m) => m[1]);
const manifestFile = join(dist, 'route-chunks.json');
const openRoutes: Record<string, string[]> = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {};
const isManaged = (url: string) => managed.some((name) => new RegExp(`/${name}-[\\w-]{8}\\.js$`).test(url));
const leaks = [
  ...[...graph].filter(isManaged).map((u) => `first load: ${u}`),
  ...Object.entries(openRoutes).flatMap(([route, files]) => files.filter(isManaged).map((u) => `${route}: ${u}`)),
];
console.log(
  `Management screens (${new Set(managed).size}) in the code of open screens (${Object.keys(openRoutes).length} routes): ${leaks.length ? leaks.join(', ') : 'none'}`,
);
if (!Object.keys(openRoutes).length) console.log('  route-chunks.json is missing: the open screens were not checked.');
if (leaks.length || !Object.keys(openRoutes).length) process.exitCode = 1;

// Decision 96: Mantine's CSS is trimmed to the components in the build (web/vite-first-load.ts). Every Mantine class
// the built JS carries that has rules in Mantine's own stylesheets must still have them in the built CSS.
const mantineClass = /\bm_[0-9a-f]{8}\b/g;
const classesOf = (text: string) => new Set([...text.matchAll(mantineClass)].map((m) => m[0]));
const assetsDir = join(dist, 'assets');
const builtFiles = readdirSync(assetsDir);
const inJs = classesOf(
  builtFiles
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assetsDir, f), 'utf8'))
    .join('\n'),
);
const inCss = classesOf(
  builtFiles
    .filter((f) => f.endsWith('.css'))
    .map((f) => readFileSync(join(assetsDir, f), 'utf8'))
    .join('\n'),
);
const mantineSheets = ['core', 'notifications', 'dates', 'charts']
  .map((p) => join(import.meta.dirname, `../../node_modules/@mantine/${p}/styles.css`))
  .filter(existsSync);
const styled = classesOf(mantineSheets.map((f) => readFileSync(f, 'utf8')).join('\n'));
const unstyled = [...inJs].filter((c) => styled.has(c) && !inCss.has(c));
console.log(
  `Mantine classes used by the JS with rules in Mantine's CSS: ${[...inJs].filter((c) => styled.has(c)).length}, missing from the built CSS: ${unstyled.length ? unstyled.join(', ') : 'none'}`,
);
if (unstyled.length) process.exitCode = 1;
