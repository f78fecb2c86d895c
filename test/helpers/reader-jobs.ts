import { threadId } from 'node:worker_threads';
import { readJob } from '../../worker/store/reader-pool.js';

/** Reader-pool jobs for tests (test/integration/reader-pool.test.ts): loaded by the pool's threads by this module's URL. */

/** The screening's id if this read sees it, and the thread that read it. */
export const seeScreening = readJob(import.meta.url, 'seeScreening', async (record, id: string) => ({
  found: (await record.screenings.getScreening(id))?.id ?? null,
  threadId,
}));

/** Ends the thread in the middle of the read, as a crash would. */
export const endThread = readJob(import.meta.url, 'endThread', (): never => process.exit(7));

/** A write through the thread's record: refused, its connection is read-only. */
export const tryWrite = readJob(import.meta.url, 'tryWrite', (record) => record.events.appendEvent('queue.changed', null));

/** The thread a job runs on, as a list page would answer it (test/integration/list-json.test.ts). */
export const whichThread = readJob(import.meta.url, 'whichThread', () => ({ object: 'list' as const, data: [threadId], has_more: false }));
