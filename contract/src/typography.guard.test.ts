import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Decision 101: the French text written in the source is in its typographic form. Scans the literals of
 * web/src and server/src (strings, templates, JSX text; not tests, logs, imports, keys, types, regexps, SQL) and
 * fails on a straight apostrophe of a French elision (l', d', n', qu'…) or a plain space before « : ; ? ! » or
 * inside « ». Fix the text with frenchText (contract/src/typography.ts), or write ’, U+00A0 before « : » and
 * U+202F before « ; ? ! » and inside « ».
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED = ['web/src', 'server/src'];
// Tests fold spaces as Testing Library and pdftotext do; migrations are SQL; latex.ts writes pdflatex's source.
const NOT_SCANNED = /\.test\.tsx?$|\.d\.ts$|\/migrations\/|\/test\/|exercises\/latex\.ts$/;

const ELISION = /(?<!\p{L})(?:[ldnsjmtc]|qu|jusqu|lorsqu|puisqu|quoiqu|presqu|aujourd)'(?=\p{L}|\uE000)/iu;
// A plain space before a mark that ends a clause (followed by a space, the end, or an interpolation), or inside « ».
const PLAIN_SPACE = / [:;?!](?=\s|$|\uE000)|« | »/u;
const LOG_CALL = /(^|\.)(log|logger|console)(\.|$)|\.(debug|info|warn|trace|fatal)$|^process\.(stderr|stdout)\.write$/;
const NOT_TEXT_ATTRIBUTES = new Set([
  'className',
  'data-testid',
  'href',
  'to',
  'id',
  'style',
  'src',
  'type',
  'name',
  'rel',
  'target',
  'key',
]);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' ? [] : files(p);
    return /\.tsx?$/.test(d.name) && !NOT_SCANNED.test(p) ? [p] : [];
  });
}

/** True when the literal is not text a user reads: a module name, a key, a type, a log line, SQL, a pattern. */
function notText(node: ts.Node, sf: ts.SourceFile): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isLiteralTypeNode(parent)) return true;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent)) && parent.name === node) return true;
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
  if (ts.isJsxAttribute(parent) && NOT_TEXT_ATTRIBUTES.has(parent.name.getText(sf))) return true;
  for (let n: ts.Node = node; !ts.isSourceFile(n) && !ts.isBlock(n); n = n.parent) {
    if (ts.isTaggedTemplateExpression(n)) return true;
    if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && n !== node) {
      const callee = n.expression.getText(sf);
      if (LOG_CALL.test(callee) || callee === 'RegExp') return true;
    }
  }
  return false;
}

/** « file:line: text » for every literal that is not in typographic form. */
function typographyFindings(root = ROOT): string[] {
  const found: string[] = [];
  for (const file of SCANNED.flatMap((d) => files(path.join(root, d)))) {
    const sf = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const check = (node: ts.Node, text: string) => {
      // A literal starting with a mark follows an expression (`${n} : `, {x} : {y}): the sentinel stands for it.
      const probe = `\uE000${text}`;
      if ((ELISION.test(probe) || PLAIN_SPACE.test(probe)) && !notText(node, sf)) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        found.push(`${path.relative(root, file)}:${line}: ${text.trim().replace(/\s+/g, ' ').slice(0, 100)}`);
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) check(node, node.getText(sf).slice(1, -1));
      else if (ts.isTemplateExpression(node)) {
        const parts = [node.head, ...node.templateSpans.map((s) => s.literal)].map((p) => {
          const raw = p.getText(sf);
          return raw.slice(1, raw.length - (ts.isTemplateTail(p) ? 1 : 2));
        });
        check(node, parts.join('\uE000'));
        node.templateSpans.forEach((s) => visit(s.expression));
      } else if (ts.isJsxText(node)) check(node, node.getText(sf));
      else ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe('French typography in the source (decision 101)', () => {
  it('finds the straight apostrophes and plain spaces it is meant to find', () => {
    const probe = (code: string) => {
      const sf = ts.createSourceFile('probe.tsx', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      let text = '';
      const visit = (n: ts.Node): void => {
        if (ts.isStringLiteral(n) || ts.isJsxText(n)) text += n.getText(sf);
        ts.forEachChild(n, visit);
      };
      visit(sf);
      return ELISION.test(text) || PLAIN_SPACE.test(text);
    };
    expect(probe(`const a = "L'épreuve";`)).toBe(true);
    expect(probe(`const a = 'Correction : Tour 1';`)).toBe(true);
    expect(probe(`const a = <p>Pourquoi ?</p>;`)).toBe(true);
    expect(probe(`const a = 'L’épreuve\u00a0: fin\u202f?';`)).toBe(false);
    expect(probe(`const a = "don't";`)).toBe(false);
  });

  // Parses about 330 files: about 1.3 s alone, more beside other tests.
  it('web/src and server/src write French text in its typographic form', { timeout: 60_000 }, () => {
    expect(typographyFindings()).toEqual([]);
  });
});
