// The floating-promise rules, type-aware, over worker/ only: `npm run lint:promises`. A promise
// left floating in the worker is a unit of work not awaited (a write after its COMMIT, an error
// nobody sees). Its own script, run by `npm test`: building the type information roughly doubles
// ESLint's time (~30 s here), too slow for an editor's save but cheap beside the tests.
import tseslint from 'typescript-eslint';
import base from './eslint.config.mjs';

export default tseslint.config(...base, {
  files: ['worker/**/*.ts'],
  languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    '@typescript-eslint/no-misused-promises': 'error',
    // `return promise` inside try: its rejection would skip the catch (a 404/409 mapping lost).
    '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
  },
});
