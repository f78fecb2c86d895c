import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_HEADER, SIGNATURE_HEADER, verifyCallback } from '../../../worker/callbacks/index.js';

/**
 * A TMS callback endpoint that can be down (connections dropped), up (204), or hold the
 * requests a predicate picks without ever answering (to kill the sender mid-delivery).
 * Records every arrival and which ones it acknowledged with a 2xx.
 */

export interface Arrival {
  id: string;
  event: string;
  body: string;
  signatureOk: boolean;
  acknowledged: boolean;
}

export interface SwitchableReceiver {
  url: string;
  arrivals: Arrival[];
  setDown(down: boolean): void;
  /** Hold (never answer) requests whose arrival matches; undefined to stop holding. */
  hold(pick: ((a: Arrival) => boolean) | undefined): void;
  /** delivery id → how many times it was acknowledged. */
  acknowledged(): Map<string, number>;
  close(): Promise<void>;
}

export async function startSwitchableReceiver(secret: string): Promise<SwitchableReceiver> {
  const arrivals: Arrival[] = [];
  let down = false;
  let pick: ((a: Arrival) => boolean) | undefined;
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const sig = req.headers[SIGNATURE_HEADER.toLowerCase()];
      const id = req.headers[DELIVERY_HEADER.toLowerCase()];
      const a: Arrival = {
        id: typeof id === 'string' ? id : '',
        event: String(req.headers['x-carrier-screen-event'] ?? ''),
        body,
        signatureOk: typeof sig === 'string' && verifyCallback(secret, sig, body).ok,
        acknowledged: false,
      };
      arrivals.push(a);
      if (pick?.(a)) {
        held.push(res);
        return;
      }
      a.acknowledged = true;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/tms`,
    arrivals,
    setDown(d) {
      down = d;
      if (d) server.closeAllConnections();
    },
    hold(p) {
      pick = p;
    },
    acknowledged() {
      const m = new Map<string, number>();
      for (const a of arrivals) if (a.acknowledged) m.set(a.id, (m.get(a.id) ?? 0) + 1);
      return m;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
