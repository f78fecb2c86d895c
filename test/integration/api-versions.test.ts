import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '../../shared/api-versions.js';
import type { Screening } from '../../shared/screening.js';
import { MIGRATIONS, migrate } from '../../worker/store/migrations.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { itSqlite } from '../helpers/test-db.js';

/**
 * Dated API versions pinned per token (docs/api.md "Versioning"), against the real stack: a token
 * records the newest version when it is made, and its requests without Carrier-Screen-Version
 * are answered in it; tokens made before are pinned to the version they have had all along; a
 * callback carries the version its body was written in, in a header and in the body.
 */

let stack: Stack;
let tokens: IntakeTokens;
const received: Array<{ headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> }> = [];
let server: import('node:http').Server;
let callbackUrl: string;

beforeAll(async () => {
  stack = await startStack({ mode: 'sandbox' });
  tokens = new IntakeTokens(stack.screener.store);
  const { createServer } = await import('node:http');
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  callbackUrl = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/cb`;
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await new Promise((r) => server?.close(r));
});

async function get(path: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(stack.intakeUrl + path, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return {
    status: res.status,
    version: res.headers.get('carrier-screen-version'),
    json: (await res.json()) as { error?: { param?: string } },
  };
}

describe('API versions', () => {
  itSqlite('a token is pinned to the newest version when made, and its requests are answered in its pin', async () => {
    const { token, record } = await tokens.create('tms', 'TMS');
    expect(record.api_version).toBe(LATEST_API_VERSION);
    expect((await tokens.list()).find((t) => t.id === record.id)!.api_version).toBe(LATEST_API_VERSION);
    expect((await get('/status', token)).version).toBe(LATEST_API_VERSION);
    // The pin is read from the token's row: with one version served today, a stand-in date for an
    // older one shows that an unpinned request gets the row's, not the newest.
    connectionOf(sqliteStoreOf(stack.screener.store))
      .prepare('UPDATE intake_tokens SET api_version = ? WHERE id = ?')
      .run('2026-01-01', record.id);
    expect((await get('/status', token)).version).toBe('2026-01-01');
    // A request's own header wins; an unknown one is refused, naming the header.
    expect((await get('/status', token, { 'carrier-screen-version': LATEST_API_VERSION })).version).toBe(LATEST_API_VERSION);
    const unknown = await get('/status', token, { 'carrier-screen-version': '1999-01-01' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error?.param).toBe('Carrier-Screen-Version');
    // INTAKE_TOKEN has no pin: the newest.
    expect((await get('/status', stack.token)).version).toBe(LATEST_API_VERSION);
  });

  it('tokens made before pinning existed are pinned to the version they have been answered in', () => {
    const db = tempDbPath();
    try {
      const raw = new Database(db.path);
      migrate(
        raw,
        db.path,
        MIGRATIONS.filter((m) => m.version <= 23),
      );
      raw
        .prepare(
          "INSERT INTO intake_tokens (id, name, role, hash, prefix, created_at) VALUES ('tok_old', 'old', 'tms', 'h', 'cs_tms_x', '2026-01-01T00:00:00Z')",
        )
        .run();
      migrate(raw, db.path);
      expect(raw.prepare("SELECT api_version FROM intake_tokens WHERE id = 'tok_old'").get()).toEqual({ api_version: '2026-11-25' });
      raw.close();
    } finally {
      db.cleanup();
    }
  });

  it('a callback carries the version its body was written in, as a header and in the body', async () => {
    const s = (await (
      await fetch(`${stack.intakeUrl}/screenings?wait=10`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ dot_number: '1000001', tender_id: 'V-1', callback_url: callbackUrl }),
      })
    ).json()) as Screening;
    for (let i = 0; i < 100 && !received.some((r) => (r.body.screening as { id?: string } | undefined)?.id === s.id); i++)
      await new Promise((r) => setTimeout(r, 50));
    const cb = received.find((r) => (r.body.screening as { id?: string } | undefined)?.id === s.id)!;
    expect(cb.headers['carrier-screen-version']).toBe(LATEST_API_VERSION);
    expect(cb.body.api_version).toBe(LATEST_API_VERSION);
  });
});
