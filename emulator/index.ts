/**
 * The reference /v1 server (sandbox fixtures + a synthetic live dataset) for tests, the
 * `carrier-screen emulator` command and `start` without a key. See emulator/README.md.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { DEMO_KEYS } from './accounts.js';
import { buildEmulator as build } from './server.js';
import type { EmulatorOptions, EmulatorStats, RunningEmulator } from './types.js';

export type { EmulatorAccount, EmulatorFaults, EmulatorMode, EmulatorOptions, EmulatorStats, RunningEmulator } from './types.js';
export { DEMO_KEYS, DEMO_ACCOUNT } from './accounts.js';
export { SVC_API_VERSION, DEFAULT_MONTHLY_QUOTA, DEFAULT_RATE_PER_MINUTE, DEFAULT_RATE_WINDOW_MS } from './server.js';
export { SANDBOX_CARRIERS, SANDBOX_OUTAGE_DOT, SANDBOX_NOT_FOUND_DOT } from './sandbox-carriers.js';
export { liveCarrier, liveCarrierByMc, mcDigitsToDot, dotToMcDigits } from './live-carriers.js';
export { scoreBody, MODEL_VERSION, type CarrierProfile } from './score-object.js';
export { UNKNOWN_VALUES } from './unknown-fields.js';

/** Port of the `emulator` command when none is given. */
export const DEFAULT_EMULATOR_PORT = 4010;

/** A Fastify instance serving /v1 (not listening yet: call listen() or use inject()). */
export function buildEmulator(opts?: EmulatorOptions): FastifyInstance & { emulatorStats(): EmulatorStats; resetEmulatorStats(): void } {
  return build(opts);
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Build and listen. Host defaults to 127.0.0.1; port defaults to 0 (a free port). */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? '127.0.0.1';
  const app = build(opts);
  await app.listen({ host, port: opts.port ?? 0 });
  const port = (app.server.address() as AddressInfo).port;
  return {
    baseUrl: `http://${urlHost(host)}:${port}`,
    port,
    mode: opts.mode ?? 'sandbox',
    keys: { sandbox: DEMO_KEYS.sandbox, live: DEMO_KEYS.live },
    stats: () => app.emulatorStats(),
    resetStats: () => app.resetEmulatorStats(),
    close: async () => {
      await app.close();
    },
  };
}
