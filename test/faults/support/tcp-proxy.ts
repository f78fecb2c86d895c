import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP hop between a worker and its PostgreSQL server, on a port of its own: the server as the
 * worker sees it, which the test can take away (`down`: connections refused, every open one cut,
 * as when PostgreSQL stops or restarts) and give back (`up`: on the same port) without touching
 * the real server, which other tests share.
 */
export interface TcpProxy {
  port: number;
  /** Refuse new connections (ECONNREFUSED) and cut the open ones. */
  down(): Promise<void>;
  /** Accept again, on the same port. */
  up(): Promise<void>;
  /** Connections made through it so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let made = 0;
  const serve = (): Server =>
    createServer((client) => {
      made++;
      const upstream = connect(target.port, target.host);
      open.add(client).add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        open.delete(client);
        open.delete(upstream);
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.pipe(upstream).pipe(client);
    });
  const listen = (s: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
  let server: Server | undefined = serve();
  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  const stop = async () => {
    const s = server;
    server = undefined;
    for (const sock of open) sock.destroy();
    open.clear();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    port,
    down: stop,
    async up() {
      if (server) return;
      server = serve();
      await listen(server, port);
    },
    connections: () => made,
    close: stop,
  };
}
