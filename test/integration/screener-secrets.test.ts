import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startEmulator } from '../../emulator/index.js';
import { createScreener } from '../../worker/screener.js';
import { KeyCheckError } from '../../worker/svc/index.js';
import { testConfig } from '../helpers/screener.js';

const KEY = 'svc_test_ZZdistinctiveSecretKey42ZZ';
const LIVE_KEY = 'svc_live_ZZdistinctiveLiveKey42ZZ';

describe('the API key stays in the worker', () => {
  it('is absent from logs (at trace level) and from every SQLite file after a full run', async () => {
    const emulator = await startEmulator({
      port: 0,
      accounts: [{ id: 'acct_secret', name: 'Secret Co', keys: [KEY] }],
    });
    const config = await testConfig();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const screener = await createScreener(config, {
      svc: { baseUrl: emulator.baseUrl, apiKey: KEY },
      logger: pino({ level: 'trace' }, sink),
      svcBackoff: { baseMs: 5, capMs: 20, jitterMs: 1 },
    });
    try {
      for (const dot of ['1000001', '1000002', '1000003', '1000004', '1000005', '1000006', '4242', '1000503'])
        await screener.screen({ dot_number: dot, callback_url: null }, { waitMs: 20_000 });
      const status = await screener.status();
      expect(JSON.stringify(status)).not.toContain(KEY);
      expect(JSON.stringify(await screener.events.since(0))).not.toContain(KEY);
    } finally {
      await screener.close();
      await emulator.close();
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(KEY);
    const dir = config.dataDir;
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes(KEY), f).toBe(false);
    await config.cleanup();
  });

  it('a live key against the sandbox refuses to start, saying why, without the key', async () => {
    const emulator = await startEmulator({ port: 0, accounts: [{ id: 'acct_l', name: 'L', keys: [LIVE_KEY] }] });
    const config = await testConfig();
    try {
      const err = await createScreener(config, {
        svc: { baseUrl: emulator.baseUrl, apiKey: LIVE_KEY },
        logger: pino({ level: 'silent' }),
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(KeyCheckError);
      expect((err as Error).message).toMatch(/live|sandbox|environment/i);
      expect((err as Error).message).not.toContain(LIVE_KEY);
      expect(String((err as Error).stack)).not.toContain(LIVE_KEY);
    } finally {
      await emulator.close();
      await config.cleanup();
    }
  });
});
