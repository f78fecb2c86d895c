/**
 * The rooms of ARCHITECTURE.md as rules: `npm run lint` fails when an import crosses a wall.
 * A rule named `debt-…` lists today's exceptions by name, so the list can only shrink (issue 33
 * moves them behind the store boundary); a new file that breaks the rule fails.
 */

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import circles.', from: {}, to: { circular: true } },
    {
      name: 'shared-imports-nothing-of-ours',
      severity: 'error',
      comment: 'shared/ is what both sides of a wire agree on: it depends on no program.',
      from: { path: '^shared/' },
      to: { path: '^(worker|electron|emulator|bench|test)/' },
    },
    {
      name: 'client-only-shared',
      severity: 'error',
      comment: 'The TMS client ships on its own: it knows the wire (shared/), not the worker.',
      from: { path: '^clients/' },
      to: { path: '^(worker|electron|emulator|bench|test)/' },
    },
    {
      name: 'emulator-only-shared',
      severity: 'error',
      comment: 'The emulator stands in for the /v1 service: it knows the contract, not our worker.',
      from: { path: '^emulator/' },
      to: { path: '^(worker|electron|bench|test)/' },
    },
    {
      name: 'tray-never-worker',
      severity: 'error',
      comment: 'The tray talks to the worker over HTTP only (electron/build.mjs also refuses such a bundle).',
      from: { path: '^electron/' },
      to: { path: '^(worker|emulator|bench|test)/' },
    },
    {
      name: 'electron-only-in-glue',
      severity: 'error',
      comment: 'Tray logic lives in modules that never import electron, so it is tested without the binary.',
      from: { path: '^electron/', pathNot: '^electron/(main/main|preload/preload)\\.ts$' },
      to: { path: '(^|/)node_modules/electron/' },
    },
    {
      name: 'svc-client-only-shared',
      severity: 'error',
      comment: 'The /v1 client is a transport and its retry rule: it knows nothing of queues or storage.',
      from: { path: '^worker/svc/' },
      to: { path: '^worker/(?!svc/)' },
    },
    {
      name: 'pipeline-through-the-provider',
      severity: 'error',
      comment:
        'The pipeline asks a ScoringProvider (worker/queue/scoring-provider.ts); what is /v1 (its client, errors, retries) stays behind the adapter.',
      from: { path: '^worker/queue/screening-pipeline\\.ts$' },
      to: { path: '^worker/svc/' },
    },
    {
      name: 'blocks-a-rule-not-watching',
      severity: 'error',
      comment:
        'The local do-not-use list (worker/blocks/) is a screening rule: it asks the store, the event feed and the carrier keys, never the watch list, the queue or the intake.',
      from: { path: '^worker/blocks/' },
      to: { path: '^worker/(?!(blocks|store|events)/|watch/carrier-key\\.ts$)' },
    },
    {
      name: 'routes-never-touch-sqlite',
      severity: 'error',
      comment: 'A route asks a service or the store interface; it never holds a connection or writes SQL.',
      from: { path: '^worker/intake/.*-routes\\.ts$' },
      to: {
        path: '((^|/)node_modules/better-sqlite3/|^worker/store/(sqlite-store|migrations|screening-search|score-refs|group-commit)\\.ts$)',
      },
    },
    {
      name: 'store-imports-no-feature',
      severity: 'error',
      comment:
        'The store is the backend under the features: its schema, keys and repositories import shared/ and nothing of the worker outside worker/store/ (feature folders import the store, never the reverse).',
      from: { path: '^worker/store/' },
      to: { path: '^worker/(?!store/)' },
    },
    {
      name: 'sqlite-only-in-store',
      severity: 'error',
      comment:
        'Only worker/store/ (the SQLite backend) opens SQLite or holds its connection (connectionOf lives in sqlite-store.ts): the rest of the product asks the Store interface or a repository (worker/store/index.ts). Tests and the bench generator may reach the backend directly.',
      from: { path: '^(worker|shared|emulator|electron)/', pathNot: '^worker/store/' },
      to: { path: '((^|/)node_modules/better-sqlite3/|^worker/store/sqlite-store\\.ts$)' },
    },
    {
      name: 'pg-only-in-store',
      severity: 'error',
      comment:
        'Only worker/store/pg/ (the PostgreSQL backend) imports the driver: the rest of the product, the SQLite backend included, asks the Store interface or a repository. Tests may reach the backend directly.',
      from: { path: '^(worker|shared|emulator|electron|bench)/', pathNot: '^worker/store/pg/' },
      to: { path: '(^|/)node_modules/(pg|pg-cursor|pg-pool|pg-protocol)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|test-artifacts|coverage)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.d.mts'] },
  },
};
