import type { ServerResponse } from 'node:http';
import type { IntakeEvent } from '../../shared/screening.js';
import type { EventFeed } from '../screener-types.js';

/**
 * One Server-Sent Events client. Subscribes before replaying so nothing falls between the
 * replay and the live feed; events are written once each, in id order.
 */

export const HEARTBEAT_MS = 15_000;
/** A client this far behind is cut off; it reconnects with Last-Event-ID and replays. */
const MAX_BUFFERED = 1024 * 1024;
const REPLAY_PAGE = 500;

export function formatEvent(e: IntakeEvent): string {
  // JSON.stringify never emits a raw newline, so one data: line is always enough.
  return `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

export interface EventStream {
  close(): void;
}

export function openEventStream(
  res: ServerResponse,
  feed: EventFeed,
  lastEventId: number | undefined,
  opts: { heartbeatMs?: number; onClose?: () => void } = {},
): EventStream {
  let sent = 0;
  let replaying = true;
  const pending: IntakeEvent[] = [];
  let closed = false;

  const write = (e: IntakeEvent): void => {
    if (closed || e.id <= sent) return;
    sent = e.id;
    res.write(formatEvent(e));
    if (res.writableLength > MAX_BUFFERED) close();
  };

  const unsubscribe = feed.subscribe((e) => (replaying ? pending.push(e) : write(e)));
  const heartbeat = setInterval(() => {
    if (!closed) res.write(': heartbeat\n\n');
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  function close(): void {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
    opts.onClose?.();
  }
  res.on('close', close);
  res.on('error', close);

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // retry: how long a browser waits before reconnecting; the comment flushes the headers.
  res.write('retry: 3000\n: connected\n\n');

  // The replay reads committed events (after any open unit of work); live ones wait in `pending`.
  void (async () => {
    try {
      // Read after subscribing: whatever comes later reaches the listener.
      const newest = await feed.lastId();
      // An id from the future (a reset database) would hide every new event: start from now.
      sent = lastEventId !== undefined && lastEventId <= newest ? lastEventId : newest;
      if (lastEventId !== undefined) {
        for (;;) {
          const page = await feed.since(sent, REPLAY_PAGE);
          for (const e of page) write(e);
          if (page.length < REPLAY_PAGE || closed) break;
        }
      }
    } catch {
      // The event log cannot be read (e.g. SQLite trouble): end the stream; the client retries.
      close();
    }
    replaying = false;
    for (const e of pending.splice(0)) write(e);
  })();
  return { close };
}
