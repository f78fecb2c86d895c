/**
 * The emulator's own floor: score lookups straight from the load generator, no rate limit,
 * no added latency. It must be far above what any scenario asks of it (at most the 100/s
 * drain limit, or one request at a time on the miss path), so it is never the bottleneck.
 */
import { DEMO_KEYS } from '../../emulator/index.js';
import { liveDots } from '../carriers.js';
import { startProbedEmulator } from '../emulator-probe.js';
import type { Harness } from '../harness.js';
import type { ThroughputRun } from './throughput.js';

export async function measureEmulatorFloor(h: Harness, fromDot: number): Promise<ThroughputRun> {
  const emu = await startProbedEmulator({ ratePerMinute: 100_000_000, rateWindowMs: 1000, monthlyQuota: 100_000_000 });
  try {
    const dots = liveDots(200, fromDot);
    const { result, cpu } = await h.load({
      origin: emu.baseUrl,
      headers: { authorization: `Bearer ${DEMO_KEYS.live}` },
      requests: dots.map((d) => ({ method: 'GET', path: `/v1/svc-score?dot_number=${d}` })),
      concurrency: h.opts.concurrency,
      durationMs: Math.min(h.opts.durationS, 3) * 1000,
      warmupMs: 300,
    });
    return {
      rps: result.rps,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      completed: result.completed,
      statuses: result.statuses,
      tally: {},
      // The emulator runs in the bench process.
      cpu: { ...cpu, emulator: cpu.bench ?? Number.NaN },
    };
  } finally {
    await emu.close();
  }
}
