// Lint, with the process layers as errors (see README "Layers"):
//   src-shared   pure TypeScript: no Node built-ins, no electron, no DOM globals, no other layer
//   preload      electron and src-shared only
//   src-renderer never src-main, never Node or electron
//   src-main     never src-renderer; electron only in its electron/ folder and main.electron.ts,
//                so the engine runs under plain Node too
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules.filter((m) => !m.startsWith('_')), 'node:*'];
const onlyElectronAndShared = 'the preload may import only electron and src-shared';

// The longest function body allowed in production code, in lines of code (see the rule below).
const MAX_FUNCTION_LINES = 150;

const restrict = (patterns) => ['error', { patterns }];
// A layer is reached by climbing folders or by its alias (tsconfig.base.json `paths`): each rule
// names both, so neither way past it is open.
const mainLayer = ['**/src-main/**', '@main/**'];
const rendererLayer = ['**/src-renderer/**', '@renderer/**'];
const noSleep =
  'no fixed sleep in a test: wait for the event or state you mean (vi.waitFor, expect.poll, waitUntil, fake timers); a delay that is the point of the test is holdFor or quietFor (src-main/test-support/time.ts), which say why';

// Layers inside main, as between the processes (see src-main/relay/README.md "Layout"). A later
// block's no-restricted-imports replaces an earlier one's for the same file, so each repeats
// main's own patterns. Tests may start whatever peer they need (a whole relay, an emulator).
const mainNeverImports = [
  { group: rendererLayer, message: 'main never imports the renderer' },
  {
    group: ['electron', 'electron/*'],
    message: 'only src-main/electron and main.electron.ts may import electron: the engine must run under plain Node',
  },
];
const layersInsideMain = [
  {
    files: ['src-main/relay/core/**/*.ts', 'src-main/relay/media/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        ...mainNeverImports,
        {
          regex: '^((\\.\\./)+|@main/relay/)(protocols|api|relay-module)(/|$)',
          message:
            'the relay core and media never import a protocol, the protocol registry, the API or the relay module: a protocol plugs in through relay/protocols.ts',
        },
      ]),
    },
  },
  {
    files: ['src-main/storage/client/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        ...mainNeverImports,
        {
          regex: '^(\\.\\.?/(.*/)?|@main/storage/)emulator(/|$)',
          message: 'the storage client never imports the emulator: it reaches it over HTTP, as it reaches Kodo',
        },
      ]),
    },
  },
  {
    files: ['src-main/directory/{client,services,account,calendar,traffic}/**/*.ts', 'src-main/directory/directory-*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        ...mainNeverImports,
        {
          regex: '^(\\.\\.?/(.*/)?|@main/directory/)emulator(/|$)',
          message: 'the directory client and services never import the emulator: they reach it over HTTP, as they reach Graph',
        },
      ]),
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**', 'test-results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-empty-pattern': 'off',
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': restrict([
        { group: nodeBuiltins, message: 'src-shared is pure TypeScript: no Node built-ins' },
        { group: ['electron', 'electron/*'], message: 'src-shared is pure TypeScript: no electron' },
        { group: [...mainLayer, ...rendererLayer], message: 'src-shared imports no other layer' },
      ]),
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'location',
        'localStorage',
        'process',
        'Buffer',
        '__dirname',
        'require',
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': restrict([
        { group: mainLayer, message: 'the renderer never imports main: use the contract client' },
        { group: nodeBuiltins, message: 'the renderer runs sandboxed: no Node built-ins' },
        { group: ['electron', 'electron/*'], message: 'the renderer reaches main only through the contract' },
      ]),
    },
  },
  {
    // Hooks called the same way on every render, and effect, memo and callback dependency lists
    // checked rather than trusted: a missing dependency is an error, not a warning.
    // (The plugin's React Compiler checks, such as refs and set-state-in-effect, are left off:
    // the renderer is not compiled with it, and its latest-value refs are deliberate.)
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Tests of renderer code run under Node and may start a real engine to talk to; they are
    // never part of the renderer bundle.
    files: ['src-renderer/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**', 'src-main/main.electron.ts', 'src-main/preload/**'],
    rules: {
      'no-restricted-imports': restrict(mainNeverImports),
    },
  },
  ...layersInsideMain,
  {
    // node:http and node:tls come through platform/cjs-builtins.ts (required, not imported): an
    // ES module import of them runs their lazy getters, and node:http's load undici (3.5 MiB of
    // the engine's RSS at start, where nothing calls fetch). Type imports cost nothing.
    files: ['src-main/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**', '**/test-support.ts', 'src-main/platform/cjs-builtins.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'http', 'node:tls', 'tls'].map((name) => ({
            name,
            allowTypeImports: true,
            message:
              'take nodeHttp or nodeTls from platform/cjs-builtins.ts: importing this module runs getters that load undici or parse the root certificates',
          })),
        },
      ],
    },
  },
  {
    files: ['src-main/electron/**/*.ts', 'src-main/main.electron.ts'],
    rules: {
      'no-restricted-imports': restrict([{ group: rendererLayer, message: 'main never imports the renderer' }]),
    },
  },
  {
    files: ['src-main/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([{ regex: '^(?!electron$)(?!(\\.\\./)+src-shared/)(?!@shared/)', message: onlyElectronAndShared }]),
    },
  },
  {
    // A function a reader can hold in mind at once: past this, split it by what its parts do
    // (a session's handler per method, a queue's scheduler, store and worker, a view's rows,
    // keys, toolbar and dialogs). Blank lines and comments do not count; tests are exempt.
    files: ['src-main/**/*.ts', 'src-renderer/**/*.{ts,tsx}', 'src-shared/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: ['e2e/**/*.ts'],
    rules: {
      // Waiting on the clock makes tests slow and flaky; wait for what the user sees instead.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='waitForTimeout']", message: 'wait for a visible state, not a timer' },
      ],
    },
  },
  {
    // As in the e2e specs: a test waits on what it means (an event, a promise, vi.waitFor or
    // expect.poll with a deadline, fake timers), not on a fixed sleep, which is slow on a fast
    // machine and flaky on a loaded one. A delay that is the point of a test goes through a
    // helper of src-main/test-support/time.ts that says why (holdFor, quietFor).
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        // A promise that is only a timer: `new Promise((r) => setTimeout(r, ms))` and its forms.
        // (A timer kept as a deadline beside an event, `const timer = setTimeout(...)`, is fine.)
        ...[
          "NewExpression[callee.name='Promise'] > :function > CallExpression[callee.name='setTimeout']",
          "NewExpression[callee.name='Promise'] > :function > BlockStatement > ExpressionStatement > CallExpression[callee.name='setTimeout']",
          'ImportDeclaration[source.value=/^(node:)?timers\\u002Fpromises$/]',
        ].map((selector) => ({ selector, message: noSleep })),
      ],
    },
  },
  {
    // Loaded into other programs' CommonJS processes (mocha 6 --require, --reporter).
    files: ['scripts/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
