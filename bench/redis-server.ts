/**
 * A private redis-server for the bench on a free loopback port, without persistence, in its
 * own temp dir. Never the default port 6379 or anything the user runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface BenchRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      if (addr === null || typeof addr === 'string') return reject(new Error('no port'));
      srv.close(() => resolve(addr.port));
    });
  });
}

async function ping(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

export async function startRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  const proc: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const failed = new Promise<never>((_, reject) => {
    proc.once('error', (e) => reject(new Error(`redis-server could not start (is it installed?): ${e.message}`)));
    proc.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  failed.catch(() => {});
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await Promise.race([ping(url), failed]).catch(async (e: unknown) => {
      await stop();
      throw e;
    });
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, pid: proc.pid!, stop };
}
