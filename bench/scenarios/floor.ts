/** Scenario 1, the floor: an empty Fastify route, same machine, same load generator, same concurrency. */
import { fileURLToPath } from 'node:url';
import type { Harness } from '../harness.js';
import type { LoadRequest } from '../load-generator.js';
import { forkRpc, type ChildRpc } from '../rpc.js';
import { measureThroughput, type ThroughputRun } from './throughput.js';

export interface FloorServer {
  url: string;
  rpc: ChildRpc;
}

export async function startFloor(): Promise<FloorServer> {
  const rpc = forkRpc(fileURLToPath(new URL('../floor-server.js', import.meta.url)), { name: 'floor server' });
  return { url: await rpc.call<string>('url'), rpc };
}

export function measureFloor(h: Harness, floor: FloorServer, body: string): Promise<ThroughputRun> {
  return measureThroughput(h, { url: floor.url, serverPid: floor.rpc.pid, requests: [{ method: 'POST', path: '/screenings', body }] });
}

/** Seed the durable floor's score cache with these carriers; the mean score JSON size, bytes. */
export function seedDurableFloor(floor: FloorServer, dots: string[]): Promise<number> {
  return floor.rpc.call<number>('seed', dots);
}

/**
 * The durable floor: the same screening requests as the cache-hit run, against a minimal route
 * that checks the token, reads the cached score and commits a screening row that refers to it.
 */
export async function measureDurableFloor(h: Harness, floor: FloorServer, requests: LoadRequest[]): Promise<ThroughputRun> {
  const token = await floor.rpc.call<string>('token');
  return measureThroughput(h, {
    url: floor.url,
    serverPid: floor.rpc.pid,
    headers: { authorization: `Bearer ${token}` },
    requests: requests.map((r) => ({ ...r, path: `/durable${r.path}` })),
    tally: 'source',
  });
}
