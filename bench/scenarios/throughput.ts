/** One closed-loop throughput measurement against a server process (floor or worker). */
import type { Harness } from '../harness.js';
import type { LoadRequest } from '../load-generator.js';

export interface ThroughputRun {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  statuses: Record<string, number>;
  tally: Record<string, number>;
  /** CPU share (1 = one core) of the server, the load generator, Redis and the bench process. */
  cpu: Record<string, number>;
}

export async function measureThroughput(
  h: Harness,
  o: { url: string; serverPid: number; headers?: Record<string, string>; requests: LoadRequest[]; tally?: string },
): Promise<ThroughputRun> {
  const { result, cpu } = await h.load(
    {
      origin: o.url,
      requests: o.requests,
      concurrency: h.opts.concurrency,
      durationMs: h.opts.durationS * 1000,
      warmupMs: h.opts.quick ? 300 : 1000,
      ...(o.headers ? { headers: o.headers } : {}),
      ...(o.tally ? { tally: o.tally } : {}),
    },
    { server: o.serverPid },
  );
  return {
    rps: result.rps,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    completed: result.completed,
    statuses: result.statuses,
    tally: result.tally,
    cpu,
  };
}
