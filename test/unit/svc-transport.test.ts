/**
 * SvcClient's injectable transport (worker/svc/transport.ts, as stripe-node's HttpClient): the
 * client keeps the retry rule, the deadline, the errors and the redaction; a transport only moves
 * one request. The default undici transport is met over real HTTP in
 * test/integration/svc-client*.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SvcClient } from '../../worker/svc/client.js';
import type { SvcError } from '../../worker/svc/errors.js';
import type { HttpTransport, TransportRequest, TransportResponse } from '../../worker/svc/transport.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const headers = {
  'x-request-id': 'req_1',
  'svc-environment': 'sandbox',
  'x-ratelimit-limit': '120',
  'x-ratelimit-remaining': '50',
  'x-ratelimit-reset': String(NOW.getTime() / 1000 + 30),
};

/** A transport that answers from a list and remembers each request. */
class ListTransport implements HttpTransport {
  readonly seen: TransportRequest[] = [];
  closed = 0;
  constructor(private readonly answers: Array<TransportResponse | Error>) {}
  async request(req: TransportRequest): Promise<TransportResponse> {
    this.seen.push(req);
    const a = this.answers.shift();
    if (!a) throw new Error('no more answers');
    if (a instanceof Error) throw a;
    return a;
  }
  async close(): Promise<void> {
    this.closed++;
  }
}

describe('SvcClient with an injected transport', () => {
  const KEY = 'svc_test_sEcReT0123456789abcdef';
  const body = JSON.stringify({
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: '1000001', mc_number: null, legal_name: null, dba_name: null },
    score: 70,
    grade: 'C',
    decision: 'approved',
    verdict: null,
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    data_confidence: 0.9,
    model_version: 'm',
    calculated_at: NOW.toISOString(),
  });

  it('the client keeps the retry rule: a 503 then a score is two requests through the transport', async () => {
    const waits: number[] = [];
    const t = new ListTransport([
      { status: 503, headers, body: JSON.stringify({ error: { code: 'scoring_unavailable', message: 'busy' } }) },
      { status: 200, headers, body },
    ]);
    const c = new SvcClient({
      baseUrl: 'http://svc.example/api',
      apiKey: KEY,
      transport: t,
      sleep: async (ms) => void waits.push(ms),
      random: () => 0,
      now: () => NOW,
    });
    const r = await c.getScore({ dot_number: '1000001' });
    expect(r).toMatchObject({ attempts: 2, body: { decision: 'approved' }, limits: { requestId: 'req_1' } });
    expect(waits).toEqual([1_000]);
    expect(t.seen.map((s) => [s.method, s.path, s.headers.authorization, s.signal instanceof AbortSignal])).toEqual([
      ['GET', '/api/v1/svc-score?dot_number=1000001', `Bearer ${KEY}`, true],
      ['GET', '/api/v1/svc-score?dot_number=1000001', `Bearer ${KEY}`, true],
    ]);
    await c.close();
    expect(t.closed).toBe(1);
  });

  it("a transport's failure to connect is a network error that sent nothing; an echoed key is redacted", async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const t = new ListTransport([
      refused,
      { status: 400, headers, body: `{"error":{"code":"invalid_request","message":"bad key ${KEY}"}}` },
    ]);
    const c = new SvcClient({ baseUrl: 'http://svc.example', apiKey: KEY, transport: t, maxAttempts: 1, now: () => NOW });
    const e1 = await c.getScore({ dot_number: '1000001' }).catch((e: unknown) => e);
    expect(e1).toMatchObject({ kind: 'network', sent: false, code: 'ECONNREFUSED' });
    const e2 = (await c.getScore({ dot_number: '1000001' }).catch((e: unknown) => e)) as SvcError;
    expect(e2).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(e2.message).toContain('[redacted]');
    expect(e2.message).not.toContain(KEY);
  });
});
