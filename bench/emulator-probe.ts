/**
 * A live-mode /v1 emulator for one bench scenario, with a probe: the arrival time of every
 * score lookup that returned a score, so the drain can count lookups per rate window.
 */
import type { AddressInfo } from 'node:net';
import { buildEmulator, type EmulatorOptions, type EmulatorStats } from '../emulator/index.js';

export interface ProbedEmulator {
  baseUrl: string;
  stats(): EmulatorStats;
  /** Reset the counters and the lookup times. */
  reset(): void;
  /** ms epoch at which each 200 score answer's request arrived, in order. */
  readonly lookupTimes: number[];
  /** Resolves once `n` lookups have been answered since the last reset. */
  lookups(n: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startProbedEmulator(opts: EmulatorOptions): Promise<ProbedEmulator> {
  const app = buildEmulator({ ...opts, mode: 'live', host: '127.0.0.1', port: 0 });
  const lookupTimes: number[] = [];
  let waiters: Array<{ n: number; resolve(): void }> = [];
  app.addHook('onResponse', async (req, reply) => {
    if (req.routeOptions.url !== '/v1/svc-score' || reply.statusCode !== 200) return;
    lookupTimes.push(Date.now() - reply.elapsedTime);
    waiters = waiters.filter((w) => (lookupTimes.length >= w.n ? (w.resolve(), false) : true));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    stats: () => app.emulatorStats(),
    reset() {
      app.resetEmulatorStats();
      lookupTimes.length = 0;
    },
    lookupTimes,
    lookups(n, timeoutMs) {
      if (lookupTimes.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${lookupTimes.length} of ${n} lookups within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () => app.close(),
  };
}
