/**
 * `node dist/bench/callback-isolation.js [--hung 3] [--healthy 20]`: how long healthy receivers
 * wait for their callbacks while other receivers hang (issue 26: three hung deliveries used to
 * delay 20 healthy callbacks by a median of 19.8 s). Real listeners on loopback, a real SQLite
 * outbox and the real sender with its default time-out (10 s) and slots; prints the delay from
 * owing each healthy callback to its arrival. Timings live here, not in the tests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { CallbackSender, DestinationPolicy, writeCallback } from '../worker/callbacks/index.js';
import { openStore, recordOf } from '../worker/store/index.js';
import { percentile } from './percentiles.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function main(): Promise<void> {
  const hungCount = arg('hung', 3);
  const healthyCount = arg('healthy', 20);
  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-cb-'));
  const store = openStore(join(dir, 'bench.db'));
  const owedAt = new Map<string, number>();
  const delays: number[] = [];
  let done: () => void = () => {};
  const allArrived = new Promise<void>((r) => (done = r));
  // Each hung delivery has its own receiver, as in the report; the healthy ones share one.
  const hung = await Promise.all(Array.from({ length: hungCount }, () => listen(() => {})));
  const healthy = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-carrier-screen-delivery']);
      delays.push(performance.now() - owedAt.get(id)!);
      res.writeHead(204).end();
      if (delays.length === healthyCount) done();
    });
  });
  const sender = new CallbackSender({
    store: recordOf(store),
    secret: 'bench',
    logger: pino({ level: 'silent' }),
    policy: new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' }),
  });
  sender.start();
  for (const [i, h] of hung.entries())
    await writeCallback(recordOf(store), { kind: 'screening.completed', url: `${h.url}/hung`, deliveryId: `hung-${i}`, payload: {} });
  for (let i = 0; i < healthyCount; i++) {
    const id = `ok-${i}`;
    owedAt.set(id, performance.now());
    await writeCallback(recordOf(store), { kind: 'screening.completed', url: `${healthy.url}/ok`, deliveryId: id, payload: {} });
    await new Promise((r) => setTimeout(r, 50)); // owed over a second, while the hung ones hold on
  }
  await allArrived;
  delays.sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  process.stdout.write(
    `callback isolation: ${hungCount} hung receivers, ${healthyCount} healthy callbacks: ` +
      `delay median ${ms(percentile(delays, 50))}, p99 ${ms(percentile(delays, 99))}, max ${ms(delays.at(-1)!)}\n`,
  );
  await sender.close(100);
  store.close();
  for (const s of [...hung, healthy]) {
    s.server.closeAllConnections();
    s.server.close();
  }
  rmSync(dir, { recursive: true, force: true });
}

await main();
