/**
 * The composition root's steps (worker/screener.ts): buildScreener wires the graph and starts
 * nothing (a queued screening waits, untouched); start() starts the work (the same screening is
 * then looked up and finished); close() closes what the resources opened. Real emulator, Redis
 * and SQLite file.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, startEmulator } from '../../emulator/index.js';
import { buildScreener, openScreenerResources } from '../../worker/screener.js';
import { testConfig } from '../helpers/screener.js';

describe('buildScreener, then start()', () => {
  it('takes no job until started, then finishes what waited', async () => {
    const emulator = await startEmulator({ port: 0 });
    const config = await testConfig();
    const opts = { svc: { baseUrl: emulator.baseUrl, apiKey: DEMO_KEYS.sandbox }, logger: pino({ level: 'silent' }) };
    const resources = await openScreenerResources(config, opts);
    const screener = buildScreener(config, resources, opts);
    try {
      expect(screener.environment).toBe('sandbox');
      const queued = await screener.submit({ query: { dot_number: '1000001' }, refresh: true });
      expect(queued.status).toBe('queued');
      // Built, not started: no worker takes the job.
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await screener.get(queued.id))?.status).toBe('queued');
      expect(emulator.stats().scoreRequests).toBe(0);

      await screener.start();
      await expect(screener.start()).rejects.toThrow('started already');
      const done = await screener.waitFor(queued.id, 20_000);
      expect(done).toMatchObject({ status: 'done', source: 'service' });
      expect(emulator.stats().scoreRequests).toBe(1);
    } finally {
      await screener.close();
      await emulator.close();
      await config.cleanup();
    }
  });
});
