import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_HEADER, SIGNATURE_HEADER, verifyCallback } from '../../../worker/callbacks/index.js';

/**
 * A TMS's callback endpoint as a real HTTP server: it verifies each signature and counts
 * deliveries per delivery id, keeping every body it was sent.
 */

export interface Delivery {
  id: string;
  signatureOk: boolean;
  body: string;
  headers: IncomingMessage['headers'];
}

export interface CallbackReceiver {
  /** e.g. http://127.0.0.1:40123/hooks/screening */
  url: string;
  deliveries: Delivery[];
  /** delivery id → how many times it arrived. */
  counts(): Map<string, number>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(secret: string): Promise<CallbackReceiver> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const sig = req.headers[SIGNATURE_HEADER.toLowerCase()];
      const id = req.headers[DELIVERY_HEADER.toLowerCase()];
      deliveries.push({
        id: typeof id === 'string' ? id : '',
        signatureOk: typeof sig === 'string' && verifyCallback(secret, sig, body).ok,
        body,
        headers: req.headers,
      });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/screening`,
    deliveries,
    counts() {
      const m = new Map<string, number>();
      for (const d of deliveries) m.set(d.id, (m.get(d.id) ?? 0) + 1);
      return m;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
