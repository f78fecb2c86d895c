import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The PostgreSQL pass of the test matrix (issue 34; `npm run test:pg`, after `npm test` in .ci/run):
 * the backend-neutral integration tests again, each stack on a PostgreSQL test database of its own
 * (SCREEN_TEST_DB=postgres, test/helpers/test-db.ts). Their SQLite-only cases skip, saying so.
 * A file is listed once it is green here. Left out: files wholly SQLite-only (decision-events,
 * health-writable, review-growth), files that build no stack (watch-detector, watch-emulator), and
 * intake-outages (its Redis-down stack does not close on PostgreSQL: the queue worker's close waits).
 */
export const PG_PASS = [
  'test/integration/api-versions.test.ts',
  'test/integration/callbacks-delivery.test.ts',
  'test/integration/callbacks-network.test.ts',
  'test/integration/decisions.test.ts',
  'test/integration/event-log.test.ts',
  'test/integration/event-refs.test.ts',
  'test/integration/healthz-key.test.ts',
  'test/integration/intake-auth-ui.test.ts',
  'test/integration/intake-bad-input.test.ts',
  'test/integration/intake-batch.test.ts',
  'test/integration/intake-client.test.ts',
  'test/integration/intake-door.test.ts',
  'test/integration/intake-events.test.ts',
  'test/integration/intake-headers.test.ts',
  'test/integration/intake-load.test.ts',
  'test/integration/intake-paging.test.ts',
  'test/integration/intake-request-ids.test.ts',
  'test/integration/intake-roles.test.ts',
  'test/integration/intake-screenings.test.ts',
  'test/integration/intake-secrets.test.ts',
  'test/integration/intake-status-cli.test.ts',
  'test/integration/list-json.test.ts',
  'test/integration/log-joins.test.ts',
  'test/integration/lookup-economy.test.ts',
  'test/integration/metrics-ages.test.ts',
  'test/integration/outage-rescreen.test.ts',
  'test/integration/redis-rebuild.test.ts',
  'test/integration/review-facts.test.ts',
  'test/integration/sandbox-helpers.test.ts',
  'test/integration/score-refs.test.ts',
  'test/integration/screener-build.test.ts',
  'test/integration/screener-edges.test.ts',
  'test/integration/screener-limits.test.ts',
  'test/integration/screener-recovery.test.ts',
  'test/integration/screener-sandbox.test.ts',
  'test/integration/screener-secrets.test.ts',
  'test/integration/stale-fallback.test.ts',
  'test/integration/watch-blocks.test.ts',
  'test/integration/watch-changes.test.ts',
  'test/integration/watch-fresh.test.ts',
  'test/integration/watch-quota.test.ts',
  'test/integration/watch-routes.test.ts',
  'test/integration/watch-scheduler.test.ts',
  'test/integration/watch-tenders.test.ts',
];

// Not mergeConfig: it would add this list to the base's include (test/**) rather than replace it.
export default defineConfig({
  ...base,
  test: { ...base.test, include: PG_PASS, env: { ...base.test?.env, SCREEN_TEST_DB: 'postgres' } },
});
