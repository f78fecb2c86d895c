// Lint for mistakes, not layout: ESLint's and typescript-eslint's recommended rules over every
// source in the repository. The import walls between folders are dependency-cruiser's
// (.dependency-cruiser.cjs); both run in `npm run lint`, which `npm test` runs first.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'coverage/**', 'shared/intake-api.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a binding kept on purpose: a rest-omitted key, an unused parameter of a port.
      // A `let` assigned once later but read earlier from a closure (signal handlers, ports wired
      // before start) cannot be a const.
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  // Build scripts and the Electron stand-in run under Node as plain JavaScript.
  { files: ['**/*.mjs', '**/*.cjs'], languageOptions: { globals: globals.node } },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Tests build malformed and partial values on purpose (bad input, drifting /v1 answers).
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
