import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP listener for callbacks: every body it got, parsed, in order. */
export interface CallbackListener {
  url: string;
  received: Array<{ event: string; screening: Record<string, any> } & Record<string, any>>;
  close(): Promise<void>;
}

export async function startCallbackListener(): Promise<CallbackListener> {
  const received: CallbackListener['received'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      received.push(JSON.parse(raw));
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tms`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
