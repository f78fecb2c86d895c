/**
 * Scenario 4, miss-path overhead: one screening at a time of a carrier never seen before
 * (POST /screenings?wait=30, so the worker must call /v1), against a bare undici request for
 * another unseen carrier to the same emulator. The difference is what the worker adds.
 */
import { DEMO_KEYS } from '../../emulator/index.js';
import type { Harness, WorkerHandle } from '../harness.js';
import { screeningRequests } from './cache-hit.js';

export interface MissRun {
  workerP50Ms: number;
  workerP99Ms: number;
  bareP50Ms: number;
  bareP99Ms: number;
  addedP50Ms: number;
  addedP99Ms: number;
  /** Screenings answered from /v1 (all of them, or the measurement is wrong). */
  fromService: number;
  samples: number;
  /** CPU share of the worker during its arm. */
  workerCpu: number;
}

export async function measureMissOverhead(
  h: Harness,
  worker: WorkerHandle,
  emulatorUrl: string,
  workerDots: string[],
  bareDots: string[],
): Promise<MissRun> {
  const viaWorker = await h.load(
    { origin: worker.url, headers: worker.headers, requests: screeningRequests(workerDots, 30), concurrency: 1, tally: 'source' },
    { server: worker.pid },
  );
  const bare = await h.load({
    origin: emulatorUrl,
    headers: { authorization: `Bearer ${DEMO_KEYS.live}` },
    requests: bareDots.map((d) => ({ method: 'GET', path: `/v1/svc-score?dot_number=${d}` })),
    concurrency: 1,
  });
  const w = viaWorker.result.latency;
  const b = bare.result.latency;
  return {
    workerP50Ms: w.p50,
    workerP99Ms: w.p99,
    bareP50Ms: b.p50,
    bareP99Ms: b.p99,
    addedP50Ms: w.p50 - b.p50,
    addedP99Ms: w.p99 - b.p99,
    fromService: viaWorker.result.tally.service ?? 0,
    samples: workerDots.length,
    workerCpu: viaWorker.cpu.server ?? Number.NaN,
  };
}
