/** Scenario 1, the floor: an empty Fastify route, same machine, same load generator, same concurrency. */
import { fileURLToPath } from 'node:url';
import type { Harness } from '../harness.js';
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
