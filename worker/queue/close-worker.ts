import type { Worker } from 'bullmq';

/**
 * How long a close waits for a worker's blocking connection to be back: our retry delay is at
 * most 2 s (redis-connection.ts), then a connect. Twice this stays within the stop deadline (cli.ts).
 */
export const RECONNECT_WAIT_MS = 2_500;

type BlockingClient = NonNullable<Awaited<ReturnType<Worker['getBackend']>['blockingClient']>>;

/**
 * Closes a BullMQ worker, its active jobs finishing first (BullMQ's close()), also when Redis is
 * down or has just come back. Then the worker's blocking connection may be between two reconnect
 * attempts, and BullMQ's close() would wait forever for an 'end' that ioredis never emits (its
 * disconnect() clears the retry timer and has no socket to close; bullmq#4656). So first wait up
 * to `waitMs` for that connection to be back; if Redis stays away, close without waiting for the
 * active jobs: they could not be completed in Redis anyway, their locks run out and they run again.
 */
export async function closeQueueWorker(worker: Pick<Worker, 'getBackend' | 'close'>, waitMs = RECONNECT_WAIT_MS): Promise<void> {
  const blocking = await within(worker.getBackend().blockingClient ?? Promise.resolve(undefined), waitMs);
  if (blocking?.status === 'reconnecting') await readyWithin(blocking, waitMs);
  // Never connected (undefined) or still between attempts: BullMQ's wait would not end.
  await worker.close(blocking === undefined || blocking.status === 'reconnecting');
}

function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let t: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (t = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([p.catch(() => undefined), late]).finally(() => clearTimeout(t));
}

function readyWithin(client: BlockingClient, ms: number): Promise<void> {
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
    client.once('ready', onReady);
  });
  return within(ready, ms).then(() => void client.removeListener('ready', onReady));
}
