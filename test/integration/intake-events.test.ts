import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review, Screening } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;

interface SseEvent {
  id: number;
  event: string;
  data: any;
}

/** A real SSE client over undici: parses frames as they arrive. */
async function connect(o: { lastEventId?: number; query?: string } = {}) {
  const ac = new AbortController();
  const res = await request(`${stack.intakeUrl}/events${o.query ?? ''}`, {
    headers: {
      authorization: `Bearer ${stack.token}`,
      accept: 'text/event-stream',
      ...(o.lastEventId === undefined ? {} : { 'last-event-id': String(o.lastEventId) }),
    },
    signal: ac.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters: Array<() => void> = [];
  let buf = '';
  const pump = (async () => {
    try {
      for await (const chunk of res.body) {
        buf += chunk.toString('utf8');
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const i = line.indexOf(':');
              if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1).trimStart();
            }
          }
          if (fields.id !== undefined && fields.event !== undefined)
            events.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data ?? 'null') });
        }
        for (const w of waiters.splice(0)) w();
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: res.statusCode,
    headers: res.headers,
    events,
    comments,
    /** Resolves once an event matches (fails the test on a long wait through vitest's timeout). */
    async until(pred: (e: SseEvent) => boolean): Promise<SseEvent> {
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    async untilComment(text: string): Promise<void> {
      while (!comments.includes(text)) await new Promise<void>((r) => waiters.push(r));
    },
    async close() {
      ac.abort();
      await pump;
    },
  };
}

async function post(path: string, body: unknown): Promise<any> {
  const res = await request(stack.intakeUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.body.json();
}

/** End the standing decision a resolved review left, so the next hold opens a review again. */
async function revokeStanding(): Promise<void> {
  const res = await request(`${stack.intakeUrl}/decisions?state=standing`, { headers: { authorization: `Bearer ${stack.token}` } });
  for (const d of ((await res.body.json()) as { data: Array<{ id: string }> }).data)
    await post(`/decisions/${d.id}/revoke`, { by: 'test', note: 'start over' });
}

beforeAll(async () => {
  stack = await startStack({ heartbeatMs: 200 });
});
afterAll(async () => {
  await stack?.close();
});

describe('GET /events (Server-Sent Events)', () => {
  it('streams review.created and review.resolved; a reconnect with Last-Event-ID replays what was missed', async () => {
    const sse = await connect();
    expect(sse.status).toBe(200);
    expect(String(sse.headers['content-type'])).toMatch(/^text\/event-stream/);

    const held = (await post('/screenings?wait=10', { dot_number: '1000003', tender_id: 'T-sse-1' })) as Screening;
    expect(held.action).toBe('hold');
    const created = await sse.until((e) => e.event === 'review.created' && e.data.screening_id === held.id);
    const reviewId = created.data.id as string;
    expect(reviewId).toBe(held.review?.id);

    const approved = (await post(`/reviews/${reviewId}/approve`, { by: 'dispatcher ann', note: 'checked by phone' })) as Review;
    expect(approved.state).toBe('approved');
    const resolved = await sse.until((e) => e.event === 'review.resolved' && e.data.id === reviewId);
    expect(resolved.data.decided_by).toBe('dispatcher ann');
    // Ids only grow.
    const ids = sse.events.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const lastSeen = sse.events.at(-1)!.id;
    await sse.close();

    // While disconnected: the carrier's standing approval revoked, so it is held again, and rejected.
    await revokeStanding();
    const held2 = (await post('/screenings?wait=10', { mc_number: 'MC 1000003', tender_id: 'T-sse-2' })) as Screening;
    expect(held2.action).toBe('hold');
    await post(`/reviews/${held2.review!.id}/reject`, { by: 'dispatcher bob' });

    const again = await connect({ lastEventId: lastSeen });
    const created2 = await again.until((e) => e.event === 'review.created' && e.data.screening_id === held2.id);
    const resolved2 = await again.until((e) => e.event === 'review.resolved' && e.data.id === held2.review!.id);
    expect(resolved2.data.state).toBe('rejected');
    expect(created2.id).toBeGreaterThan(lastSeen);
    // Nothing from before the reconnect point is sent twice.
    expect(again.events.every((e) => e.id > lastSeen)).toBe(true);
    const againIds = again.events.map((e) => e.id);
    expect(new Set(againIds).size).toBe(againIds.length);
    await again.close();

    // The query-string form works the same way.
    const viaQuery = await connect({ query: `?last_event_id=${lastSeen}` });
    await viaQuery.until((e) => e.id === resolved2.id);
    await viaQuery.close();
  });

  it('sends heartbeat comments', async () => {
    const sse = await connect();
    await sse.untilComment('heartbeat');
    await sse.close();
  });

  it('resolving a review twice is 409 review_conflict', async () => {
    await revokeStanding(); // the carrier's earlier decision would settle it at once (docs/decisions.md)
    const held = (await post('/screenings?wait=10', { dot_number: '1000003', refresh: true })) as Screening;
    expect(held.review?.state).toBe('pending');
    const first = await post(`/reviews/${held.review!.id}/reject`, { by: 'ann' });
    expect(first.state).toBe('rejected');
    expect(first.screening.action).toBe('block');
    const res = await request(`${stack.intakeUrl}/reviews/${held.review!.id}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'bob' }),
    });
    expect(res.statusCode).toBe(409);
    expect(((await res.body.json()) as any).error.code).toBe('review_conflict');
  });

  it('GET /reviews filters by state', async () => {
    const res = await request(`${stack.intakeUrl}/reviews?state=approved`, { headers: { authorization: `Bearer ${stack.token}` } });
    const body = (await res.body.json()) as { object: string; data: Review[] };
    expect(body.object).toBe('list');
    expect(body.data.length).toBeGreaterThan(0);
    for (const r of body.data) expect(r.state).toBe('approved');
  });
});

describe('shutdown with a client connected', () => {
  it('close() ends open event streams instead of waiting for them', async () => {
    const own = await startStack();
    const res = await request(`${own.intakeUrl}/events`, { headers: { authorization: `Bearer ${own.token}` } });
    expect(res.statusCode).toBe(200);
    const ended = (async () => {
      for await (const _ of res.body) {
        // drain until the server ends the stream
      }
      return 'ended';
    })();
    await own.close();
    expect(await ended).toBe('ended');
  });
});
