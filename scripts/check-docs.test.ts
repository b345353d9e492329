import { describe, expect, it } from 'vitest';
import { anchorsOf, citedNumbers, problemsOf, slugOf, type Tree } from './check-docs';

const index = [
  '# Decisions',
  '',
  '| # | decision | status |',
  '|---|---|---|',
  '| 7 | [Tests run on one snapshot](decisions/0007-tests.md) | accepted |',
  '| 8 | [Web shell](decisions/0008-web-shell.md) | accepted |',
  '',
].join('\n');

const product = ['# Product rules', '', '<a id="spec-2"></a>', '### §2 Screens and routes', ''].join('\n');

/** A small repository that passes every check; each test spoils one thing. */
function tree(extra: Record<string, string> = {}): Tree {
  return new Map(
    Object.entries({
      'docs/decisions.md': index,
      'docs/decisions/0007-tests.md': '# 7. Tests run on one snapshot\n\nSee [the web shell](0008-web-shell.md).\n',
      'docs/decisions/0008-web-shell.md': '# 8. Web shell\n\n## The frame\n',
      'docs/product.md': product,
      'README.md': 'Read [the rules](docs/product.md#spec-2) and [the shell](docs/decisions/0008-web-shell.md#the-frame).\n',
      'server/src/x.ts': '// Decisions 7 and 8, docs/product.md#spec-2.\nexport const x = 1;\n',
      ...extra,
    }),
  );
}

/** Written in two parts, so that the check run on this repository does not read them as its own signs. */
const DOCS = 'docs/';

const messages = (t: Tree) => problemsOf(t).map((p) => `${p.place}  ${p.message}`);

describe('check-docs', () => {
  it('passes a repository whose signs all point somewhere', () => {
    expect(messages(tree())).toEqual([]);
  });

  it('fails on a decision that is not in the index, however it is cited', () => {
    expect(messages(tree({ 'web/src/y.ts': '/** Blank pages (decision 9). */\n', 'docs/ops.md': 'See décisions 7–10.\n' }))).toEqual([
      'web/src/y.ts:1  decision 9 is not in docs/decisions.md',
      'docs/ops.md:1  decision 9 is not in docs/decisions.md',
      'docs/ops.md:1  decision 10 is not in docs/decisions.md',
    ]);
  });

  it('does not read a date after a decision as another decision', () => {
    expect(messages(tree({ 'bench/README.md': '## The table (decision 8, 2026-11-27)\n' }))).toEqual([]);
  });

  it('fails on a product.md anchor that does not exist and on a docs file that is not there', () => {
    expect(messages(tree({ 'server/src/z.ts': `// ${DOCS}product.md#spec-12 and ${DOCS}gone.md\n` }))).toEqual([
      'server/src/z.ts:1  docs/product.md has no anchor #spec-12',
      'server/src/z.ts:1  docs/gone.md does not exist',
    ]);
  });

  it('fails on a relative link to a missing file or heading, not on an outside link', () => {
    const readme = `[a](${DOCS}missing.md) [b](docs/decisions/0008-web-shell.md#no-such) [c](https://example.org/x.md)\n`;
    expect(messages(tree({ 'README.md': readme }))).toEqual([
      'README.md:1  link to docs/missing.md: docs/missing.md does not exist',
      'README.md:1  link to docs/decisions/0008-web-shell.md#no-such: docs/decisions/0008-web-shell.md has no anchor #no-such',
    ]);
  });

  it('fails on a tracker citation in Markdown and in a stylesheet, not on a file named after an issue', () => {
    const t = tree({
      'docs/notes.md': 'Asked by issue 21 and Issue #3; pdf.js file `issue7665.pdf`.\n',
      'web/src/a.css': '/* Issue "Prove it": printed alone. */\n',
    });
    expect(messages(t)).toEqual([
      'docs/notes.md:1  « issue 21 » cites a tracker: cite a decision or a docs/product.md anchor',
      'docs/notes.md:1  « Issue #3 » cites a tracker: cite a decision or a docs/product.md anchor',
      'web/src/a.css:1  « Issue "Prove it" » cites a tracker: cite a decision or a docs/product.md anchor',
    ]);
  });

  it('reads ranges and lists of decisions, and anchors as GitHub writes them', () => {
    expect(citedNumbers('61–64')).toEqual([61, 62, 63, 64]);
    expect(citedNumbers('59, 60 and 81')).toEqual([59, 60, 81]);
    expect(slugOf('§2 Screens and routes')).toBe('2-screens-and-routes');
    expect(slugOf("The web's data pattern")).toBe('the-webs-data-pattern');
    expect([...anchorsOf('# A\n## A\n<a id="x"></a>\n```\n# not a heading\n```\n')]).toEqual(['a', 'a-1', 'x']);
  });
});
