// The house rules the tools enforce (docs/architecture.md « Enforced by the tools »). Every exception
// below is narrow and says why; removing one is welcome once its reason is gone.
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import checkFile from 'eslint-plugin-check-file';
import signs from './eslint/no-tracker-citation.js';

const pages = readdirSync(new URL('./web/src/pages', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** axios left for a typed fetch wrapper (web/src/api/client.ts, decision 56): nothing imports it again. */
const noAxios = { name: 'axios', message: 'Les appels HTTP passent par web/src/api/client.ts (décision 56).' };

/**
 * Pages read and write data through the hooks of web/src/api/<area>.ts (docs/architecture.md « The web's
 * data pattern »), never with TanStack Query's hooks inline.
 */
const noInlineQueries = {
  name: '@tanstack/react-query',
  importNames: ['useQuery', 'useQueries', 'useSuspenseQuery', 'useInfiniteQuery', 'useMutation'],
  message: 'Une page utilise les hooks de web/src/api/<domaine>.ts (requêtes et mutations), pas useQuery/useMutation en ligne.',
};

/**
 * The first load (what index.html loads) carries no zod: the code it runs imports values from the
 * contract's schema-free modules (`@olympe/contract/profile`, `/text`, `/dates`, `/numeric`,
 * `/password`), types from anywhere (bench/first-load, decision 56).
 */
const firstLoadFiles = [
  'web/src/main.tsx',
  'web/src/app.tsx',
  'web/src/routes.tsx',
  'web/src/theme.ts',
  'web/src/layout/**/*.{ts,tsx}',
  'web/src/session/**/*.{ts,tsx}',
  'web/src/answering/**/*.{ts,tsx}',
  'web/src/config/**/*.ts',
  'web/src/api/client.ts',
  'web/src/api/notify.ts',
];
const noContractBarrelValues = {
  name: '@olympe/contract',
  allowTypeImports: true,
  message:
    'Le premier chargement n’embarque pas zod : importez les valeurs d’un module sans schéma (@olympe/contract/profile, /text, /dates…).',
};

/** A screen may use another screen's file only when listed here (a component both need, not yet moved). */
const sharedBetweenPages = {
  // The chapter page is being reworked on another branch: the button moves to components/ after it lands.
  registrations: ['./chapter/paper/answer-sheets-button.tsx'],
  // The admin's data actions on a person: one admin screen shows them on another's user list.
  users: ['./privacy/user-data-actions.tsx'],
  // docs/product.md#spec-2 Profile: the pupil chooses centres with the chapter page's own panel (decision 66). It fetches its
  // data itself, so it cannot live in components/; it moves with the chapter page's rework.
  profile: ['./chapter/paper/paper-panel.tsx'],
  // Decision 70: the admin's preview is the pupil's own results card.
  chapters: ['./chapter/results-card.tsx'],
};

/**
 * The server's three house rules (decision 147), as `no-restricted-syntax` selectors. Each names what it refuses
 * and where that code goes instead.
 */
const UPPER_CASE = '/^[A-Z][A-Z0-9_]*$/';
const serverRules = {
  // docs/architecture.md « Where things go »: routes keep role guards (preHandler); a rule on the caller and a
  // record is a policy of <area>/policies.ts (`assertMayX` / `canX`), called by the service with the loaded row.
  // The caller's flags are read from `auth`, `request.auth`, a viewer…; `users.isAdmin` (the table's column),
  // `row.*` and `roles.*` are data being read or shaped, not a check.
  roles: [
    {
      selector:
        'MemberExpression[property.name=/^(isAdmin|isMember|isTeacher)$/]:not([object.name=/^(users|row|roles)$/]), CallExpression[callee.name="hasRole"]',
      message:
        'Un contrôle de rôle ou par enregistrement va dans <domaine>/policies.ts (assertMayX / canX), appelé par le service ; une route garde son preHandler.',
    },
  ],
  // docs/architecture.md « Response shaping »: every response is shaped in <area>/presenters.ts.
  presenters: [
    {
      selector:
        'FunctionDeclaration[id.name=/^present[A-Z]/], VariableDeclarator[id.name=/^present[A-Z]/][init.type=/^(ArrowFunctionExpression|FunctionExpression)$/]',
      message: 'Une fonction present* vit dans <domaine>/presenters.ts.',
    },
  ],
  // docs/architecture.md « Which query style when »: rows, one and queryRows take the row's zod shape, checked at
  // the edge; sql.raw takes only a constant (a literal, or an UPPER_CASE constant), never a value.
  queries: [
    {
      selector: 'CallExpression[callee.name=/^(rows|one|queryRows)$/][typeArguments]',
      message: 'Passez la forme zod de la ligne (rows(db, shape, requête), server/src/db/query.ts) au lieu d’un paramètre de type.',
    },
    {
      selector:
        'CallExpression[callee.name=/^(rows|one)$/][arguments.length=2]:not([typeArguments]), CallExpression[callee.name="queryRows"][arguments.length=4]:not([typeArguments])',
      message: 'Forme non vérifiée : passez la forme zod de la ligne (rows(db, shape, requête), server/src/db/query.ts).',
    },
    {
      selector: 'ImportSpecifier[imported.name=/^(rows|one|queryRows)$/]:not([local.name=/^(rows|one|queryRows)$/])',
      message: 'rows, one et queryRows gardent leur nom à l’import : c’est ainsi que ces règles les reconnaissent.',
    },
    {
      selector: `CallExpression[callee.object.name="sql"][callee.property.name="raw"]:not([arguments.0.type=/^(Literal|TemplateLiteral)$/], [arguments.0.name=${UPPER_CASE}])`,
      message:
        'sql.raw ne prend qu’une constante (littéral ou NOM_EN_MAJUSCULES) : une valeur passe en paramètre, un nom par sql.identifier.',
    },
    {
      selector: `CallExpression[callee.object.name="sql"][callee.property.name="raw"] > TemplateLiteral > :not(TemplateElement, Identifier[name=${UPPER_CASE}])`,
      message:
        'sql.raw ne prend qu’une constante (littéral ou NOM_EN_MAJUSCULES) : une valeur passe en paramètre, un nom par sql.identifier.',
    },
  ],
};

/**
 * One `no-restricted-syntax` holds the three rules, so a file's block lists the selectors that apply to it: every
 * server file gets all three, then the exempt files get theirs without the rule they skip.
 */
const serverSelectors = (skip) => Object.entries(serverRules).flatMap(([name, selectors]) => (skip(name) ? [] : selectors));
const serverRuleBlocks = [
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...serverSelectors(() => false)] },
  },
  {
    files: ['server/src/**/policies.ts', 'server/src/auth/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...serverSelectors((name) => name === 'roles')] },
  },
  {
    files: ['server/src/**/presenters.ts'],
    rules: { 'no-restricted-syntax': ['error', ...serverSelectors((name) => name === 'presenters')] },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'e2e/output/**',
      'server/src/db/migrations/**',
      'data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      // Installed on demand (npm ci --prefix bench/first-load/lighthouse): lighthouse and puppeteer are absent in CI.
      'bench/first-load/lighthouse/**',
    ],
  },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX, 'check-file': checkFile },
    // Two files carry `no-control-regex` disable comments from before the linter; the rule is not on here.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    settings: {
      // The server imports `./x.js` for `./x.ts` (ES modules under tsx); the web app omits extensions.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      'no-restricted-imports': ['error', { paths: [noAxios] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // docs/product.md#style (§8): kebab-case files; `.test`, `.spec`, `.config`, `.d` middles are not part of the name.
      'check-file/filename-naming-convention': ['error', { '**/*.{ts,tsx}': 'KEBAB_CASE' }, { ignoreMiddleExtensions: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // A screen never reaches into another screen's folder: shared UI goes to components/.
            ...pages.map((page) => ({
              target: `./web/src/pages/${page}`,
              from: './web/src/pages',
              except: [`./${page}`, ...(sharedBetweenPages[page] ?? [])],
              message: 'Une page n’importe pas le dossier d’une autre page : déplacez le composant dans web/src/components/.',
            })),
            // Shared components take data as props; pages fetch through api/.
            {
              target: './web/src/components',
              from: './web/src/api',
              message: 'Les composants partagés reçoivent leurs données en props : les appels passent par les pages.',
            },
            { target: './web/src/components', from: './web/src/pages' },
            // Areas call each other's services; routes are registered by app.ts alone.
            { target: './server/src', from: './server/src/*/routes.ts', except: [] },
            // The browser bundle never pulls server code, nor the server the web app.
            { target: './web/src', from: './server' },
            { target: './server/src', from: './web' },
            { target: './contract/src', from: ['./web', './server', './e2e', './bench'] },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by the browser and the server: zod and its own files only.
    files: ['contract/src/**/*.ts'],
    ignores: ['contract/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|zod/|\\.{1,2}/)', message: 'contract/ importe seulement zod et ses propres fichiers.' }] },
      ],
    },
  },
  {
    files: ['web/src/pages/**/*.{ts,tsx}'],
    ignores: ['web/src/pages/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [noAxios, noInlineQueries] }] },
  },
  {
    files: firstLoadFiles,
    ignores: ['web/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [noAxios, noContractBarrelValues] }] },
  },
  ...serverRuleBlocks,
  {
    // app.ts is where routes are registered.
    files: ['server/src/app.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // PdfView fetches the PDF bytes itself (signed links, caching); moving the fetch to every caller is
    // left for the web data-pattern work.
    files: ['web/src/components/PdfView/use-pdf.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // React components of components/ kept their PascalCase names (renaming them would touch every page
    // now being changed on other branches); new files are kebab-case.
    files: [
      'web/src/components/ImpersonationBanner.tsx',
      'web/src/components/ImpersonationBanner.test.tsx',
      'web/src/components/MathText/MathText.tsx',
      'web/src/components/MathText/MathText.test.tsx',
      'web/src/components/PdfView/PdfView.tsx',
      'web/src/components/TitledLoader.tsx',
      'web/src/components/VirtualTable.tsx',
      'web/src/components/VirtualTable.test.tsx',
    ],
    rules: { 'check-file/filename-naming-convention': 'off' },
  },
  {
    // Comments cite decisions and docs/product.md anchors, not a tracker's issues (decision 150).
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'olympe-signs': signs },
    rules: { 'olympe-signs/no-tracker-citation': 'error' },
  },
);
