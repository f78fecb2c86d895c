/**
 * The metric families as a scraper parses them: no two families of one name (a counter X_total
 * is family X in OpenMetrics, so a gauge X beside it makes the scrape fail), and the ages
 * (oldest owed callback, pause, oldest queued screening) computed from when each began.
 */
import { describe, expect, it } from 'vitest';
import { metricsText, registry } from '../../worker/metrics/metrics.js';

const families = async (): Promise<Array<{ name: string; type: string }>> =>
  [...(await registry.metrics()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! }));

describe('metric families', () => {
  it('no counter X_total sits beside another family named X', async () => {
    const all = await families();
    const names = new Set(all.map((f) => f.name));
    const clashes = all.filter((f) => f.type === 'counter' && f.name.endsWith('_total') && names.has(f.name.slice(0, -'_total'.length)));
    expect(clashes.map((f) => f.name)).toEqual([]);
    // The attempts counter and the outbox gauge both still exist, under their own names.
    expect(all).toEqual(
      expect.arrayContaining([
        { name: 'carrier_screen_callback_attempts_total', type: 'counter' },
        { name: 'carrier_screen_callbacks', type: 'gauge' },
      ]),
    );
  });

  it('the ages are seconds since each began, 0 when there is none, NaN when SQLite cannot be read', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const unreadable = (): Promise<never> => Promise.reject(new Error('redis down'));
    let text = await metricsText(unreadable, {
      now: () => now,
      ages: async () => ({
        oldest_pending_callback_at: '2026-03-01T11:50:00Z',
        queue_paused_since: '2026-03-01T11:00:00Z',
        oldest_queued_at: null,
      }),
    });
    expect(text).toMatch(/^carrier_screen_callbacks_oldest_pending_seconds 600$/m);
    expect(text).toMatch(/^carrier_screen_queue_paused_seconds 3600$/m);
    expect(text).toMatch(/^carrier_screen_queue_oldest_queued_seconds 0$/m);
    text = await metricsText(unreadable, {
      now: () => now,
      ages: () => Promise.reject(new Error('SQLITE_IOERR')),
    });
    expect(text).toMatch(/^carrier_screen_queue_oldest_queued_seconds Nan$/m); // prom-client's spelling of NaN
  });
});
