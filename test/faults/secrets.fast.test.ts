/**
 * Fault suite, scenario 6 — secrets. A full run of a real `carrier-screen start` process at
 * LOG_LEVEL=trace with a distinctive /v1 key (an emulator account of its own) and a generated
 * intake token, then a search of everything the run left or said: stdout and stderr, every
 * file in the data dir, every row of the record (a SQLite file or a PostgreSQL database), the Redis keys, every intake answer (what the tray bridge gets),
 * /status, /events, error bodies, and the callbacks. The API key appears nowhere; the token
 * and the callback secret only in their own files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ensureBuilt, spawnCli } from '../helpers/processes.js';
import { startCallbackReceiver, type CallbackReceiver } from './support/callback-receiver.js';
import type { Answer, IntakeClient } from './support/intake-client.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { recordText } from './support/record-inspect.js';
import { installation, type Installation } from './support/worker-stack.js';

const KEY = 'svc_live_QXfaultSuiteKey8d1e0c55a7';
const WRONG_KEY = 'svc_live_QXfaultSuiteWrongKey3b9f2e';

let emu: RecordingEmulator;
let inst: Installation;
let client: IntakeClient;
let receiver: CallbackReceiver;
/** Every answer the intake gave, as text (status line, headers, body). */
const seen: string[] = [];

async function call(method: string, path: string, o: Parameters<IntakeClient['call']>[2] = {}): Promise<Answer> {
  const a = await client.call(method, path, o);
  seen.push(`${method} ${path} → ${a.status}\n${JSON.stringify(a.headers)}\n${a.text}`);
  return a;
}

/** Every value stored under a Redis key prefix, as text. */
async function redisContents(url: string, prefix: string): Promise<string> {
  const r = new Redis(url, { lazyConnect: true });
  await r.connect();
  try {
    const out: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const k of keys) {
        const type = await r.type(k);
        const v =
          type === 'string'
            ? await r.get(k)
            : type === 'hash'
              ? await r.hgetall(k)
              : type === 'list'
                ? await r.lrange(k, 0, -1)
                : type === 'set'
                  ? await r.smembers(k)
                  : type === 'zset'
                    ? await r.zrange(k, '0', '-1', 'WITHSCORES')
                    : type === 'stream'
                      ? await r.xrange(k, '-', '+')
                      : null;
        out.push(`${k} ${type} ${JSON.stringify(v)}`);
      }
    } while (cursor !== '0');
    return out.join('\n');
  } finally {
    r.disconnect();
  }
}

/** An SSE stream read for a while, as the tray would read it. */
async function readEvents(url: string, token: string, ms: number): Promise<string> {
  const ctl = new AbortController();
  const t = setTimeout(() => ctl.abort(), ms);
  let text = '';
  try {
    const res = await fetch(`${url}/events?last_event_id=0`, { headers: { authorization: `Bearer ${token}` }, signal: ctl.signal });
    const reader = res.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
  } catch {
    /* aborted: what arrived is in text */
  } finally {
    clearTimeout(t);
  }
  return text;
}

beforeAll(async () => {
  await ensureBuilt();
  emu = await startRecordingEmulator({
    mode: 'live',
    key: KEY,
    ratePerMinute: 100_000,
    monthlyQuota: 100_000,
    accounts: [{ id: 'acct_fault_secret', name: 'Fault Suite Freight', keys: [KEY] }],
  });
  // No INTAKE_TOKEN, no CALLBACK_SECRET: both are generated into the data dir, as in production.
  inst = await installation({
    svcBaseUrl: emu.baseUrl,
    svcKey: KEY,
    redisUrl: inject('redisUrl'),
    env: { LOG_LEVEL: 'trace', INTAKE_TOKEN: undefined, CALLBACK_SECRET: undefined },
  });
  ({ client } = await inst.start());
  receiver = await startCallbackReceiver(readFileSync(join(inst.dataDir, 'callback-secret'), 'utf8').trim());
}, 240_000); // room for a build of a stale dist/, or for waiting on another file's build

afterAll(async () => {
  await inst?.close();
  await receiver?.close();
  await emu?.close();
});

