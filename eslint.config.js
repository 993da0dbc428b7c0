// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'http',
  'https',
  'net',
  'url',
  'child_process',
  'worker_threads',
  'stream',
  'crypto',
  'events',
  'util',
  'zlib',
];

const rendererPatterns = [
  { group: nodeBuiltins, message: 'The renderer is browser-only: no Node built-ins.' },
  { group: ['electron'], message: 'The renderer talks to main only through the contract client.' },
  { group: ['**/src-main/**'], message: 'src-renderer never imports src-main.' },
];

/**
 * The layering of ARCHITECTURE.md ("Layers"), as errors. Do not relax these rules: each folder
 * keeps to one runtime so that src-shared runs everywhere and only src-main/electron touches Electron.
 */
const sharedPatterns = [
  { group: nodeBuiltins, message: 'src-shared is pure TypeScript: no Node built-ins.' },
  {
    group: ['electron', 'react', 'react-dom', 'react/*', 'monaco-editor', 'monaco-editor/*'],
    message: 'src-shared has no runtime-specific dependencies.',
  },
  {
    group: ['**/src-main/**', '**/src-renderer/**', '../../src-main/*', '../../src-renderer/*'],
    message: 'src-shared imports nothing from src-main or src-renderer.',
  },
];

/** Test support inside src-shared: the testing folder, and each dialect's fuzz grammar and fault kinds. */
const sharedTestSupport = [
  'src-shared/**/*.test.ts',
  'src-shared/testing/**',
  'src-shared/dialects/*/fuzz.ts',
  'src-shared/dialects/*/faults.ts',
];

const layering = [
  {
    files: ['src-shared/**/*.ts'],
    ignores: ['src-shared/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: sharedPatterns }] },
  },
  {
    // What the app, the CLI and the worker run never loads the fuzzer or its grammars.
    files: ['src-shared/**/*.ts'],
    ignores: sharedTestSupport,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...sharedPatterns,
            {
              group: ['**/testing/*', './fuzz', '../*/fuzz', './faults', '../*/faults'],
              message: "Test support (src-shared/testing, a dialect folder's fuzz.ts and faults.ts) is for tests only.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    ignores: ['src-renderer/**/*.test.ts', 'src-renderer/model/**', 'src-renderer/views/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: rendererPatterns }] },
  },
  {
    // The renderer's model is the bottom layer: framework-free, below the composition root and the views.
    files: ['src-renderer/model/**/*.ts'],
    ignores: ['src-renderer/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rendererPatterns,
            {
              group: ['../app/*', '**/src-renderer/app/**'],
              message: 'model/ is below app/: the composition root builds the model, never the reverse.',
            },
            {
              group: ['../views/*', '**/src-renderer/views/**', 'react', 'react-dom', 'react/*'],
              message: 'model/ is framework-free and below the views.',
            },
          ],
        },
      ],
    },
  },
  {
    // Views reach main only through the model's façades (app.commands(sessionId), the app's own methods).
    files: ['src-renderer/views/**/*.ts', 'src-renderer/views/**/*.tsx'],
    ignores: ['src-renderer/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rendererPatterns,
            {
              group: ['**/bridge/*', '**/app/composition'],
              message: 'Views never hold the contract client: use app.commands(sessionId) or the app model.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron'], message: 'Only src-main/electron imports electron; services stay plain Node.' },
            { group: ['**/src-renderer/**'], message: 'src-main never imports src-renderer.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/src-renderer/**'], message: 'src-main never imports src-renderer.' }],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      '.tsbuild/',
      'test-results/',
      'playwright-report/',
      'bin/',
      'scripts/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.es2022 },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Stream content is untrusted: never set raw HTML.',
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.tsx', 'src-renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [
      'src-main/**/*.ts',
      'bench/**/*.ts',
      'e2e/**/*.ts',
      'scripts/**/*.ts',
      '**/*.test.ts',
      '*.config.ts',
      '*.config.js',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  ...layering,
);
