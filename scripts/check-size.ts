/**
 * Rooms by use case (docs/architecture.md « Sizes »): no source file over 400 lines, no function over 80
 * lines, except the route lists of `<area>/routes.ts` (the plugin function that declares an area's routes).
 * Tests, migrations and generated files are not counted. `npm test` runs it; it prints each offender with its
 * place and size, and exits 1 when there is one outside `allowed` below.
 *
 * `allowed` lists the offenders that remain while their room is being split: it may only shrink. An entry that
 * no longer offends is an error too, so that the list never keeps a name it no longer needs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

const allowed = new Set<string>([]);

const SOURCE = /^(server\/src|web\/src|contract\/src|rich-text\/src)\/.*\.tsx?$/;
const NOT_COUNTED = /(\.test\.tsx?$|\.d\.ts$|\/migrations\/|\/test\/)/;

interface Offender {
  key: string;
  place: string;
  lines: number;
  limit: number;
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText();
  }
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText();
    // `app.get('/x', …, async (req) => …)`: named by the call and its first string argument.
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` ${first.text}` : '';
    const outer = ts.isVariableDeclaration(parent.parent) ? `${parent.parent.name.getText()} = ` : '';
    return `${outer}${callee}(…${label})`;
  }
  return 'anonymous';
}

/** The plugin function of a routes.ts file: exported at the top level, a list of routes. */
function isRouteList(file: string, node: ts.Node): boolean {
  if (!file.endsWith('/routes.ts')) return false;
  if (ts.isFunctionDeclaration(node)) return ts.isSourceFile(node.parent);
  const declarator = node.parent;
  return (
    ts.isVariableDeclaration(declarator) &&
    ts.isVariableStatement(declarator.parent.parent) &&
    ts.isSourceFile(declarator.parent.parent.parent)
  );
}

export function offendersOf(file: string, text: string): Offender[] {
  const found: Offender[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const fileLines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  if (fileLines > MAX_FILE_LINES) found.push({ key: file, place: file, lines: fileLines, limit: MAX_FILE_LINES });
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      const start = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - start + 1;
      if (lines > MAX_FUNCTION_LINES && !isRouteList(file, node)) {
        found.push({
          key: `${file} ${functionName(node)}`,
          place: `${file}:${start} ${functionName(node)}`,
          lines,
          limit: MAX_FUNCTION_LINES,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): void {
  const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
    .split('\n')
    .filter((file) => SOURCE.test(file) && !NOT_COUNTED.test(file));
  const offenders = files.flatMap((file) => offendersOf(file, readFileSync(file, 'utf8')));
  const failing = offenders.filter((offender) => !allowed.has(offender.key));
  const stale = [...allowed].filter((key) => !offenders.some((offender) => offender.key === key));
  for (const offender of failing) {
    console.error(`${offender.place}: ${offender.lines} lines (at most ${offender.limit})`);
  }
  for (const key of stale) console.error(`scripts/check-size.ts: « ${key} » is within the limits now; remove it from allowed`);
  const waiting = offenders.length - failing.length;
  console.log(`check-size: ${files.length} files, ${failing.length} over the limits, ${waiting} allowed while being split`);
  if (failing.length > 0 || stale.length > 0) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
