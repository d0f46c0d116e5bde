import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from './scripts/lint/boundaries.js';

const AREA_MESSAGE =
  'An area imports no other area: move what both need to src/app/components, forms, state or api.';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.tmp/**',
      'data/**',
      'coverage/**',
      'node_modules/**',
      'locales/i18n-*.ts',
      'locales/i18n-react.tsx',
      'src/app/i18n/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['scripts/**/*.{js,mjs,ts}', 'server/**/*.ts', 'tests/**/*.ts', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // An area of the app (src/app/routes/<area>) keeps to itself: it imports src/app/components, forms, state,
  // api, i18n, chart and theme and src/shared, never another area (CONVENTIONS.md "A folder per area").
  {
    files: ['src/app/routes/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./[^./][^/]*/', message: AREA_MESSAGE }] },
      ],
    },
  },
  {
    // The products area has a folder per product; they may use each other, not another area.
    files: ['src/app/routes/products/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./\\.\\./[^./][^/]*/', message: AREA_MESSAGE }] },
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'src/shared/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/imports': 'error', 'boundaries/routes': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
