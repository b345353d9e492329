/**
 * The signs of the repository point at something that exists (decision 150). `npm test` runs it
 * (`npm run check:docs`); it prints each problem with its place and exits 1 when there is one:
 * - every « decision N » cited in code, tests and docs is a row of docs/decisions.md with its file;
 * - every anchor `docs/product.md#…` (and every `docs/<file>.md` named in code) exists;
 * - every relative link of docs/**.md and README.md points at a file, and its anchor at a heading or an `<a id>`;
 * - no Markdown file, stylesheet, shell or SQL file cites an issue of a tracker by its number or title; ESLint's
 *   `olympe-signs/no-tracker-citation` (eslint/no-tracker-citation.js) refuses them in code comments.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The same pattern as eslint/no-tracker-citation.js. */
export const TRACKER_CITATION = /\bissues? #?\d+\b|\bissue "[^"\n]+"/gi;

/** « decision 96 », « decisions 96 and 97 », « decisions 59, 60, 81 », « decisions 61–64 », « décision 56 ». */
const DECISION_CITATION = /\bd[ée]cisions? (\d{1,3}(?:(?:, | and | or | et |–|-)\d{1,3}\b)*)/gi;

const PRODUCT_ANCHOR = /docs\/product\.md#([A-Za-z0-9_-]+)/g;
const DOCS_FILE = /\bdocs\/[\w./-]+\.md\b/g;
const MARKDOWN_LINK = /\]\(([^()\s]+)\)/g;

/** What the checks read: the repository's files by path (relative, with `/`). */
export type Tree = Map<string, string>;

export interface Problem {
  place: string;
  message: string;
}

const CHECKED = /\.(ts|tsx|js|mjs|cjs|css|md|html|sh|sql|yml|yaml|json)$|^\.ci\/run$/;
/** What ESLint reads: its rule checks their comments; this script checks every other text file. */
const LINTED = /\.(ts|tsx|js|mjs|cjs|json)$/;
// The check's own test is made of bad signs on purpose.
const SKIPPED = /(^|\/)(node_modules|fixtures\/corpus)\/|package-lock\.json$|\/migrations\/meta\/|^scripts\/check-docs\.test\.ts$/;

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** The numbers a citation names: « 61–64 » is 61 to 64, « 96 and 97 » both. */
export function citedNumbers(list: string): number[] {
  const out: number[] = [];
  for (const part of list.split(/, | and | or | et /)) {
    const range = /^(\d+)[–-](\d+)$/.exec(part);
    if (range) {
      for (let n = Number(range[1]); n <= Number(range[2]); n += 1) out.push(n);
    } else out.push(Number(part));
  }
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file: its headings' slugs (with GitHub's -1, -2 for repeats) and `<a id>`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const slug = slugOf(heading[1]);
      const count = seen.get(slug) ?? 0;
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
      seen.set(slug, count + 1);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]);
  }
  return anchors;
}

/** The decisions of the index: the numbers of its rows, each with the file it links. */
export function decisionsOf(tree: Tree): Map<number, string> {
  const index = tree.get('docs/decisions.md') ?? '';
  const out = new Map<number, string>();
  for (const row of index.matchAll(/^\| (\d+) \| \[[^\n]*?\]\((decisions\/[^)\s]+)\)/gm)) out.set(Number(row[1]), `docs/${row[2]}`);
  return out;
}

function checkDecisions(file: string, text: string, decisions: Map<number, string>, problems: Problem[]) {
  for (const match of text.matchAll(DECISION_CITATION)) {
    for (const n of citedNumbers(match[1])) {
      if (!decisions.has(n)) {
        problems.push({ place: `${file}:${lineOf(text, match.index)}`, message: `decision ${n} is not in docs/decisions.md` });
      }
    }
  }
}

function checkProductAnchors(file: string, text: string, productAnchors: Set<string>, problems: Problem[]) {
  for (const match of text.matchAll(PRODUCT_ANCHOR)) {
    if (!productAnchors.has(match[1])) {
      problems.push({ place: `${file}:${lineOf(text, match.index)}`, message: `docs/product.md has no anchor #${match[1]}` });
    }
  }
}

