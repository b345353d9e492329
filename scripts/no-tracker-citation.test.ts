import { Linter, type ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The rule's file is plain JavaScript read by eslint.config.js; loaded by its URL so the compiler asks no types of it. */
const ruleFile = new URL('../eslint/no-tracker-citation.js', import.meta.url).href;
const plugin = ((await import(ruleFile)) as { default: ESLint.Plugin }).default;

function lint(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const config = [{ plugins: { 'olympe-signs': plugin }, rules: { 'olympe-signs/no-tracker-citation': 'error' as const } }];
  return linter.verify(code, config, { filename: 'x.js' }).map((m) => `${m.line}: ${m.message}`);
}

describe('olympe-signs/no-tracker-citation', () => {
  it('refuses a comment or a test title that cites a tracker', () => {
    const tracker = ['is', 'sue'].join('');
    const code = [
      `// Asked by ${tracker} 21.`,
      `/* See ${tracker} #3 and the ${tracker} "Prove it". */`,
      `describe('scores (${tracker} 20)', () => {});`,
      `it(\`a \${1} (${tracker} 4)\`, () => {});`,
    ].join('\n');
    // One report per comment or title, naming the first citation it holds.
    expect(lint(code).map((m) => m.replace(/: .*« ([^«»]+) »\)\.$/, ': $1'))).toEqual([
      `1: ${tracker} 21`,
      `2: ${tracker} #3`,
      `3: ${tracker} 20`,
      `4: ${tracker} 4`,
    ]);
  });

  it('lets decisions, product.md anchors and files named after an issue through', () => {
    const code = [
      '// Decisions 61–64 and docs/product.md#spec-2.',
      "const corpus = 'issue7665.pdf'; // pdf.js's issue7665.pdf, a file name",
      "describe('scores (decision 61)', () => {});",
    ].join('\n');
    expect(lint(code)).toEqual([]);
  });
});
