/**
 * Pending reviews carried over from the oldest release (issue 28): a file written as 56ce397
 * wrote it (schema 2: one review per held screening, no carrier on a review), upgraded by the
 * running service. Every review names its carrier afterwards, a carrier's carried-over reviews
 * are one open review, the next hold of that carrier joins it, and the audit export still lists
 * every screening. Real SQLite file, Redis, emulator, HTTP.
 */
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CARRIERS, scoreBody } from '../../emulator/index.js';
import type { Review, Screening } from '../../shared/screening.js';
import { MIGRATIONS, migrate, newReviewId, newScreeningId } from '../../worker/store/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { tempDbPath } from '../helpers/temp-db.js';

/** The schema of the oldest release we upgrade from (56ce397): migrations 1 and 2. */
const OLDEST = 2;
const at = (minute: number) => new Date(Date.UTC(2026, 2, 2, 10, minute)).toISOString();
const sandboxScore = (dot: string) =>
  scoreBody(
    SANDBOX_CARRIERS.find((c) => c.carrier.dot_number === dot)!,
    'sandbox',
    new Date(at(0)),
  );

/** A held screening and its pending review, as the oldest release wrote them. */
function oldHold(
  raw: Database.Database,
  o: { kind: 'dot_number' | 'mc_number'; value: string; minute: number; dot?: string; holdReason?: string; state?: 'pending' | 'approved' },
): { screening: string; review: string } {
  const screening = newScreeningId();
  const review = newReviewId();
  const score = o.dot ? JSON.stringify(sandboxScore(o.dot)) : null;
  const error = o.dot ? null : JSON.stringify({ code: 'service_error', message: '/v1 answered 500', request_id: null });
  raw
    .prepare(
      `INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, refresh, callback_url, action, hold_reason, source, score, score_fetched_at, model_version, error, created_at, completed_at)
       VALUES (?, ?, 'done', ?, ?, 'tender', 0, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      screening,
      `OLD-${o.minute}`,
      o.kind,
      o.value,
      o.state === 'approved' ? 'tender' : 'hold',
      o.holdReason ?? 'manual_review',
      o.dot ? 'service' : 'none',
      score,
      o.dot ? at(o.minute) : null,
      o.dot ? sandboxScore(o.dot).model_version : null,
      error,
      at(o.minute),
      at(o.minute),
    );
  raw
    .prepare('INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(
      review,
      screening,
      o.state ?? 'pending',
      o.holdReason ?? 'manual_review',
      o.state === 'approved' ? 'Dana' : null,
      o.state === 'approved' ? at(o.minute + 1) : null,
      at(o.minute),
    );
  if (o.dot) {
    const s = sandboxScore(o.dot);
    raw
      .prepare("INSERT OR REPLACE INTO score_cache (env, dot_number, body, model_version, fetched_at) VALUES ('sandbox', ?, ?, ?, ?)")
      .run(o.dot, JSON.stringify(s), s.model_version, at(o.minute));
    if (s.carrier.mc_number)
      raw.prepare("INSERT OR REPLACE INTO mc_alias (env, mc_number, dot_number) VALUES ('sandbox', ?, ?)").run(s.carrier.mc_number, o.dot);
  }
  return { screening, review };
}

describe('pending reviews of the oldest release, upgraded by the service', () => {
  const file = tempDbPath();
  let stack: Stack;
  let held: Record<'a' | 'b' | 'c' | 'd' | 'decided', { screening: string; review: string }>;

  beforeAll(async () => {
    const raw = new Database(file.path);
    migrate(
      raw,
      file.path,
      MIGRATIONS.filter((m) => m.version <= OLDEST),
    );
    held = {
      // 1000003 held twice (that release opened a review per held screening), once asked by MC.
      a: oldHold(raw, { kind: 'dot_number', value: '1000003', minute: 0, dot: '1000003' }),
      b: oldHold(raw, { kind: 'mc_number', value: 'MC1000003', minute: 5, dot: '1000003' }),
      // Another carrier, held once.
      c: oldHold(raw, { kind: 'dot_number', value: '1000006', minute: 10, dot: '1000006' }),
      // Held without a score, asked by an MC number /v1 never named: its carrier is that number.
      d: oldHold(raw, { kind: 'mc_number', value: 'MC7777777', minute: 15, holdReason: 'service_error' }),
      // Decided then: it keeps its decision, and names its carrier too.
      decided: oldHold(raw, { kind: 'dot_number', value: '1000003', minute: 20, dot: '1000003', state: 'approved' }),
    };
    raw.close();
    stack = await startStack({ dbPath: file.path });
  });
  afterAll(async () => {
    await stack?.close();
    file.cleanup();
  });

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
    const res = await request(stack.intakeUrl + path, {
      method,
      headers: { authorization: `Bearer ${stack.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, text, json: text.startsWith('{') ? JSON.parse(text) : null };
  }
  const pending = async (): Promise<Review[]> => (await call('GET', '/reviews?state=pending')).json.data as Review[];
  const carriers = (): Array<{ id: string; carrier_key: string | null; parent_id: string | null; state: string }> => {
    const raw = new Database(file.path, { readonly: true });
    try {
      return raw.prepare('SELECT id, carrier_key, parent_id, state FROM reviews ORDER BY created_at, rowid').all() as never;
    } finally {
      raw.close();
    }
  };

  it('every carried-over review names its carrier, and a carrier has one open review', async () => {
    const byId = Object.fromEntries(carriers().map((r) => [r.id, r]));
    expect(byId[held.a.review]).toMatchObject({ carrier_key: 'sandbox:dot:1000003', state: 'pending' });
    expect(byId[held.b.review]).toMatchObject({ carrier_key: 'sandbox:dot:1000003', state: 'pending' });
    expect(byId[held.c.review]).toMatchObject({ carrier_key: 'sandbox:dot:1000006', parent_id: null, state: 'pending' });
    expect(byId[held.d.review]).toMatchObject({ carrier_key: 'sandbox:mc:MC7777777', parent_id: null, state: 'pending' });
    expect(byId[held.decided.review]).toMatchObject({ carrier_key: 'sandbox:dot:1000003', parent_id: null, state: 'approved' });
    // 1000003's older review waits on the newer; both tenders are on the one card.
    expect(byId[held.a.review]!.parent_id).toBe(held.b.review);
    expect(byId[held.b.review]!.parent_id).toBeNull();

    const cards = await pending();
    expect(cards.map((r) => r.id)).toEqual([held.b.review, held.c.review, held.d.review]);
    expect(cards[0]!.tenders.map((t) => t.screening_id)).toEqual([held.a.screening, held.b.screening]);
    // The older one's own item points at the carrier's review.
    expect((await call('GET', `/reviews/${held.a.review}`)).json).toMatchObject({
      id: held.a.review,
      waits_on: held.b.review,
      state: 'pending',
    });
  });

  it('the next hold of the carrier joins its review, and deciding it settles every tender', async () => {
    const r = await call('POST', '/screenings?wait=20', { dot_number: '1000003', tender_id: 'NEW-1' });
    expect(r.status).toBe(200);
    const s = r.json as Screening;
    expect(s.action).toBe('hold');
    const cards = await pending();
    expect(cards.map((c) => c.id)).toEqual([held.b.review, held.c.review, held.d.review]);
    expect(cards[0]!.tenders.map((t) => t.screening_id)).toEqual([held.a.screening, held.b.screening, s.id]);
    expect((await call('GET', `/reviews/${s.review!.id}`)).json).toMatchObject({ waits_on: held.b.review });

    // Decided on the version the card shows now (the new hold's score is newer facts).
    const approved = await call('POST', `/reviews/${held.b.review}/approve`, { by: 'Dana Dispatcher', review_version: cards[0]!.version });
    expect(approved.status).toBe(200);
    for (const id of [held.a.screening, held.b.screening, s.id]) {
      const got = (await call('GET', `/screenings/${id}`)).json as Screening;
      expect([got.action, got.settled_by]).toEqual(['tender', 'review']);
    }
    expect((await pending()).map((c) => c.id)).toEqual([held.c.review, held.d.review]);
  });

  it('the audit export still lists every screening, each with the review that decided it', async () => {
    const res = await call('GET', `/audit.csv?from=2026-01-01T00:00:00Z&to=${new Date(Date.now() + 86_400_000).toISOString()}`);
    expect(res.status).toBe(200);
    const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
    const raw = new Database(file.path, { readonly: true });
    const all = (raw.prepare('SELECT id FROM screenings ORDER BY created_at, rowid').all() as Array<{ id: string }>).map((x) => x.id);
    raw.close();
    expect(rows.map((x) => x.screening_id)).toEqual(all);
    const row = (id: string) => rows.find((x) => x.screening_id === id)!;
    for (const h of [held.a, held.b])
      expect(row(h.screening)).toMatchObject({
        review_id: held.b.review,
        review_state: 'approved',
        decided_by: 'Dana Dispatcher',
        dot_number: '1000003',
      });
    expect(row(held.decided.screening)).toMatchObject({ review_id: held.decided.review, review_state: 'approved', decided_by: 'Dana' });
    expect(row(held.d.screening)).toMatchObject({ review_id: held.d.review, review_state: 'pending', mc_number: 'MC7777777' });
  });
});
