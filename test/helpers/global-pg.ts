import { dropRunDatabases } from './pg-db.js';

/**
 * Names this run for its PostgreSQL test databases (pg-db.ts): the test processes inherit
 * CS_TEST_RUN. At the end, drops what a killed or crashed test file left behind, and only this
 * run's: another run's databases have another number.
 */
export function setup(): void {
  process.env.CS_TEST_RUN = String(process.pid);
}

export async function teardown(): Promise<void> {
  const left = await dropRunDatabases().catch(() => []); // no server here: nothing was created
  if (left.length > 0) console.warn(`pg: dropped ${left.length} test database(s) a test file left: ${left.join(', ')}`);
}
