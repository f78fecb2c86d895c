/**
 * A carrier held for review while its tenders keep coming (a popular carrier over a long
 * weekend): each hold that joins the open review costs the same, whatever waits on it. The
 * review.updated event refers to the review instead of copying every waiting tender, and is
 * read whole when someone reads the event.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { selectRows } from '../helpers/test-db.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function screen(tender: string): Promise<{ action: string }> {
  const res = await request(`${stack.intakeUrl}/screenings?wait=10`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dot_number: '1000004', tender_id: tender }),
  });
  return (await res.body.json()) as { action: string };
}

describe('tenders joining an open review', () => {
  it('store a constant-size review.updated event each, and the event reads back whole', async () => {
    for (let i = 0; i < 60; i++) expect((await screen(`WEEKEND-${i}`)).action).toBe('hold');
    const sizes = (
      await selectRows<{ n: number }>(stack.screenDb, "SELECT length(data) AS n FROM events WHERE event = 'review.updated' ORDER BY id")
    ).map((r) => r.n);
    expect(sizes).toHaveLength(59);
    // The first and the last join cost the same bytes (a reference), not 59 tenders' worth.
    expect(new Set(sizes).size).toBe(1);
    expect(sizes[0]).toBeLessThan(100);
    const last = (await stack.screener.events.since(0)).filter((e) => e.event === 'review.updated').at(-1)!;
    const review = last.data as Review;
    expect(review).toMatchObject({ object: 'review', state: 'pending' });
    expect(review.tenders).toHaveLength(60);
  });
});
