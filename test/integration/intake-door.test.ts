/**
 * The intake's door (issue 26), on the real intake with real SQLite, Redis and emulator: roles
 * on the route (HEAD follows GET), formulas escaped in the audit CSV read back by a CSV parser,
 * Idempotency-Key per caller and for batches, per-token rate limits and stream caps, `refresh`
 * reserved to desk and admin tokens, the connection cap.
 */
import { connect } from 'node:net';
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIntake, type RunningIntake } from '../../worker/intake/server.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { countRows, itSqlite } from '../helpers/test-db.js';

let stack: Stack;
let tms: string;
let tms2: string;
let desk: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  o: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await request(base + path, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${token}`, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  });
  const text = await res.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

const screeningCount = (): Promise<number> => countRows(stack.screenDb, 'screenings');

beforeAll(async () => {
  stack = await startStack();
  const tokens = new IntakeTokens(stack.screener.store);
  tms = (await tokens.create('tms', 'TMS')).token;
  tms2 = (await tokens.create('tms', 'Other TMS')).token;
  desk = (await tokens.create('desk', 'Dana Desk')).token;
});
afterAll(async () => {
  await stack?.close();
});

describe('roles on the route', () => {
  it('HEAD /audit.csv needs what GET /audit.csv needs: 403 for a tms token, 200 for desk', async () => {
    const q = '/audit.csv?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z';
    const head = await call(stack.intakeUrl, tms, 'HEAD', q);
    expect(head.status).toBe(403);
    expect((await call(stack.intakeUrl, tms, 'GET', q)).json.error.code).toBe('forbidden');
    expect((await call(stack.intakeUrl, desk, 'HEAD', q)).status).toBe(200);
  });

  it('every other HEAD route follows its GET too (a tms token may HEAD what it may GET)', async () => {
    expect((await call(stack.intakeUrl, tms, 'HEAD', '/status')).status).toBe(200);
    expect((await call(stack.intakeUrl, tms, 'HEAD', '/callbacks')).status).toBe(200);
  });
});

describe('the audit CSV', () => {
  itSqlite('escapes cells that start with = + - @ (tender_id, by, note, legal_name): a CSV reader sees them as text', async () => {
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    const at = '2026-03-01T00:00:00.000Z';
    const score = JSON.stringify({
      carrier: { dot_number: '3000001', mc_number: null, legal_name: '@SUM(A1:A9)' },
      score: 80,
      grade: 'B',
      decision: 'approved',
    });
    db.prepare(
      `INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, hold_reason, source, score, model_version, created_at, completed_at)
       VALUES ('scr_formula00000000000000000', '=HYPERLINK("http://x","y")', 'done', 'dot_number', '3000001', 'tender', 'hold', 'manual_review', 'live', ?, 'm', ?, ?)`,
    ).run(score, at, at);
    db.prepare(
      `INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, decided_by, decided_at, note)
       VALUES ('rev_formula00000000000000000', 'scr_formula00000000000000000', 'approved', 'manual_review', ?, '+cmd|calc', ?, '-2+3')`,
    ).run(at, at);
    const res = await call(stack.intakeUrl, desk, 'GET', '/audit.csv?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z');
    expect(res.status).toBe(200);
    const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
    const row = rows.find((r) => r.screening_id === 'scr_formula00000000000000000')!;
    expect(row.tender_id).toBe(`'=HYPERLINK("http://x","y")`);
    expect(row.legal_name).toBe("'@SUM(A1:A9)");
    expect(row.decided_by).toBe("'+cmd|calc");
    expect(row.note).toBe("'-2+3");
    // Numbers stay numbers.
    expect(row.score).toBe('80');
  });
});

