import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntakeErrorBody, Screening } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { onPostgres } from '../helpers/test-db.js';

let stack: Stack;

async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

async function queueCounts(): Promise<Record<string, number>> {
  const r = await call('GET', '/status');
  return r.json.queue;
}

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('POST /screenings end to end (real worker, emulator, Redis, SQLite)', () => {
  it('answers 202 with a queued screening and Location, then GET shows it done with hold for 1000003', async () => {
    const r = await call('POST', '/screenings', { dot_number: '1000003', tender_id: 'T-202' });
    expect(r.status).toBe(202);
    const s = r.json as Screening;
    expect(s.object).toBe('screening');
    expect(s.status).not.toBe('done');
    expect(s.tender_id).toBe('T-202');
    expect(s.query).toEqual({ dot_number: '1000003' });
    expect(r.headers.location).toBe(`/screenings/${s.id}`);

    let done: Screening | undefined;
    for (let i = 0; i < 200 && !done; i++) {
      const g = await call('GET', `/screenings/${s.id}`);
      expect(g.status).toBe(200);
      if ((g.json as Screening).status === 'done') done = g.json as Screening;
      else await new Promise((res) => setTimeout(res, 50));
    }
    expect(done?.action).toBe('hold');
    expect(done?.hold_reason).toBe('manual_review');
    expect(done?.review?.state).toBe('pending');
  });

  it('?wait=10 answers 200 with the finished screening: block for 1000005 and for 4242 (not found)', async () => {
    const a = await call('POST', '/screenings?wait=10', { dot_number: 1000005 });
    expect(a.status).toBe(200);
    expect(a.json.status).toBe('done');
    expect(a.json.action).toBe('block');
    expect(a.json.score.decision).toBe('rejected');

    const b = await call('POST', '/screenings?wait=10', { mc_number: 'mc-1000005' });
    expect(b.status).toBe(200);
    expect(b.json.query).toEqual({ mc_number: 'MC1000005' });
    expect(b.json.action).toBe('block');

    const c = await call('POST', '/screenings?wait=10', { dot_number: '4242' });
    expect(c.status).toBe(200);
    expect(c.json.action).toBe('block');
    expect(c.json.error.code).toBe('carrier_not_found');
  });

  it('?wait=10 gives hold for 1000003 (a second request: served from the cache)', async () => {
    const r = await call('POST', '/screenings?wait=10', { dot_number: '1000003' });
    expect(r.status).toBe(200);
    expect(r.json.action).toBe('hold');
  });

  it('a cache hit is answered at once (wait=0) without a /v1 lookup and without touching the queue', async () => {
    const warm = await call('POST', '/screenings?wait=10', { dot_number: '1000005' });
    expect(warm.json.status).toBe('done');
    const lookups = stack.emulator.stats().scoreLookups;
    const before = await queueCounts();

    const hit = await call('POST', '/screenings', { dot_number: '1000005', tender_id: 'T-hit' });
    expect(hit.status).toBe(200);
    expect(hit.json.status).toBe('done');
    expect(hit.json.source).toBe('cache');
    expect(hit.json.action).toBe('block');

    expect(stack.emulator.stats().scoreLookups).toBe(lookups);
    expect(await queueCounts()).toEqual(before);
  });

  it('GET /screenings lists newest first and filters by status', async () => {
    const r = await call('GET', '/screenings?limit=3&status=done');
    expect(r.status).toBe(200);
    expect(r.json.object).toBe('list');
    expect(r.json.data.length).toBeLessThanOrEqual(3);
    const times = (r.json.data as Screening[]).map((s) => s.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const s of r.json.data as Screening[]) expect(s.status).toBe('done');
  });

  it('GET /screenings/:id is 404 for a well-formed unknown id and 400 naming id for a malformed one', async () => {
    const a = await call('GET', `/screenings/scr_${'a'.repeat(26)}`);
    expect(a.status).toBe(404);
    expect((a.json as IntakeErrorBody).error.code).toBe('resource_missing');
    const b = await call('GET', '/screenings/..%2F..%2Fetc%2Fpasswd');
    expect(b.status).toBe(400);
    expect(b.json.error).toMatchObject({ code: 'invalid_request', param: 'id' });
  });

  it('GET /status, /usage/daily, pause and resume', async () => {
    const s = await call('GET', '/status');
    expect(s.status).toBe(200);
    expect(s.json).toMatchObject({ object: 'status', environment: 'sandbox' });
    const u = await call('GET', '/usage/daily');
    expect(u.json.object).toBe('usage_daily');
    const p = await call('POST', '/queue/pause');
    expect(p.status).toBe(200);
    expect(p.json.queue.paused).toBe(true);
    // Intake keeps accepting while paused.
    const q = await call('POST', '/screenings', { dot_number: '1000001', priority: 'background' });
    expect(q.status).toBe(202);
    const r = await call('POST', '/queue/resume');
    expect(r.json.queue.paused).toBe(false);
  });

  it('GET /healthz needs no token and shows no secrets', async () => {
    const res = await request(`${stack.intakeUrl}/healthz`);
    const text = await res.body.text();
    expect(res.statusCode).toBe(200);
    // The record's engine by name; the old sqlite fields only where they are true to it.
    expect(JSON.parse(text)).toEqual({
      status: 'ok',
      redis: true,
      record: true,
      record_writable: true,
      record_backend: onPostgres ? 'postgresql' : 'sqlite',
      ...(onPostgres ? {} : { sqlite: true, sqlite_writable: true }),
      svc: true,
      svc_key_rejected: false,
    });
    expect(text).not.toContain(stack.token);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('GET /openapi.json documents the routes', async () => {
    const r = await call('GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.json.openapi).toMatch(/^3\./);
    expect(Object.keys(r.json.paths)).toEqual(
      expect.arrayContaining(['/screenings', '/screenings/{id}', '/reviews', '/reviews/{id}/approve', '/status', '/healthz']),
    );
    expect(r.json.paths['/screenings'].post.requestBody).toBeDefined();
  });
});
