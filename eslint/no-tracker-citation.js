// A comment points at what the repository holds: a decision (« decision 128 ») or an anchor of
// docs/product.md (`docs/product.md#spec-2`), never an issue of a tracker a newcomer does not have
// (the word issue followed by a number, by `#` and a number, or by a quoted title). Decision 150; scripts/check-docs.ts checks the same in
// docs/*.md and the stylesheets. File names such as pdf.js's `issue7665.pdf` are not citations.

/** The same pattern as TRACKER_CITATION in scripts/check-docs.ts. */
const TRACKER_CITATION = /\bissues? #?\d+\b|\bissue "[^"\n]+"/i;

const TEST_CALLS = new Set(['describe', 'it', 'test']);

const message = 'Citez une décision (« decision N », docs/decisions.md) ou une ancre de docs/product.md, pas un ticket (« {{found}} »).';

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Refuses comments and test titles that cite an issue of a tracker instead of a decision or product.md.' },
    messages: { tracker: message },
    schema: [],
  },
  create(context) {
    const check = (text, loc) => {
      const found = TRACKER_CITATION.exec(text);
      if (found) context.report({ loc, messageId: 'tracker', data: { found: found[0] } });
    };
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) check(comment.value, comment.loc);
      },
      CallExpression(node) {
        const callee = node.callee.type === 'MemberExpression' ? node.callee.object : node.callee;
        if (callee.type !== 'Identifier' || !TEST_CALLS.has(callee.name)) return;
        const title = node.arguments[0];
        if (title?.type === 'Literal' && typeof title.value === 'string') check(title.value, title.loc);
        if (title?.type === 'TemplateLiteral') for (const q of title.quasis) check(q.value.cooked ?? '', q.loc);
      },
    };
  },
};

export default { meta: { name: 'olympe-signs' }, rules: { 'no-tracker-citation': rule } };