describe('a full run leaves the API key nowhere and the token only where it is configured', () => {
  it('after screenings, reviews, errors, status, events and callbacks', async () => {
    const token = inst.token;
    const callbackSecret = readFileSync(join(inst.dataDir, 'callback-secret'), 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect(statSync(join(inst.dataDir, 'intake-token')).mode & 0o077).toBe(0);

    // Screenings of every kind: approved, held, blocked, not found, by MC, refreshed, waited for.
    const dots = [
      '1000001',
      '1000002',
      '1000003',
      '1000004',
      '1000005',
      '1000006',
      '2345678',
      '3456789',
      '4567890',
      '5678901',
      '6789012',
      '7890123',
    ];
    const ids: string[] = [];
    for (const dot of dots) {
      const a = await call('POST', '/screenings?wait=10', { body: { dot_number: dot, tender_id: `T-${dot}`, callback_url: receiver.url } });
      expect([200, 202]).toContain(a.status);
      ids.push(a.json.id);
    }
    ids.push((await call('POST', '/screenings?wait=10', { body: { mc_number: 'MC-123456', callback_url: receiver.url } })).json.id);
    ids.push((await call('POST', '/screenings?wait=10', { body: { dot_number: dots[0], refresh: true } })).json.id);
    for (const id of ids) expect((await call('GET', `/screenings/${id}`)).status).toBe(200);

    // Reviews: approve one, reject one, try one twice.
    const pending = (await call('GET', '/reviews?state=pending')).json.data as Array<{ id: string }>;
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect((await call('POST', `/reviews/${pending[0]!.id}/approve`, { body: { by: 'dispatcher', note: 'known carrier' } })).status).toBe(
      200,
    );
    expect((await call('POST', `/reviews/${pending[1]!.id}/reject`, { body: { by: 'dispatcher' } })).status).toBe(200);
    expect((await call('POST', `/reviews/${pending[0]!.id}/approve`, { body: { by: 'someone else' } })).status).toBe(409);

    // Everything the tray reads, and the errors a TMS can provoke.
    for (const path of ['/status', '/usage/daily', '/screenings?limit=100', '/reviews', '/openapi.json'])
      expect((await call('GET', path)).status).toBe(200);
    expect((await call('GET', '/healthz', { authorization: null })).status).toBe(200);
    expect((await call('POST', '/queue/pause')).status).toBe(200);
    expect((await call('POST', '/queue/resume')).status).toBe(200);
    expect((await call('POST', '/screenings', { body: { dot_number: 'abc' } })).status).toBe(400);
    expect((await call('POST', '/screenings', { body: { dot_number: '1', mc_number: 'MC1' } })).status).toBe(400);
    expect((await call('GET', '/screenings/scr_aaaaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(404);
    expect((await call('GET', '/status', { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    expect((await call('GET', '/status', { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await call('POST', '/screenings', { raw: '{"dot_number":', contentType: 'application/json' })).status).toBe(400);
    const events = await readEvents(inst.proc!.url, token, 1_500);
    expect(events).toContain('screening.completed');

    // Callbacks for every screening with a callback_url.
    const withCallback = dots.length + 1;
    const deadline = Date.now() + 30_000;
    while (new Set(receiver.deliveries.map((d) => d.id)).size < withCallback && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(new Set(receiver.deliveries.map((d) => d.id)).size).toBeGreaterThanOrEqual(withCallback);
    expect(receiver.deliveries.every((d) => d.signatureOk)).toBe(true);

    // The run did use the key: /v1 saw lookups, and the logs are at trace level.
    expect(emu.requests.length).toBeGreaterThanOrEqual(dots.length);
    await inst.proc!.stop();
    const logs = inst.logs();
    expect(logs).toMatch(/"level":20/); // debug lines: the level is really low
    expect(logs).toContain('/v1 lookup');

    const places: Array<[string, string]> = [
      ['stdout and stderr', logs],
      ['intake answers (the tray bridge)', seen.join('\n\n')],
      ['/events', events],
      ['callbacks', receiver.deliveries.map((d) => JSON.stringify(d.headers) + d.body).join('\n')],
      ['Redis', await redisContents(inject('redisUrl'), inst.prefix)],
      ['the record', await recordText(inst.reader)],
    ];
    // On SQLite the data dir holds the database too: its bytes (free pages, WAL) are searched as well.
    const files = readdirSync(inst.dataDir);
    expect(files).toEqual(
      expect.arrayContaining(['intake-token', 'callback-secret', ...(inst.kind === 'sqlite' ? ['carrier-screen.db'] : [])]),
    );
    for (const f of files) places.push([`file ${f}`, readFileSync(join(inst.dataDir, f)).toString('latin1')]);

    for (const [where, content] of places) {
      expect(content.includes(KEY), `API key in ${where}`).toBe(false);
      // Not even the part after the prefix (a log that strips "svc_live_" would still leak it).
      expect(content.includes(KEY.slice('svc_live_'.length)), `API key body in ${where}`).toBe(false);
      if (where !== 'file intake-token') expect(content.includes(token), `intake token in ${where}`).toBe(false);
      if (where !== 'file callback-secret') expect(content.includes(callbackSecret), `callback secret in ${where}`).toBe(false);
    }
    expect(readFileSync(join(inst.dataDir, 'intake-token'), 'utf8')).toContain(token);
  });

  it('a key the service rejects: the worker refuses to start, says why, and never repeats the key', async () => {
    const p = spawnCli(['start'], {
      env: {
        SVC_API_KEY: WRONG_KEY,
        SVC_BASE_URL: emu.baseUrl,
        REDIS_URL: inject('redisUrl'),
        SCREEN_DB: inst.screenDb,
        SCREEN_DATA_DIR: inst.dataDir,
        SCREEN_REDIS_PREFIX: `${inst.prefix}-wrong`,
        INTAKE_TOKEN: 'tok-0123456789abcdef0123',
        INTAKE_PORT: '0',
        LOG_LEVEL: 'trace',
      },
    });
    const exit = await Promise.race([p.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 20_000))]);
    if (exit === 'running') await p.kill();
    expect(exit).not.toBe('running');
    expect((exit as { code: number }).code).not.toBe(0);
    const out = p.stdout() + p.stderr();
    expect(out).toMatch(/key/i);
    expect(out).not.toContain(WRONG_KEY);
    expect(out).not.toContain(WRONG_KEY.slice('svc_live_'.length));
    expect(out).not.toMatch(/\n\s+at .+\(.*\.js:\d+:\d+\)/); // a message, not a stack trace
  });
});