describe('Idempotency-Key', () => {
  it('belongs to the token that sent it: another token with the same key makes its own screening', async () => {
    const key = `k-${Date.now()}-per-caller`;
    const a = await call(stack.intakeUrl, tms, 'POST', '/screenings', {
      body: { dot_number: '1000001', tender_id: 'IDEM-A' },
      headers: { 'idempotency-key': key },
    });
    // Another body under the same key from another token: not a conflict, a new request.
    const b = await call(stack.intakeUrl, tms2, 'POST', '/screenings', {
      body: { dot_number: '1000002', tender_id: 'IDEM-B' },
      headers: { 'idempotency-key': key },
    });
    expect([a.status, b.status].every((s) => s === 200 || s === 202)).toBe(true);
    expect(b.json.id).not.toBe(a.json.id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    // The first token's replay still finds its own.
    const again = await call(stack.intakeUrl, tms, 'POST', '/screenings', {
      body: { dot_number: '1000001', tender_id: 'IDEM-A' },
      headers: { 'idempotency-key': key },
    });
    expect(again.json.id).toBe(a.json.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('replays a whole batch: the same screenings, none made again; another body is 409', async () => {
    const key = `k-${Date.now()}-batch`;
    const body = {
      screenings: [
        { dot_number: '1000001', tender_id: 'B-1' },
        { dot_number: 'nope', tender_id: 'B-2' },
        { dot_number: '1000003', tender_id: 'B-3' },
      ],
    };
    const first = await call(stack.intakeUrl, tms, 'POST', '/screenings/batch', { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(207);
    const before = await screeningCount();
    const replay = await call(stack.intakeUrl, tms, 'POST', '/screenings/batch', { body, headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(207);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await screeningCount()).toBe(before);
    const ids = (r: Answer) => r.json.data.map((d: any) => d.screening?.id ?? d.error?.code);
    expect(ids(replay)).toEqual(ids(first));
    expect(replay.json.data[1]).toMatchObject({
      index: 1,
      status: 400,
      error: { code: 'invalid_request', param: 'screenings[1].dot_number' },
    });
    const other = await call(stack.intakeUrl, tms, 'POST', '/screenings/batch', {
      body: { screenings: [{ dot_number: '1000001', tender_id: 'B-9' }] },
      headers: { 'idempotency-key': key },
    });
    expect(other.status).toBe(409);
    expect(other.json.error).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
    expect(await screeningCount()).toBe(before);
  });
});

describe('refresh: true', () => {
  it('is reserved to desk and admin tokens: 403 naming refresh for a tms token, alone or in a batch', async () => {
    const before = await screeningCount();
    const one = await call(stack.intakeUrl, tms, 'POST', '/screenings', { body: { dot_number: '1000001', refresh: true } });
    expect(one.status).toBe(403);
    expect(one.json.error).toMatchObject({ code: 'forbidden', param: 'refresh' });
    const batch = await call(stack.intakeUrl, tms, 'POST', '/screenings/batch', {
      body: { screenings: [{ dot_number: '1000001', refresh: true }] },
    });
    expect(batch.json.data[0]).toMatchObject({ status: 403, error: { code: 'forbidden', param: 'screenings[0].refresh' } });
    expect(await screeningCount()).toBe(before);
    const byDesk = await call(stack.intakeUrl, desk, 'POST', '/screenings', { body: { dot_number: '1000001', refresh: true } });
    expect([200, 202]).toContain(byDesk.status);
  });
});

describe('cheap checks first', () => {
  it('a tms token asking for refresh with a refused callback_url is told about refresh: the callback_url check (a DNS lookup for a name) comes last', async () => {
    const before = await screeningCount();
    const callback_url = 'http://169.254.169.254/latest/meta-data/';
    const one = await call(stack.intakeUrl, tms, 'POST', '/screenings', { body: { dot_number: '1000001', refresh: true, callback_url } });
    expect([one.status, one.json.error?.code, one.json.error?.param]).toEqual([403, 'forbidden', 'refresh']);
    const batch = await call(stack.intakeUrl, tms, 'POST', '/screenings/batch', {
      body: { screenings: [{ dot_number: '1000001', refresh: true, callback_url }] },
    });
    expect(batch.json.data[0]).toMatchObject({ status: 403, error: { code: 'forbidden', param: 'screenings[0].refresh' } });
    // A bad carrier id is refused before it too; the policy still refuses the URL when nothing else does.
    const badId = await call(stack.intakeUrl, tms, 'POST', '/screenings', { body: { dot_number: 'x', callback_url } });
    expect([badId.status, badId.json.error?.param]).toEqual([400, 'dot_number']);
    const url = await call(stack.intakeUrl, tms, 'POST', '/screenings', { body: { dot_number: '1000001', callback_url } });
    expect([url.status, url.json.error?.param]).toEqual([400, 'callback_url']);
    expect(url.json.error.message).toMatch(/its host is a link-local, metadata, unspecified or multicast address/);
    expect(await screeningCount()).toBe(before);
  });
});

describe('limits per token', () => {
  let small: RunningIntake;
  beforeAll(async () => {
    small = await startIntake({
      screener: stack.screener,
      token: stack.token,
      host: '127.0.0.1',
      port: 0,
      limits: { ratePerMinute: 5, ssePerToken: 2, maxConnections: 4 },
    });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('answers 429 rate_limited with Retry-After once a token spends its minute; another token is not affected', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await call(small.url, tms2, 'GET', '/status'));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const limited = answers[5]!;
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(small.url, desk, 'GET', '/status')).status).toBe(200);
    // The health probe is never limited.
    expect((await call(small.url, tms2, 'GET', '/healthz')).status).toBe(200);
  });

  it('caps open /events streams per token: 429 too_many_streams', async () => {
    const open = [];
    const controllers: AbortController[] = [];
    for (let i = 0; i < 2; i++) {
      const c = new AbortController();
      controllers.push(c);
      const res = await request(`${small.url}/events`, { headers: { authorization: `Bearer ${stack.token}` }, signal: c.signal });
      expect(res.statusCode).toBe(200);
      open.push(res);
    }
    const third = await call(small.url, stack.token, 'GET', '/events');
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('too_many_streams');
    for (const c of controllers) c.abort();
    for (const r of open) await r.body.text().catch(() => {});
  });

  it('drops connections beyond INTAKE_MAX_CONNECTIONS', async () => {
    const sockets = [];
    for (let i = 0; i < 4; i++) {
      const s = connect(Number(new URL(small.url).port), '127.0.0.1');
      await new Promise((r) => s.once('connect', r));
      sockets.push(s);
    }
    const extra = connect(Number(new URL(small.url).port), '127.0.0.1');
    extra.on('error', () => {});
    let answered = '';
    extra.setEncoding('utf8').on('data', (d: string) => (answered += d));
    extra.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => extra.once('close', r));
    expect(answered).toBe('');
    for (const s of sockets) s.destroy();
  });
});
