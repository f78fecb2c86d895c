import { request } from 'undici';

/**
 * A TMS listening to GET /events behind a load balancer: it follows one host's stream, and when
 * that stream ends (the host died) it connects to the next host with Last-Event-ID set to the
 * last id it saw, as an EventSource would. It keeps every id it was sent, in order, so a test can
 * tell whether any event fell between two hosts.
 */

export interface SseFollower {
  /** Every event received, in arrival order. */
  events: Array<{ id: number; event: string; host: number }>;
  /** How many times it had to connect again (to another host or the same one). */
  reconnects(): number;
  lastId(): number;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function followEvents(hostUrls: readonly string[], token: string, o: { startAt?: number; firstHost?: number } = {}): SseFollower {
  const events: SseFollower['events'] = [];
  let last = o.startAt ?? 0;
  let host = o.firstHost ?? 0;
  let connects = 0;
  let closed = false;
  let ac = new AbortController();

  async function followOnce(): Promise<void> {
    ac = new AbortController();
    connects++;
    const res = await request(`${hostUrls[host]}/events`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'last-event-id': String(last) },
      signal: ac.signal,
      headersTimeout: 5_000,
      bodyTimeout: 0,
    });
    if (res.statusCode !== 200) {
      await res.body.text().catch(() => '');
      throw new Error(`GET /events on host ${host}: ${res.statusCode}`);
    }
    let buf = '';
    for await (const chunk of res.body) {
      buf += (chunk as Buffer).toString('utf8');
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        let id: number | undefined;
        let event: string | undefined;
        for (const line of frame.split('\n')) {
          if (line.startsWith('id: ')) id = Number(line.slice(4));
          else if (line.startsWith('event: ')) event = line.slice(7);
        }
        if (id !== undefined && event !== undefined) {
          events.push({ id, event, host });
          last = id;
        }
      }
    }
  }

  const loop = (async () => {
    while (!closed) {
      try {
        await followOnce();
      } catch {
        /* the host went away, or refused: the next one */
      }
      if (closed) break;
      // The stream ended: the balancer's next host, after a short pause (EventSource's retry).
      host = (host + 1) % hostUrls.length;
      await sleep(300);
    }
  })();

  return {
    events,
    reconnects: () => connects - 1,
    lastId: () => last,
    async close() {
      closed = true;
      ac.abort();
      await loop;
    },
  };
}
