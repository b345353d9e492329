import path from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';

const contractDir = path.resolve(import.meta.dirname, '../contract/src') + path.sep;

/**
 * Decision 121: the contract's module-level values are built only where the app uses them.
 *
 * `@olympe/contract` holds zod schemas (for the server and the forms) beside the French labels and formatters
 * every screen uses. A screen that imports `formatPoints` from `marks.ts` also ran every schema of that file at
 * load: `z.object({...})` is a call, and a bundler keeps a call it cannot prove harmless, arguments included
 * (`instant.optional()`). On the chapter page that was about 45 % of the screen's file evaluation, in one task.
 *
 * The contract's modules have no side effects (`"sideEffects": false` in its package.json), so each top-level
 * `const` whose value is computed by a call (`z.object(...)`, `new Intl…`) is wrapped in a function called in
 * place and marked pure: `/* @__PURE__ *\/ (() => (value))()`. The value is the same, computed at the same point;
 * the bundler drops it where nothing reads it. The client build only (the server and the tests run the sources).
 */
export function pureContract(): Plugin {
  return {
    name: 'olympe-pure-contract',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    // Before Vite strips the types: the parser sees the file as written.
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0];
      if (!file.startsWith(contractDir) || !file.endsWith('.ts') || file.endsWith('.test.ts')) return null;
      return { code: markComputedConstantsPure(code, file), map: null };
    },
  };
}

/** The source with each top-level `const` computed by a call wrapped in a pure, immediately called function. */
export function markComputedConstantsPure(code: string, fileName = 'module.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number }[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const value = declaration.initializer;
      if (value && computesAtLoad(value)) edits.push({ start: value.getStart(source), end: value.getEnd() });
    }
  }
  let out = code;
  for (const { start, end } of edits.reverse()) {
    out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
  }
  return out;
}

/** Whether evaluating the expression calls something now (not inside a function that runs later). */
function computesAtLoad(node: ts.Node): boolean {
  if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) return true;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  return ts.forEachChild(node, (child) => (computesAtLoad(child) ? true : undefined)) ?? false;
}
