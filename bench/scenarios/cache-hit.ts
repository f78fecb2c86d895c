/**
 * Scenario 2: cache-hit screenings through POST /screenings with the intake token, after the
 * cache was warmed with one screening per carrier.
 */
import type { Harness, WorkerHandle } from '../harness.js';
import type { LoadRequest } from '../load-generator.js';
import { measureThroughput, type ThroughputRun } from './throughput.js';

export function screeningRequests(dots: string[], wait: number, extra: Record<string, unknown> = {}): LoadRequest[] {
  return dots.map((dot, i) => ({
    method: 'POST',
    path: `/screenings?wait=${wait}`,
    body: JSON.stringify({ dot_number: dot, tender_id: `T-${i}`, ...extra }),
  }));
}

/** Screen each carrier once (waiting for /v1) so later screenings are cache hits. */
export async function warmCache(h: Harness, worker: WorkerHandle, dots: string[]): Promise<void> {
  const { result } = await h.load({
    origin: worker.url,
    headers: worker.headers,
    requests: screeningRequests(dots, 30),
    concurrency: 8,
    tally: 'source',
  });
  if ((result.tally.service ?? 0) + (result.tally.cache ?? 0) !== dots.length)
    throw new Error(
      `cache warm-up: expected ${dots.length} scored screenings, got ${JSON.stringify(result.tally)} / ${JSON.stringify(result.statuses)}`,
    );
}

export function measureCacheHits(h: Harness, worker: WorkerHandle, dots: string[]): Promise<ThroughputRun> {
  return measureThroughput(h, {
    url: worker.url,
    serverPid: worker.pid,
    headers: worker.headers,
    requests: screeningRequests(dots, 5),
    tally: 'source',
  });
}