function checkDocsFiles(file: string, text: string, tree: Tree, problems: Problem[]) {
  for (const match of text.matchAll(DOCS_FILE)) {
    if (!tree.has(match[0])) problems.push({ place: `${file}:${lineOf(text, match.index)}`, message: `${match[0]} does not exist` });
  }
}

function checkTracker(file: string, text: string, problems: Problem[]) {
  for (const match of text.matchAll(TRACKER_CITATION)) {
    problems.push({
      place: `${file}:${lineOf(text, match.index)}`,
      message: `« ${match[0]} » cites a tracker: cite a decision or a docs/product.md anchor`,
    });
  }
}

/** The folders of the tree, and each Markdown file's anchors once read. */
interface Index {
  folders: Set<string>;
  anchors: (file: string) => Set<string>;
}

function indexOf(tree: Tree): Index {
  const folders = new Set<string>();
  for (const file of tree.keys()) {
    for (let dir = path.posix.dirname(file); dir !== '.'; dir = path.posix.dirname(dir)) folders.add(dir);
  }
  const cache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = cache.get(file);
    if (!found) cache.set(file, (found = anchorsOf(tree.get(file) ?? '')));
    return found;
  };
  return { folders, anchors };
}

function checkLinks(file: string, text: string, tree: Tree, index: Index, problems: Problem[]) {
  const withoutCode = text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
  for (const match of withoutCode.matchAll(MARKDOWN_LINK)) {
    const target = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart, anchor] = target.split('#') as [string, string | undefined];
    const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
    const place = `${file}:${lineOf(text, match.index)}`;
    if (!tree.has(resolved) && !index.folders.has(resolved.replace(/\/$/, ''))) {
      problems.push({ place, message: `link to ${target}: ${resolved} does not exist` });
    } else if (anchor && resolved.endsWith('.md') && !index.anchors(resolved).has(anchor)) {
      problems.push({ place, message: `link to ${target}: ${resolved} has no anchor #${anchor}` });
    }
  }
}

/** Every problem of the tree, in the order of its files. */
export function problemsOf(tree: Tree): Problem[] {
  const problems: Problem[] = [];
  const decisions = decisionsOf(tree);
  for (const [n, file] of decisions) {
    if (!tree.has(file)) problems.push({ place: 'docs/decisions.md', message: `decision ${n} links ${file}, which does not exist` });
  }
  const index = indexOf(tree);
  const productAnchors = index.anchors('docs/product.md');
  for (const [file, text] of tree) {
    checkDecisions(file, text, decisions, problems);
    checkProductAnchors(file, text, productAnchors, problems);
    const isMarkdown = file.endsWith('.md');
    if (!isMarkdown) checkDocsFiles(file, text, tree, problems);
    if (!LINTED.test(file)) checkTracker(file, text, problems);
    if (isMarkdown && (file.startsWith('docs/') || file === 'README.md')) checkLinks(file, text, tree, index, problems);
  }
  return problems;
}

/** The tracked text files of the repository at `root`. */
export function treeOf(root: string): Tree {
  // Tracked and new (not ignored) files, as they are in the work tree.
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  const tree: Tree = new Map();
  for (const file of listed.split('\0')) {
    if (!file || SKIPPED.test(file) || !existsSync(path.join(root, file))) continue;
    // Every path is known (links may name any file); only text files are read.
    tree.set(file, CHECKED.test(file) ? readFileSync(path.join(root, file), 'utf8') : '');
  }
  return tree;
}

function main() {
  const problems = problemsOf(treeOf(process.cwd()));
  for (const p of problems) console.log(`${p.place}  ${p.message}`);
  if (problems.length > 0) {
    console.log(`\n${problems.length} problem(s): see scripts/check-docs.ts and decision 150.`);
    process.exit(1);
  }
  console.log('check-docs: every decision, anchor and link exists; no tracker citation.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
