import type { AddressInfo } from 'node:net';
import { buildEmulator, DEMO_KEYS, type EmulatorOptions } from '../../../emulator/index.js';

/**
 * The reference /v1 emulator (a real HTTP server on loopback) with a log of every score
 * request as the service saw it: when it arrived, for which carrier, what it answered. The
 * fault tests read the worker's retry behaviour from this log, from the outside.
 */

export interface ScoreRequest {
  /** ms epoch when the request arrived. */
  at: number;
  /** ms epoch when the answer was sent (undefined while in flight). */
  answeredAt?: number;
  /** `dot:123` or `mc:MC123`. */
  carrier: string;
  status?: number;
  /** error.code of an error answer. */
  code?: string;
  retryAfterSec?: number;
  /** A 200 whose body is not JSON (the malformed fault). */
  malformed?: boolean;
}

/** A GET /v1/health as the service saw it (the worker's free check that /v1 answers again). */
export interface HealthCheck {
  at: number;
  answeredAt?: number;
  status?: number;
}

export interface RecordingEmulator {
  baseUrl: string;
  /** The demo key for this instance's mode (or the caller's own account key). */
  key: string;
  /** Score requests, in arrival order. */
  requests: ScoreRequest[];
  /** Health checks, in arrival order. */
  healthChecks: HealthCheck[];
  /** Score requests that arrived but were not answered yet. */
  inFlight(): number;
  /** Requests to any /v1 path (usage and health included). */
  allRequests(): number;
  close(): Promise<void>;
}

export async function startRecordingEmulator(opts: EmulatorOptions & { key?: string } = {}): Promise<RecordingEmulator> {
  const { key, ...emuOpts } = opts;
  const app = buildEmulator({ ...emuOpts, port: 0 });
  const requests: ScoreRequest[] = [];
  const healthChecks: HealthCheck[] = [];
  const byReq = new WeakMap<object, ScoreRequest>();
  const healthByReq = new WeakMap<object, HealthCheck>();
  let all = 0;
  app.addHook('onRequest', async (req) => {
    all++;
    if (req.routeOptions.url === '/v1/health') {
      const h: HealthCheck = { at: Date.now() };
      healthChecks.push(h);
      healthByReq.set(req, h);
    }
    if (req.routeOptions.url !== '/v1/svc-score') return;
    const q = req.query as Record<string, unknown>;
    const carrier = typeof q.dot_number === 'string' ? `dot:${q.dot_number}` : `mc:${String(q.mc_number)}`;
    const r: ScoreRequest = { at: Date.now(), carrier };
    requests.push(r);
    byReq.set(req, r);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const h = healthByReq.get(req);
    if (h) Object.assign(h, { answeredAt: Date.now(), status: reply.statusCode });
    const r = byReq.get(req);
    if (!r) return payload;
    r.answeredAt = Date.now();
    r.status = reply.statusCode;
    const ra = reply.getHeader('retry-after');
    if (ra !== undefined) r.retryAfterSec = Number(ra);
    if (reply.statusCode === 200 && typeof payload === 'string') {
      try {
        JSON.parse(payload);
      } catch {
        r.malformed = true;
      }
    }
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      try {
        r.code = (JSON.parse(payload) as { error?: { code?: string } }).error?.code;
      } catch {
        /* not JSON */
      }
    }
    return payload;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const mode = emuOpts.mode ?? 'sandbox';
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    key: key ?? DEMO_KEYS[mode],
    requests,
    healthChecks,
    inFlight: () => requests.filter((r) => r.answeredAt === undefined).length,
    allRequests: () => all,
    close: async () => {
      await app.close();
    },
  };
}
